package io.mcdhooks.mco.disruption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The default policy and {@code MergeClusterPolicies} ({@code pkg/apihelpers/apihelpers.go}). */
class NodeDisruptionPolicyTest {

    @Test
    void theDefaultsCoverTheMcosFilesAndSshKeys() {
        var policy = NodeDisruptionPolicy.defaults();

        assertThat(policy.fileActions("/var/lib/kubelet/config.json")).containsExactly(DisruptionAction.none());
        assertThat(policy.fileActions("/etc/containers/registries.conf")).containsExactly(DisruptionAction.special());
        assertThat(policy.fileActions("/etc/pki/ca-trust/source/anchors/openshift-config-user-ca-bundle.crt"))
                .containsExactly(
                        DisruptionAction.restart("coreos-update-ca-trust.service"),
                        DisruptionAction.restart("crio.service"));
        assertThat(policy.fileActions("/etc/kubernetes/credential-providers/ecr.yaml"))
                .containsExactly(DisruptionAction.restart("kubelet.service"));
        assertThat(policy.fileActions("/etc/my-app.conf")).isNull();
        assertThat(policy.sshKey()).containsExactly(DisruptionAction.none());
    }

    @Test
    void anAdminEntryReplacesTheDefaultForItsPathInPlaceAndNewOnesAreAppended() {
        var merged = NodeDisruptionPolicy.merge(Map.of(
                "files",
                List.of(
                        Map.of("path", "/etc/containers/policy.json", "actions", List.of(Map.of("type", "Reboot"))),
                        Map.of("path", "/etc/new", "actions", List.of(Map.of("type", "None")))),
                "sshkey",
                Map.of("actions", List.of(Map.of("type", "Drain")))));

        var defaults = NodeDisruptionPolicy.defaults();
        assertThat(merged.files()).hasSize(defaults.files().size() + 1);
        assertThat(merged.files().get(2).path()).isEqualTo("/etc/containers/policy.json");
        assertThat(merged.fileActions("/etc/containers/policy.json")).containsExactly(DisruptionAction.reboot());
        assertThat(merged.files().get(merged.files().size() - 1).path()).isEqualTo("/etc/new");
        assertThat(merged.sshKey()).containsExactly(DisruptionAction.drain());
    }

    @Test
    void theStatusFormReadsBackTheSame() {
        var merged = NodeDisruptionPolicy.merge(Map.of(
                "units",
                List.of(Map.of(
                        "name",
                        "chronyd.service",
                        "actions",
                        List.of(Map.of("type", "Reload", "reload", Map.of("serviceName", "chronyd.service")))))));

        assertThat(NodeDisruptionPolicy.fromStatus(merged.toStatus())).isEqualTo(merged);
        assertThat(merged.toStatus().get("sshkey")).isEqualTo(Map.of("actions", List.of(Map.of("type", "None"))));
    }

    @Test
    void aReloadWithoutServiceIsAnError() {
        assertThatThrownBy(() -> NodeDisruptionPolicy.merge(Map.of(
                        "files", List.of(Map.of("path", "/etc/x", "actions", List.of(Map.of("type", "Reload")))))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Reload needs a service name");
    }
}
