package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The render merge, as the MCO's {@code MergeMachineConfigs} with Ignition's merge. */
class RendererTest {

    private static final Map<String, Object> BASE = Map.of(
            "osImageURL", "quay.io/ocp@sha256:aaa",
            "kernelType", "default",
            "extensions", List.of(),
            "kernelArguments", List.of("psi=1"),
            "config",
                    Map.of(
                            "ignition",
                            Map.of("version", "3.4.0"),
                            "storage",
                            Map.of(
                                    "files",
                                    List.of(Map.of("path", "/etc/a", "contents", Map.of("source", "data:,1"))))));

    private static Renderer.Source worker(String name, Map<String, Object> spec) {
        return new Renderer.Source(name, "worker", false, spec);
    }

    private static Map<String, Object> ignition(String section, Object value) {
        return Map.of("config", Map.of("ignition", Map.of("version", "3.4.0"), section, value));
    }

    private static Map<String, Object> sshKeys(String... keys) {
        return ignition("passwd", Map.of("users", List.of(Map.of("name", "core", "sshAuthorizedKeys", List.of(keys)))));
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(Map<String, Object> spec, String... path) {
        Object o = spec;
        for (String p : path) {
            o = ((Map<String, Object>) o).get(p);
        }
        return (T) o;
    }

    @Test
    void namesTheRenderedConfigAfterPoolAndMd5OfTheMergedSpec() {
        var rendered = Renderer.render("worker", List.of(worker("00-worker", BASE)));

        assertThat(rendered.name()).matches("rendered-worker-[0-9a-f]{32}");
        assertThat(Renderer.render("worker", List.of(worker("00-worker", BASE))).name())
                .isEqualTo(rendered.name());
        assertThat(Renderer.render("infra", List.of(worker("00-worker", BASE))).name())
                .startsWith("rendered-infra-")
                .endsWith(rendered.name().substring(16));
    }

    @Test
    void sshKeysOfTheCoreUserAreJoinedAcrossMachineConfigsWithoutDuplicates() {
        // Ignition's merge keys users by name and sshAuthorizedKeys by value: a key added in a
        // MachineConfig that sorts before 99-worker-ssh still renders a new config
        var before = Renderer.render(
                "worker",
                List.of(worker("00-worker", BASE), worker("99-worker-ssh", sshKeys("ssh-ed25519 AAA installer"))));
        var after = Renderer.render(
                "worker",
                List.of(
                        worker("00-worker", BASE),
                        worker("50-worker-extra-ssh", sshKeys("ssh-ed25519 BBB admin", "ssh-ed25519 AAA installer")),
                        worker("99-worker-ssh", sshKeys("ssh-ed25519 AAA installer"))));

        assertThat(after.name()).isNotEqualTo(before.name());
        List<Map<String, Object>> users = at(after.spec(), "config", "passwd", "users");
        assertThat(users).hasSize(1);
        assertThat(users.get(0))
                .containsEntry("name", "core")
                .containsEntry("sshAuthorizedKeys", List.of("ssh-ed25519 BBB admin", "ssh-ed25519 AAA installer"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void filesMergeByPathAndUnitsWithTheirDropinsByName() {
        var rendered = Renderer.render(
                "worker",
                List.of(
                        worker("00-worker", BASE),
                        worker(
                                "10-worker-units",
                                ignition(
                                        "systemd",
                                        Map.of(
                                                "units",
                                                List.of(Map.of(
                                                        "name",
                                                        "kubelet.service",
                                                        "enabled",
                                                        true,
                                                        "dropins",
                                                        List.of(Map.of("name", "10-a.conf", "contents", "A"))))))),
                        worker(
                                "20-worker-dropin",
                                ignition(
                                        "systemd",
                                        Map.of(
                                                "units",
                                                List.of(Map.of(
                                                        "name",
                                                        "kubelet.service",
                                                        "dropins",
                                                        List.of(Map.of("name", "20-b.conf", "contents", "B"))))))),
                        worker(
                                "60-worker-file",
                                ignition(
                                        "storage",
                                        Map.of(
                                                "files",
                                                List.of(Map.of(
                                                        "path",
                                                        "/etc/a",
                                                        "contents",
                                                        Map.of("source", "data:,2"))))))));

        List<Map<String, Object>> files = at(rendered.spec(), "config", "storage", "files");
        assertThat(files).singleElement().satisfies(f -> {
            assertThat(f).containsEntry("path", "/etc/a").containsEntry("contents", Map.of("source", "data:,2"));
            // MergeMachineConfigs defaults overwrite to true
            assertThat(f).containsEntry("overwrite", true);
        });
        List<Map<String, Object>> units = at(rendered.spec(), "config", "systemd", "units");
        assertThat(units).singleElement().satisfies(u -> {
            assertThat(u).containsEntry("enabled", true);
            assertThat((List<Object>) u.get("dropins"))
                    .containsExactly(
                            Map.of("name", "10-a.conf", "contents", "A"), Map.of("name", "20-b.conf", "contents", "B"));
        });
    }

    @Test
    void kernelArgumentsAndExtensionsAreConcatenatedAndARealtimeKernelIsKept() {
        var rendered = Renderer.render(
                "worker",
                List.of(
                        worker("00-worker", BASE),
                        worker("50-worker-rt", Map.of("kernelType", "realtime", "kernelArguments", List.of("nosmt"))),
                        worker(
                                "60-worker-ext",
                                Map.of("extensions", List.of("usbguard"), "kernelArguments", List.of("psi=1"))),
                        worker("70-worker-default", Map.of("kernelType", "default", "fips", true))));

        assertThat(rendered.spec())
                .containsEntry("kernelType", "realtime")
                .containsEntry("extensions", List.of("usbguard"))
                .containsEntry("kernelArguments", List.of("psi=1", "nosmt", "psi=1"))
                .containsEntry("fips", true);
    }

    @Test
    void aUserOsImageUrlOverridesTheGeneratedOneWhateverTheOrder() {
        var rendered = Renderer.render(
                "worker",
                List.of(
                        worker("00-user-image", Map.of("osImageURL", "quay.io/custom@sha256:ccc")),
                        new Renderer.Source("01-worker-generated", "worker", true, BASE)));

        assertThat(rendered.spec()).containsEntry("osImageURL", "quay.io/custom@sha256:ccc");
    }

    @Test
    void workerMachineConfigsMergeBeforeTheCustomPoolsOwn() {
        // MergeMachineConfigs: role=worker configs first, then the others, each by name
        var rendered = Renderer.render(
                "infra",
                List.of(
                        new Renderer.Source(
                                "10-infra-file",
                                "infra",
                                false,
                                ignition("storage", Map.of("files", List.of(Map.of("path", "/etc/x", "mode", 384))))),
                        worker(
                                "90-worker-file",
                                ignition("storage", Map.of("files", List.of(Map.of("path", "/etc/x", "mode", 420)))))));

        assertThat(rendered.sources()).containsExactly("90-worker-file", "10-infra-file");
        List<Map<String, Object>> files = at(rendered.spec(), "config", "storage", "files");
        assertThat(files).singleElement().satisfies(f -> assertThat(f).containsEntry("mode", 384));
    }
}
