package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Injected faults and the MCO's documented reactions. */
class FaultsIT {

    private static final Duration LONG = Duration.ofSeconds(60);

    private static Simulation twoWorkers() {
        return new Simulation(Topology.builder().masters(1).workers(2));
    }

    private static void rollOutRealtime(Simulation sim) {
        sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));
    }

    @Test
    void anApplyFailureDegradesTheNodeWithItsReasonAndHoldsThePool() {
        try (var sim = twoWorkers().start()) {
            sim.mco.injectFault("worker-0", new Fault.ApplyFailure("failed to write /etc/foo: disk full"));

            rollOutRealtime(sim);

            await().atMost(LONG).untilAsserted(() -> {
                assertThat(sim.annotation("worker-0", Mco.STATE)).isEqualTo("Degraded");
                assertThat(sim.annotation("worker-0", Mco.REASON)).isEqualTo("failed to write /etc/foo: disk full");
                assertThat(sim.poolStatus("worker")).containsEntry("degradedMachineCount", 1);
                assertThat(mcnCondition(sim, "worker-0", "NodeDegraded")).containsEntry("status", "True");
            });
            // a node failing the target uses up maxUnavailable=1: worker-1 is not started
            await().during(Duration.ofSeconds(1))
                    .atMost(Duration.ofSeconds(3))
                    .until(() -> !sim.annotation("worker-1", Mco.DESIRED_CONFIG).equals(sim.poolTarget("worker")));

            // When the fault is cleared the MCD retries and the rollout completes
            sim.mco.clearFaults("worker-0");
            await().atMost(LONG).untilAsserted(() -> {
                for (String n : List.of("worker-0", "worker-1")) {
                    assertThat(sim.annotation(n, Mco.CURRENT_CONFIG)).isEqualTo(sim.poolTarget("worker"));
                    assertThat(sim.annotation(n, Mco.STATE)).isEqualTo("Done");
                }
            });
        }
    }

    @Test
    void aNodeThatNeverComesBackFromRebootStaysNotReadyAndStallsThePool() {
        try (var sim = twoWorkers().start()) {
            sim.mco.injectFault("worker-0", new Fault.NeverReturnFromReboot());

            rollOutRealtime(sim);

            await().atMost(LONG).untilAsserted(() -> {
                assertThat(sim.annotation("worker-0", Mco.POST_CONFIG_ACTION)).isEqualTo("Rebooting");
                assertThat(sim.ready("worker-0")).isEqualTo("Unknown");
            });
            // far longer than a reboot takes (150 s simulated = 0.15 s here)
            await().during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(4))
                    .until(() -> sim.ready("worker-0").equals("Unknown")
                            && sim.annotation("worker-0", Mco.POST_CONFIG_ACTION)
                                    .equals("Rebooting")
                            && !sim.annotation("worker-1", Mco.DESIRED_CONFIG).equals(sim.poolTarget("worker")));
            assertThat(sim.poolStatus("worker")).containsEntry("unavailableMachineCount", 1);

            sim.mco.clearFaults("worker-0");
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.annotation("worker-1", Mco.CURRENT_CONFIG))
                            .isEqualTo(sim.poolTarget("worker")));
        }
    }

    @Test
    void aDrainHeldByABudgetForAnHourDegradesTheNodeWithFailedToDrain() {
        try (var sim = twoWorkers().start()) {
            sim.gate("worker-0");

            rollOutRealtime(sim);

            // after 10 simulated minutes of failed evictions
            await().atMost(LONG)
                    .until(() ->
                            !sim.events("worker-0", "DrainThresholdExceeded").isEmpty());
            assertThat(sim.events("worker-0", "DrainThresholdExceeded").get(0).getMessage())
                    .contains(DisruptionBudgets.VIOLATION);
            assertThat(sim.annotation("worker-0", Mco.STATE)).isEqualTo("Working");

            // after one simulated hour (3.6 s at scale 1000)
            await().atMost(LONG).untilAsserted(() -> {
                assertThat(sim.events("worker-0", "FailedToDrain")).hasSize(1);
                assertThat(sim.annotation("worker-0", Mco.STATE)).isEqualTo("Degraded");
                assertThat(sim.annotation("worker-0", Mco.REASON)).startsWith("failed to drain node");
            });
            Event first = sim.events("worker-0", "Drain").get(0);
            Event failed = sim.events("worker-0", "FailedToDrain").get(0);
            assertThat(Duration.between(
                            Instant.parse(first.getLastTimestamp()), Instant.parse(failed.getLastTimestamp())))
                    .isGreaterThanOrEqualTo(Duration.ofHours(1));
            assertThat(failed.getType()).isEqualTo("Warning");
            assertThat(failed.getSource().getComponent()).isEqualTo("machineconfigdaemon");
        }
    }

    @Test
    void anOnDiskValidationFailureAfterRebootDegradesTheNodeWhichRetriesUntilTheDiskIsRight() {
        // checkStateOnFirstRun fails; handleErr degrades and requeues with backoff (1 s .. 60 s)
        try (var sim = twoWorkers().start()) {
            sim.mco.injectFault(
                    "worker-0", new Fault.OnDiskValidationFailure("expected kernel type realtime, found default"));

            rollOutRealtime(sim);

            await().atMost(LONG).untilAsserted(() -> {
                assertThat(sim.events("worker-0", "OnDiskStateValidationFailed"))
                        .hasSizeGreaterThan(1);
                assertThat(sim.annotation("worker-0", Mco.STATE)).isEqualTo("Degraded");
                assertThat(sim.annotation("worker-0", Mco.REASON))
                        .contains("expected kernel type realtime, found default");
                assertThat(sim.annotation("worker-0", Mco.POST_CONFIG_ACTION)).isEmpty();
            });
            List<Event> failures = sim.events("worker-0", "OnDiskStateValidationFailed");
            assertThat(Duration.between(
                            Instant.parse(failures.get(0).getLastTimestamp()),
                            Instant.parse(failures.get(1).getLastTimestamp())))
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(1));

            // When the disk is right again the next retry completes the update and clears Degraded
            sim.mco.clearFaults("worker-0");
            await().atMost(LONG).untilAsserted(() -> {
                assertThat(sim.annotation("worker-0", Mco.CURRENT_CONFIG)).isEqualTo(sim.poolTarget("worker"));
                assertThat(sim.annotation("worker-0", Mco.STATE)).isEqualTo("Done");
                assertThat(sim.annotation("worker-0", Mco.REASON)).isEmpty();
            });
        }
    }

    @Test
    void aSlowDrainStretchesTheTimeBetweenDrainAndReboot() {
        // the drain helper waits for evicted pods to be gone, 90 s per run, retried every minute
        try (var sim = new Simulation(Topology.builder().masters(1).workers(2).workloadPodsPerNode(1)).start()) {
            sim.mco.injectFault("worker-0", new Fault.SlowDrain(Duration.ofMinutes(30)));

            rollOutRealtime(sim);

            await().atMost(LONG).until(() -> !sim.events("worker-0", "Reboot").isEmpty());
            Instant drain = Instant.parse(sim.events("worker-0", "Drain").get(0).getLastTimestamp());
            Instant reboot =
                    Instant.parse(sim.events("worker-0", "Reboot").get(0).getLastTimestamp());
            assertThat(Duration.between(drain, reboot)).isGreaterThan(Duration.ofMinutes(30));
        }
    }

    @Test
    void recordsTheMcdEventsAndMachineConfigNodeConditionsOfAnUpdate() {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(1)).start()) {
            rollOutRealtime(sim);

            await().atMost(LONG)
                    .untilAsserted(() ->
                            assertThat(sim.annotation("worker-0", Mco.STATE)).isEqualTo("Done"));
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.annotation("worker-0", Mco.CURRENT_CONFIG))
                            .isEqualTo(sim.poolTarget("worker")));
            String target = sim.poolTarget("worker");

            assertThat(sim.eventReasons("worker-0"))
                    .containsExactly(
                            "Cordon", "Drain", "OSUpdateStarted", "OSUpdateStaged", "Reboot", "Uncordon", "NodeDone");
            assertThat(sim.events("worker", "SetDesiredConfig")).hasSize(1);
            await().atMost(LONG).untilAsserted(() -> {
                var status = mcnStatus(sim, "worker-0");
                assertThat(status.get("configVersion")).isEqualTo(Map.of("current", target, "desired", target));
                assertThat(mcnCondition(sim, "worker-0", "Updated")).containsEntry("status", "True");
                assertThat(mcnCondition(sim, "worker-0", "RebootedNode"))
                        .containsEntry("status", "False")
                        .containsEntry("reason", "RebootedNode");
            });
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> mcnStatus(Simulation sim, String node) {
        return (Map<String, Object>) Mco.machineConfigNodes(sim.client)
                .withName(node)
                .get()
                .getAdditionalProperties()
                .get("status");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> mcnCondition(Simulation sim, String node, String type) {
        return ((List<Map<String, Object>>) mcnStatus(sim, node).get("conditions"))
                .stream().filter(c -> type.equals(c.get("type"))).findFirst().orElseThrow();
    }
}
