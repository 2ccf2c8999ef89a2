package io.mcdhooks.bridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.mcdhooks.bridge.overrides.GateOverride;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The deployed GateOverride CRD is the generated one: namespaced, with a status the gatekeeper writes. */
class GateOverrideCrdTest {

    private static final String FILE = "gateoverrides.mcdhooks.io-v1.yml";
    private static final Path GENERATED = Path.of("target", "classes", "META-INF", "fabric8", FILE);

    @Test
    void deployedCrdIsExactlyWhatTheBuildGenerates() throws Exception {
        assertThat(GENERATED).as("the build generates the CRD").exists();
        assertThat(Files.readString(Manifests.BASE.resolve("crds").resolve(FILE)))
                .as(
                        "deploy/base/crds/%s is a copy of bridge/%s; copy it again after changing the model",
                        FILE, GENERATED)
                .isEqualTo(Files.readString(GENERATED));
    }

    @Test
    void itIsNamespacedWithAStatusSubresourceAndEveryFieldOfTheSpecRequired() {
        CustomResourceDefinition crd =
                Manifests.one(CustomResourceDefinition.class, "gateoverrides." + GateOverride.GROUP);
        assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
        CustomResourceDefinitionVersion version = crd.getSpec().getVersions().get(0);
        assertThat(version.getName()).isEqualTo(GateOverride.VERSION);
        assertThat(version.getSubresources().getStatus()).isNotNull();
        assertThat(version.getSchema()
                        .getOpenAPIV3Schema()
                        .getProperties()
                        .get("spec")
                        .getRequired())
                .containsExactlyInAnyOrder("gate", "action", "reason", "requestedBy");
    }
}
