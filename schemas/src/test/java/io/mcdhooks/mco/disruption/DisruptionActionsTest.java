package io.mcdhooks.mco.disruption;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code calculatePostConfigChangeNodeDisruptionAction} / {@code ...FromMCDiffs}
 * ({@code pkg/daemon/update.go}) and {@code isDrainRequiredForNodeDisruptionActions}
 * ({@code pkg/daemon/drain.go}) under the default policy of {@code pkg/apihelpers/apihelpers.go}.
 */
class DisruptionActionsTest {

    private static final NodeDisruptionPolicy DEFAULTS = NodeDisruptionPolicy.defaults();

    static Map<String, Object> spec(List<Map<String, Object>> files, List<String> sshKeys) {
        var ignition = new LinkedHashMap<String, Object>();
        ignition.put("ignition", Map.of("version", "3.5.0"));
        ignition.put("storage", Map.of("files", files));
        if (sshKeys != null) {
            ignition.put("passwd", Map.of("users", List.of(Map.of("name", "core", "sshAuthorizedKeys", sshKeys))));
        }
        var spec = new LinkedHashMap<String, Object>();
        spec.put("osImageURL", "quay.io/ocp@sha256:aaa");
        spec.put("kernelType", "default");
        spec.put("kernelArguments", List.of());
        spec.put("extensions", List.of());
        spec.put("config", ignition);
        return spec;
    }

    static Map<String, Object> file(String path, String contents) {
        return Map.of(
                "path",
                path,
                "contents",
                Map.of(
                        "source",
                        "data:,"
                                + URLEncoder.encode(contents, StandardCharsets.UTF_8)
                                        .replace("+", "%20")));
    }

    private static List<DisruptionAction> actions(Map<String, Object> oldSpec, Map<String, Object> newSpec) {
        return DisruptionActions.calculate(oldSpec, newSpec, DEFAULTS);
    }

    @Test
    void anOsChangeReboots() {
        var old = spec(List.of(), null);
        var realtime = new LinkedHashMap<>(old);
        realtime.put("kernelType", "realtime");
        var kargs = new LinkedHashMap<>(old);
        kargs.put("kernelArguments", List.of("nosmt"));

        assertThat(actions(old, realtime)).containsExactly(DisruptionAction.reboot());
        assertThat(actions(old, kargs)).containsExactly(DisruptionAction.reboot());
        assertThat(DisruptionActions.drainRequired(actions(old, kargs), old, kargs))
                .isTrue();
    }

    @Test
    void sshKeysOnlyTakeNoActionAndNoDrain() {
        var old = spec(List.of(), List.of("ssh-ed25519 AAA"));
        var more = spec(List.of(), List.of("ssh-ed25519 AAA", "ssh-ed25519 BBB"));

        assertThat(actions(old, more)).containsExactly(DisruptionAction.none());
        assertThat(DisruptionActions.drainRequired(actions(old, more), old, more))
                .isFalse();
        assertThat(DisruptionActions.rebootRequired(actions(old, more))).isFalse();
    }

    @Test
    void aPolicyJsonChangeReloadsCrioWithoutDrain() {
        var old = spec(List.of(file("/etc/containers/policy.json", "{}")), null);
        var changed = spec(List.of(file("/etc/containers/policy.json", "{\"default\":[]}")), null);

        assertThat(actions(old, changed)).containsExactly(DisruptionAction.reload("crio.service"));
        assertThat(DisruptionActions.drainRequired(actions(old, changed), old, changed))
                .isFalse();
    }

    @Test
    void aFileUnderAPolicyDirectoryTakesTheLongestMatch() {
        // FindClosestFilePolicyPathMatch: /etc/containers/registries.d/x.yaml falls under the directory entry
        var old = spec(List.of(), null);
        var added = spec(List.of(file("/etc/containers/registries.d/quay.yaml", "docker: {}")), null);

        assertThat(actions(old, added)).containsExactly(DisruptionAction.reload("crio.service"));
    }

