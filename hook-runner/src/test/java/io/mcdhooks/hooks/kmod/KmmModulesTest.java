package io.mcdhooks.hooks.kmod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class KmmModulesTest {

    // The kernel mappings of KMM's documented example Module (docs/mkdocs/documentation/deploy_kmod.md),
    // whose second regexp reads '^.+\fc37...': \f is a form feed there as here, so it is written \. below.
    private static final String KMM_EXAMPLE = """
            apiVersion: kmm.sigs.x-k8s.io/v1beta1
            kind: Module
            metadata:
              name: my-kmod
              namespace: my-namespace
            spec:
              moduleLoader:
                container:
                  modprobe:
                    moduleName: my-kmod
                  imagePullPolicy: Always
                  kernelMappings:
                    - literal: 6.0.15-300.fc37.x86_64
                      containerImage: some.registry/org/my-kmod:6.0.15-300.fc37.x86_64
                    - regexp: '^.+\\.fc37\\.x86_64$'
                      containerImage: "some.other.registry/org/my-kmod:${KERNEL_FULL_VERSION}"
                    - regexp: '^.+$'
                      containerImage: "some.registry/org/my-kmod:${KERNEL_FULL_VERSION}"
                      build:
                        dockerfileConfigMap:
                          name: my-kmod-dockerfile
              selector:
                node-role.kubernetes.io/worker: ""
            """;

    @Test
    void picksTheFirstMappingThatMatchesAsKmmDoes() {
        KmmModule module = KmmModules.parse(KMM_EXAMPLE, "modules.yaml").get(0);

        assertThat(module.id()).isEqualTo("my-namespace/my-kmod");
        assertThat(image(module, "6.0.15-300.fc37.x86_64"))
                .isEqualTo("some.registry/org/my-kmod:6.0.15-300.fc37.x86_64");
        assertThat(image(module, "6.1.7-200.fc37.x86_64"))
                .isEqualTo("some.other.registry/org/my-kmod:6.1.7-200.fc37.x86_64");
        assertThat(image(module, "5.14.0-427.13.1.el9_4.x86_64"))
                .isEqualTo("some.registry/org/my-kmod:5.14.0-427.13.1.el9_4.x86_64");
    }

    @Test
    void aRegexpMatchesAnywhereUnlessAnchoredAndTheModulesImageIsTheFallback() {
        List<KmmModule> modules = KmmModules.parse("""
                apiVersion: v1
                kind: List
                items:
                  - apiVersion: kmm.sigs.x-k8s.io/v1beta1
                    kind: Module
                    metadata: {name: ice}
                    spec:
                      moduleLoader:
                        container:
                          containerImage: r.example/ice:${KERNEL_XYZ}-$MOD_NAME
                          kernelMappings:
                            - regexp: 'el9'
                """, "list.yaml");

        KmmModule ice = modules.get(0);
        assertThat(ice.mappingFor("5.14.0-427.el9.x86_64")).isPresent();
        assertThat(ice.mappingFor("6.0.15-300.fc37.x86_64")).isEmpty();
        assertThat(image(ice, "5.14.0-427.el9.x86_64")).isEqualTo("r.example/ice:5.14.0-ice");
    }

    @Test
    void readsSeveralDocumentsAndGoNamedGroups() {
        List<KmmModule> modules = KmmModules.parse(
                KMM_EXAMPLE + "---\n"
                        + KMM_EXAMPLE.replace("name: my-kmod", "name: other").replace("'^.+$'", "'^(?P<v>.+)$'"),
                "two.yaml");

        assertThat(modules).extracting(KmmModule::id).containsExactly("my-namespace/my-kmod", "my-namespace/other");
        assertThat(modules.get(1).kernelMappings().get(2).matches("5.14.0-1.el9.x86_64"))
                .isTrue();
    }

    @Test
    void refusesWhatKmmsWebhookRefusesNamingTheMapping() {
        assertThatThrownBy(() -> KmmModules.parse(
                        KMM_EXAMPLE.replace(
                                "- literal: 6.0.15-300.fc37.x86_64",
                                "- literal: 6.0.15-300.fc37.x86_64\n          regexp: '.*'"),
                        "m.yaml"))
                .hasMessageContaining("m.yaml document 1 (Module my-namespace/my-kmod) kernelMappings[0]")
                .hasMessageContaining("exactly one of literal and regexp");
        assertThatThrownBy(() -> KmmModules.parse(KMM_EXAMPLE.replace("'^.+$'", "'^(.+$'"), "m.yaml"))
                .hasMessageContaining("kernelMappings[2]")
                .hasMessageContaining("does not compile");
        assertThatThrownBy(() -> KmmModules.parse(
                        KMM_EXAMPLE.replace(
                                "some.registry/org/my-kmod:${KERNEL_FULL_VERSION}",
                                "some.registry/org/my-kmod:${KERNEL_XY}"),
                        "m.yaml"))
                .hasMessageContaining("kernelMappings[2]")
                .hasMessageContaining("$KERNEL_XY");
        assertThatThrownBy(() -> KmmModules.parse(
                        KMM_EXAMPLE.replace(
                                "          containerImage: some.registry/org/my-kmod:6.0.15-300.fc37.x86_64\n", ""),
                        "m.yaml"))
                .hasMessageContaining("kernelMappings[0] has no containerImage");
        assertThatThrownBy(() -> KmmModules.parse("apiVersion: v1\nkind: ConfigMap\n", "m.yaml"))
                .hasMessageContaining("is ConfigMap of v1, not a Module of kmm.sigs.x-k8s.io");
        assertThatThrownBy(() -> KmmModules.parse(KMM_EXAMPLE + "---\n" + KMM_EXAMPLE, "m.yaml"))
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> KmmModules.parse("a: [", "m.yaml")).hasMessageContaining("m.yaml is not YAML");
    }

    private static String image(KmmModule module, String kernel) {
        return module.imageFor(module.mappingFor(kernel).orElseThrow(), kernel);
    }
}
