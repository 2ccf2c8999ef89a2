package io.mcdhooks.mco.disruption;

import static io.mcdhooks.mco.disruption.DisruptionActionsTest.file;
import static io.mcdhooks.mco.disruption.DisruptionActionsTest.spec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The class of a change as the bridge publishes it, from the MCD's actions
 * ({@code calculatePostConfigChangeNodeDisruptionActionFromMCDiffs}) and drain rule
 * ({@code isDrainRequiredForNodeDisruptionActions}).
 */
class DisruptionTest {

    private static final NodeDisruptionPolicy DEFAULTS = NodeDisruptionPolicy.defaults();

    @Test
    void anOsChangeDrainsAndReboots() {
        var old = spec(List.of(), null);
        var realtime = new LinkedHashMap<>(old);
        realtime.put("kernelType", "realtime");

        Disruption d = Disruption.of(old, realtime, DEFAULTS);

        assertThat(d.kind()).isEqualTo(Disruption.Kind.REBOOT);
        assertThat(d.drain()).isTrue();
        assertThat(d.reboot()).isTrue();
        assertThat(d.describe()).isEqualTo("reboot");
    }

    @Test
    void anSshKeyOrAPullSecretNeitherDrainsNorTouchesAService() {
        var old = spec(List.of(), List.of("ssh-ed25519 AAAA old"));
        var keys = spec(List.of(), List.of("ssh-ed25519 AAAA old", "ssh-ed25519 BBBB new"));
        var pullSecret = spec(List.of(file("/var/lib/kubelet/config.json", "{}")), List.of("ssh-ed25519 AAAA old"));

        assertThat(Disruption.of(old, keys, DEFAULTS))
                .isEqualTo(new Disruption(Disruption.Kind.NONE, false, false, List.of(DisruptionAction.none())));
        assertThat(Disruption.of(old, pullSecret, DEFAULTS).kind()).isEqualTo(Disruption.Kind.NONE);
    }

    @Test
    void aPolicyJsonChangeReloadsCrioWithoutADrain() {
        var old = spec(List.of(), null);
        var policy = spec(List.of(file("/etc/containers/policy.json", "{\"default\":[]}")), null);

        Disruption d = Disruption.of(old, policy, DEFAULTS);

        assertThat(d.kind()).isEqualTo(Disruption.Kind.SERVICES);
        assertThat(d.drain()).isFalse();
        assertThat(d.describe()).isEqualTo("services (Reload crio.service)");
    }

    @Test
    void aRegistriesChangeDrainsOnlyWhenItIsNotSafe() {
        String before = "[[registry]]\nlocation = \"quay.io\"\n";
        String mirror =
                before + "[[registry.mirror]]\nlocation = \"mirror.example\"\npull-from-mirror = \"digest-only\"\n";
        String blocked = "[[registry]]\nlocation = \"quay.io\"\nblocked = true\n";
        Map<String, Object> old = spec(List.of(file(NodeDisruptionPolicy.REGISTRIES_CONF, before)), null);

        Disruption safe =
                Disruption.of(old, spec(List.of(file(NodeDisruptionPolicy.REGISTRIES_CONF, mirror)), null), DEFAULTS);
        Disruption unsafe =
                Disruption.of(old, spec(List.of(file(NodeDisruptionPolicy.REGISTRIES_CONF, blocked)), null), DEFAULTS);

        assertThat(safe.kind()).isEqualTo(Disruption.Kind.SERVICES);
        assertThat(unsafe.kind()).isEqualTo(Disruption.Kind.DRAIN);
        assertThat(unsafe.reboot()).isFalse();
    }

    @Test
    void anAdministratorsDrainActionDrainsWithoutAReboot() {
        var policy = NodeDisruptionPolicy.merge(Map.of(
                "files",
                List.of(Map.of(
                        "path",
                        "/etc/my-app.conf",
                        "actions",
                        List.of(
                                Map.of("type", "Drain"),
                                Map.of("type", "Restart", "restart", Map.of("serviceName", "my-app.service")))))));
        var old = spec(List.of(), null);
        var changed = spec(List.of(file("/etc/my-app.conf", "x")), null);

        Disruption d = Disruption.of(old, changed, policy);

        assertThat(d.kind()).isEqualTo(Disruption.Kind.DRAIN);
        assertThat(d.describe()).isEqualTo("drain (Drain, Restart my-app.service)");
    }
}