    @Test
    void aFileNoPolicyCoversRebootsAndWinsOverEverythingElse() {
        var old = spec(List.of(file("/etc/containers/policy.json", "{}")), List.of("a"));
        var changed = spec(
                List.of(file("/etc/containers/policy.json", "{\"x\":1}"), file("/etc/my-app.conf", "x")), List.of("b"));

        assertThat(actions(old, changed)).containsExactly(DisruptionAction.reboot());
        assertThat(DisruptionActions.drainRequired(actions(old, changed), old, changed))
                .isTrue();
    }

    @Test
    void noneIsDroppedWhenOtherActionsAreThere() {
        var old = spec(List.of(file("/etc/containers/policy.json", "{}")), List.of("a"));
        var changed = spec(List.of(file("/etc/containers/policy.json", "{\"x\":1}")), List.of("b"));

        assertThat(actions(old, changed)).containsExactly(DisruptionAction.reload("crio.service"));
    }

    @Test
    void aSafeRegistriesChangeReloadsCrioWithoutDrainAndAnUnsafeOneDrains() {
        String before = """
                unqualified-search-registries = ["registry.access.redhat.com"]
                [[registry]]
                prefix = ""
                location = "quay.io/openshift-release-dev"
                """;
        String mirrorAdded = before + """
                [[registry.mirror]]
                location = "mirror.example.com/ocp"
                pull-from-mirror = "digest-only"
                """;
        String registryRemoved = """
                unqualified-search-registries = ["registry.access.redhat.com"]
                """;
        var old = spec(List.of(file(NodeDisruptionPolicy.REGISTRIES_CONF, before)), null);
        var safe = spec(List.of(file(NodeDisruptionPolicy.REGISTRIES_CONF, mirrorAdded)), null);
        var unsafe = spec(List.of(file(NodeDisruptionPolicy.REGISTRIES_CONF, registryRemoved)), null);

        assertThat(actions(old, safe)).containsExactly(DisruptionAction.special());
        assertThat(DisruptionActions.drainRequired(actions(old, safe), old, safe))
                .isFalse();
        assertThat(DisruptionActions.drainRequired(actions(old, unsafe), old, unsafe))
                .isTrue();
        assertThat(DisruptionActions.rebootRequired(actions(old, unsafe))).isFalse();
    }

    @Test
    void anAdminPolicyCanAskForADrainWithoutReboot() {
        // MergeClusterPolicies: an admin entry for a path is added to the defaults
        var policy = NodeDisruptionPolicy.merge(Map.of(
                "files",
                List.of(Map.of(
                        "path",
                        "/etc/my-app.conf",
                        "actions",
                        List.of(
                                Map.of("type", "Drain"),
                                Map.of("type", "Restart", "restart", Map.of("serviceName", "my-app.service")))))));
        var old = spec(List.of(file("/etc/my-app.conf", "a")), null);
        var changed = spec(List.of(file("/etc/my-app.conf", "b")), null);

        List<DisruptionAction> actions = DisruptionActions.calculate(old, changed, policy);
        assertThat(actions).containsExactly(DisruptionAction.drain(), DisruptionAction.restart("my-app.service"));
        assertThat(DisruptionActions.drainRequired(actions, old, changed)).isTrue();
        assertThat(DisruptionActions.rebootRequired(actions)).isFalse();
    }

    @Test
    void aUnitChangeRebootsUnlessThePolicyNamesTheUnit() {
        Map<String, Object> old = Map.of(
                "config", Map.of("systemd", Map.of("units", List.of(Map.of("name", "a.service", "contents", "1")))));
        Map<String, Object> changed = Map.of(
                "config", Map.of("systemd", Map.of("units", List.of(Map.of("name", "a.service", "contents", "2")))));
        var policy = NodeDisruptionPolicy.merge(Map.of(
                "units",
                List.of(Map.of(
                        "name",
                        "a.service",
                        "actions",
                        List.of(Map.of("type", "Restart", "restart", Map.of("serviceName", "a.service")))))));

        assertThat(DisruptionActions.calculate(old, changed, DEFAULTS)).containsExactly(DisruptionAction.reboot());
        assertThat(DisruptionActions.calculate(old, changed, policy))
                .containsExactly(DisruptionAction.restart("a.service"));
    }

    @Test
    void nothingChangedTakesNoAction() {
        var spec = spec(List.of(file("/etc/a", "1")), List.of("k"));

        assertThat(actions(spec, spec)).containsExactly(DisruptionAction.none());
    }
}
