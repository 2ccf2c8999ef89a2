package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The MCC's drain controller ({@code pkg/controller/drain/drain_controller.go}). */
class DrainControllerIT {

    private static final Duration LONG = Duration.ofSeconds(60);

    @Test
    void aHeldDrainIsRetriedEveryMinuteThenEveryFiveAndAfterAnHourReportsDrainFailedWhileTheMcdWaitsOn() {
        // drainNode: DrainRequeueDelay 1 min, after DrainRequeueFailingThreshold (10 min)
        // DrainRequeueFailingDelay 5 min with DrainThresholdExceeded, after 1 h DrainFailed + mcc_drain_err
        try (var sim = new Simulation(Topology.builder().masters(1).workers(2)).start()) {
            sim.gate("worker-0");
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

            await().atMost(LONG)
                    .until(() -> sim.events("worker-0", "DrainFailed").size() >= 2);
            Event failed = sim.events("worker-0", "DrainFailed").get(0);
            assertThat(failed.getType()).isEqualTo("Warning");
            assertThat(failed.getSource().getComponent()).isEqualTo("machineconfigcontroller-nodecontroller");
            assertThat(failed.getMessage()).contains("drain exceeded timeout: 1h0m0s. Will continue to retry.");
            assertThat(sim.mco.drainErrors()).containsEntry("worker-0", 1.0);
            var thresholds = sim.events("worker-0", "DrainThresholdExceeded");
            assertThat(thresholds.get(0).getSource().getComponent())
                    .isEqualTo("machineconfigcontroller-nodecontroller");
            // once over the threshold, one failed run every 5 min (+ the helper's 90 s) on average;
            // the first gap may be shorter: the drain's own cordon enqueued a run (4.18+)
            Instant second = Instant.parse(thresholds.get(1).getLastTimestamp());
            Instant last = Instant.parse(thresholds.get(thresholds.size() - 1).getLastTimestamp());
            assertThat(thresholds).hasSizeGreaterThan(3);
            assertThat(Duration.between(second, last).dividedBy(thresholds.size() - 2))
                    .isGreaterThanOrEqualTo(Duration.ofMinutes(5));
            // the MCD gave up after an hour but keeps waiting (FailedToDrain, Degraded)
            await().atMost(LONG).until(() -> Mco.STATE_DEGRADED.equals(sim.annotation("worker-0", Mco.STATE)));
            assertThat(sim.events("worker-0", "FailedToDrain")).isNotEmpty();

            // When the hold goes, the drain lands, the MCD continues and Done clears Degraded
            sim.ungate("worker-0");
            await().atMost(LONG).untilAsserted(() -> {
                assertThat(sim.annotation("worker-0", Mco.CURRENT_CONFIG)).isEqualTo(sim.poolTarget("worker"));
                assertThat(sim.annotation("worker-0", Mco.STATE)).isEqualTo("Done");
                assertThat(sim.annotation("worker-0", Mco.REASON)).isEmpty();
            });
            assertThat(sim.mco.drainErrors()).doesNotContainKey("worker-0");
        }
    }

    @Test
    void anUncordonMidDrainIsUndoneAndNoCompletionIsWrittenForThatPass() {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(2)).start()) {
            sim.gate("worker-0");
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));
            await().atMost(LONG).until(() -> sim.unschedulable("worker-0"));
            String target = sim.annotation("worker-0", Mco.DESIRED_CONFIG);

            // When someone uncordons and the hold goes at once
            sim.client.nodes().withName("worker-0").edit(n -> {
                n.getSpec().setUnschedulable(null);
                return n;
            });
            sim.ungate("worker-0");

            // Then the node is cordoned again before the drain is reported done
            await().atMost(LONG)
                    .until(() -> ("drain-" + target).equals(sim.annotation("worker-0", Mco.LAST_APPLIED_DRAIN)));
            await().atMost(LONG).until(() -> !sim.events("worker-0", "NodeDone").isEmpty());
            // The test's own informer may see the last change after the API server has it
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.recorder.changes("worker-0"))
                            .containsExactlyElementsOf(McdStep.expectedChanges(target, true, true)));
        }
    }

    @Test
    void theUncordonIsRetriedWhileTheApiRefusesItAndTheMcdReachesDoneOnItsOwnOnceItPasses() {
        // cordonOrUncordonNode: 5 tries, then the default rate limiter; the MCD: FailedToUncordon
        // after 10 min, Degraded, completeUpdate again with backoff
        try (var sim = new Simulation(Topology.builder().masters(1).workers(1)).start()) {
            sim.denyUncordon("worker-0");
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

            await().atMost(LONG)
                    .until(() -> sim.events("worker-0", "FailedToUncordon").size() >= 2);
            assertThat(sim.annotation("worker-0", Mco.STATE)).isEqualTo(Mco.STATE_DEGRADED);
            assertThat(sim.mcnCondition("worker-0", "Uncordoned"))
                    .containsEntry("status", "Unknown")
                    .extractingByKey("message")
                    .asString()
                    .contains("failed to uncordon (5 tries)");
            assertThat(sim.events("worker-0", "Reboot")).hasSize(1);

            sim.denyUncordon(null);
            await().atMost(LONG).untilAsserted(() -> {
                assertThat(sim.annotation("worker-0", Mco.CURRENT_CONFIG)).isEqualTo(sim.poolTarget("worker"));
                assertThat(sim.annotation("worker-0", Mco.STATE)).isEqualTo("Done");
            });
            assertThat(sim.unschedulable("worker-0")).isFalse();
            assertThat(sim.events("worker-0", "Reboot")).hasSize(1);
        }
    }

    @Test
    void theOldDrainControllerWritesTheCompletionEvenWhenSomeoneUncordonedMidDrain() {
        // release-4.16/4.17: no second cordon, no re-check before lastAppliedDrain
        var config = SimulatorConfig.defaults().withDrainControllerVersion(DrainControllerVersion.OCP_4_16);
        try (var sim = new Simulation(Topology.builder().masters(1).workers(2)).start(config)) {
            sim.gate("worker-0");
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));
            await().atMost(LONG).until(() -> sim.unschedulable("worker-0"));
            String target = sim.annotation("worker-0", Mco.DESIRED_CONFIG);

            sim.client.nodes().withName("worker-0").edit(n -> {
                n.getSpec().setUnschedulable(null);
                return n;
            });
            await().atMost(LONG).until(() -> !sim.unschedulable("worker-0"));
            sim.ungate("worker-0");

            await().atMost(LONG)
                    .until(() -> ("drain-" + target).equals(sim.annotation("worker-0", Mco.LAST_APPLIED_DRAIN)));
            assertThat(sim.unschedulable("worker-0")).isFalse();
        }
    }
}
