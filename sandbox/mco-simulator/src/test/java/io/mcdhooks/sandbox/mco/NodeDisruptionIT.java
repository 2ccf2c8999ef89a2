package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Node disruption policies: the MCD's {@code calculatePostConfigChangeNodeDisruptionAction},
 * {@code isDrainRequiredForNodeDisruptionActions}, {@code performPostConfigChangeNodeDisruptionAction}
 * and {@code finishRebootlessUpdate}; the operator's {@code syncMachineConfiguration}.
 */
class NodeDisruptionIT {

    private static final Duration LONG = Duration.ofSeconds(60);

    /** An administrator's policy: /etc/my-app.conf drains, then reloads or restarts my-app.service. */
    private static Map<String, Object> drainAnd(String type, String field) {
        return Map.of(
                "files",
                List.of(Map.of(
                        "path",
                        "/etc/my-app.conf",
                        "actions",
                        List.of(
                                Map.of("type", "Drain"),
                                Map.of("type", type, field, Map.of("serviceName", "my-app.service"))))));
    }

    @Test
    void anSshKeyAddedBeforeTheInstallersOneRendersANewConfigThatNeitherDrainsNorReboots() {
        // MergeMachineConfigs joins the core user's keys; the default SSH key policy is None
        try (var sim = new Simulation(Topology.builder().masters(1).workers(1)).start()) {
            String before = sim.poolTarget("worker");

            sim.mco.applyMachineConfig(
                    MachineConfigs.sshKeys("50-worker-admin-ssh", "worker", List.of("ssh-ed25519 AAAAadmin")));

            await().atMost(LONG).until(() -> !sim.poolTarget("worker").equals(before));
            String target = sim.poolTarget("worker");
            await().atMost(LONG).until(() -> target.equals(sim.annotation("worker-0", Mco.CURRENT_CONFIG)));
            assertThat(sim.events("worker-0", "SkipReboot")).hasSize(1);
            assertThat(sim.events("worker-0", "Drain")).isEmpty();
            assertThat(sim.events("worker-0", "Reboot")).isEmpty();
            // The test's own informer may see the last change after the API server has it
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.recorder.changes("worker-0"))
                            .containsExactlyElementsOf(McdStep.expectedChanges(target, false, false)));
        }
    }

    @Test
    void anAdministratorsPolicyIsPublishedAndItsDrainAndRestartTakenWithoutAReboot() {
        Map<String, Object> policy = drainAnd("Restart", "restart");
        try (var sim = new Simulation(Topology.builder().masters(1).workers(1).nodeDisruptionPolicy(policy)).start()) {
            // syncMachineConfiguration: defaults plus the admin entry in the status
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(Mco.machineConfiguration(sim.client)
                                    .get()
                                    .getAdditionalProperties()
                                    .get("status")
                                    .toString())
                            .contains("/etc/my-app.conf", "/etc/containers/registries.conf", "Special"));

            sim.mco.applyMachineConfig(MachineConfigs.file("99-worker-my-app", "worker", "/etc/my-app.conf", "x=1"));

            await().atMost(LONG).until(() -> !sim.events("worker-0", "NodeDone").isEmpty());
            String target = sim.poolTarget("worker");
            assertThat(sim.events("worker-0", "Drain")).hasSize(1);
            assertThat(sim.events("worker-0", "ServiceRestart"))
                    .singleElement()
                    .satisfies(e -> assertThat(e.getMessage()).contains("my-app.service was restarted"));
            assertThat(sim.events("worker-0", "Reboot")).isEmpty();
            // The test's own informer may see the last change after the API server has it
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.recorder.changes("worker-0"))
                            .containsExactlyElementsOf(McdStep.expectedChanges(target, false, true)));
        }
    }

    @Test
    void aRebootlessUpdateWhoseUncordonFailsRevertsItsFilesAndIsRedoneOnceTheUncordonWorks() {
        // completeUpdate fails after 10 min; finishRebootlessUpdate returns the error out of
        // update(), whose deferred rollback reverts the files; the retry waits for the uncordon
        Map<String, Object> policy = drainAnd("Reload", "reload");
        try (var sim = new Simulation(Topology.builder().masters(1).workers(1).nodeDisruptionPolicy(policy)).start()) {
            // Given the API server refuses to uncordon worker-0 (an admission policy holding it)
            sim.denyUncordon("worker-0");

            // When a change that drains and reloads a service, without reboot, is rolled out
            sim.mco.applyMachineConfig(MachineConfigs.file("99-worker-my-app", "worker", "/etc/my-app.conf", "x=1"));

            // Then after 10 minutes without uncordon: FailedToUncordon, Degraded, not Done
            await().atMost(LONG)
                    .until(() -> !sim.events("worker-0", "FailedToUncordon").isEmpty());
            await().atMost(LONG).until(() -> Mco.STATE_DEGRADED.equals(sim.annotation("worker-0", Mco.STATE)));
            assertThat(sim.annotation("worker-0", Mco.REASON)).startsWith("failed to uncordon node: worker-0");
            assertThat(sim.events("worker-0", "ServiceReload")).hasSize(1);
            assertThat(sim.annotation("worker-0", Mco.CURRENT_CONFIG)).isNotEqualTo(sim.poolTarget("worker"));
            assertThat(sim.unschedulable("worker-0")).isTrue();

            // When the uncordon is allowed again
            sim.denyUncordon(null);

            // Then the drain controller's retry uncordons, and the MCD redoes the whole update
            // (drain, files, reload, uncordon) and is Done with Degraded cleared
            await().atMost(LONG).untilAsserted(() -> {
                assertThat(sim.annotation("worker-0", Mco.CURRENT_CONFIG)).isEqualTo(sim.poolTarget("worker"));
                assertThat(sim.annotation("worker-0", Mco.STATE)).isEqualTo("Done");
                assertThat(sim.annotation("worker-0", Mco.REASON)).isEmpty();
            });
            assertThat(sim.unschedulable("worker-0")).isFalse();
            assertThat(sim.events("worker-0", "ServiceReload")).hasSize(2);
            assertThat(sim.events("worker-0", "Drain")).hasSize(2);
            assertThat(sim.events("worker-0", "Reboot")).isEmpty();
        }
    }
}
