package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Other writers on the same API server (a gatekeeper) and how the simulated MCO reacts. */
class ExternalActorsIT {

    private static final Duration LONG = Duration.ofSeconds(60);

    @Test
    void aPausedPoolGetsNoNewDesiredConfigWhileItsSpecConfigurationStillMoves() {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(3).paused("worker")).start()) {
            String before = sim.poolTarget("worker");

            // When a new MachineConfig lands on the paused pool
            sim.mco.applyMachineConfig(MachineConfigs.extensions("99-worker-usbguard", "worker", List.of("usbguard")));

            // Then the render controller still moves spec.configuration ...
            await().atMost(LONG).until(() -> !sim.poolTarget("worker").equals(before));
            String target = sim.poolTarget("worker");
            // ... and the pool reports the pause, while no node is assigned the new config
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.poolStatus("worker").toString())
                            .contains("Pool is paused; will not update to MachineConfig " + target));
            await().during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> sim.client.nodes().list().getItems().stream()
                            .noneMatch(n -> target.equals(
                                    n.getMetadata().getAnnotations().get(Mco.DESIRED_CONFIG))));
            assertThat(sim.recorder.changes("worker-0")).isEmpty();

            // When the pool is unpaused, the update proceeds
            sim.setPaused("worker", false);
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.annotation("worker-0", Mco.CURRENT_CONFIG))
                            .isEqualTo(target));
        }
    }

    @Test
    void aNodeCordonedBySomeoneElseCountsAsUnavailable() {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(3)).start()) {
            // Given a worker cordoned by another actor, in a pool with maxUnavailable 1
            sim.client.nodes().withName("worker-2").edit(n -> {
                n.getSpec().setUnschedulable(true);
                return n;
            });
            await().atMost(LONG).until(() -> sim.unschedulable("worker-2"));

            // When a change is rolled out
            String before = sim.poolTarget("worker");
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));
            await().atMost(LONG).until(() -> !sim.poolTarget("worker").equals(before));
            String target = sim.poolTarget("worker");

            // Then nobody is given the new config: the cordoned node uses up the budget
            await().atMost(LONG)
                    .untilAsserted(
                            () -> assertThat(sim.poolStatus("worker")).containsEntry("unavailableMachineCount", 1));
            await().during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> sim.client.nodes().list().getItems().stream()
                            .noneMatch(n -> target.equals(
                                    n.getMetadata().getAnnotations().get(Mco.DESIRED_CONFIG))));

            // When the other actor uncordons, the rollout starts
            sim.client.nodes().withName("worker-2").edit(n -> {
                n.getSpec().setUnschedulable(null);
                return n;
            });
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.annotation("worker-0", Mco.DESIRED_CONFIG))
                            .isEqualTo(target));
        }
    }

    @Test
    void aNodeTaintedNoScheduleStillCountsAsAvailableAndKeepsItsTaint() {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(3)).start()) {
            // Given a worker with a NoSchedule taint set by another actor
            Taint hold = new TaintBuilder()
                    .withKey("example.com/hold")
                    .withEffect("NoSchedule")
                    .build();
            sim.addTaint("worker-2", hold);

            // When a change is rolled out
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

            // Then the rollout runs through every node, the tainted one included
            await().atMost(LONG).untilAsserted(() -> {
                String target = sim.poolTarget("worker");
                for (int i = 0; i < 3; i++) {
                    assertThat(sim.annotation(Topology.workerName(i), Mco.CURRENT_CONFIG))
                            .isEqualTo(target);
                    assertThat(sim.annotation(Topology.workerName(i), Mco.STATE))
                            .isEqualTo("Done");
                }
            });
            // and the taint it did not add is still there, while its own are gone
            await().atMost(LONG)
                    .untilAsserted(
                            () -> assertThat(sim.node("worker-2").getSpec().getTaints())
                                    .containsExactly(hold));
        }
    }

    @Test
    void aPodUnderABudgetAllowingNoDisruptionStopsTheDrainUntilItIsRemoved() {
        try (var sim = new Simulation(Topology.builder()
                        .masters(1)
                        .workers(2)
                        .workloadPodsPerNode(2)
                        .daemonSetPodsPerNode(1))
                .start()) {
            // Given a gate on worker-0, the oldest worker and so the first to update
            sim.gate("worker-0");
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

            // Then worker-0 is cordoned and its other pods evicted, but the drain does not finish
            await().atMost(LONG)
                    .until(() -> sim.annotation("worker-0", Mco.DESIRED_DRAIN).startsWith("drain-"));
            String target = sim.poolTarget("worker");
            await().atMost(LONG).untilAsserted(() -> {
                assertThat(sim.unschedulable("worker-0")).isTrue();
                assertThat(podsOn(sim, "worker-0"))
                        .containsExactlyInAnyOrder("dns-default-0-worker-0", "gate-worker-0");
            });
            await().atMost(LONG)
                    .until(() ->
                            !sim.events("worker-0", "DrainThresholdExceeded").isEmpty());
            assertThat(sim.annotation("worker-0", Mco.LAST_APPLIED_DRAIN)).isNotEqualTo("drain-" + target);
            // evicted ReplicaSet pods were recreated elsewhere
            assertThat(podsOn(sim, "worker-1"))
                    .contains("app-0-worker-1", "app-1-worker-1")
                    .hasSizeGreaterThan(3);

            // When the gatekeeper removes the gate
            sim.ungate("worker-0");

            // Then the node finishes its update
            await().atMost(LONG).untilAsserted(() -> {
                assertThat(sim.annotation("worker-0", Mco.CURRENT_CONFIG)).isEqualTo(target);
                assertThat(sim.annotation("worker-0", Mco.STATE)).isEqualTo("Done");
            });
            // The test's own informer may see the last change after the API server has it
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.recorder.changes("worker-0"))
                            .containsExactlyElementsOf(McdStep.expectedChanges(target, true, true)));
        }
    }

    @Test
    void aGateRemovedWhileTheDrainHelperStillRetriesLetsThatDrainFinishWithoutARequeue() {
        // At 20× the helper's 90 s are 4.5 s of wall time: room to remove the gate within them.
        try (var sim = new Simulation(Topology.builder().masters(1).workers(2).workloadPodsPerNode(1))
                .start(SimulatorConfig.defaults().withTimeScale(20))) {
            // Given a gate that refuses the first eviction of worker-0's drain
            sim.gate("worker-0");
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(podsOn(sim, "worker-0"))
                            .contains("gate-worker-0")
                            .noneMatch(pod -> pod.startsWith("app-")));
            String target = sim.annotation("worker-0", Mco.DESIRED_CONFIG);
            // (past the re-sync that the drain's own cordon triggers 5 s in)
            Instant evicted = sim.mco.clock().now();
            await().atMost(LONG).until(() -> sim.mco.clock().now().isAfter(evicted.plusSeconds(15)));

            // When the gate goes while the helper is still retrying (every 5 s, for 90 s)
            Instant removed = sim.mco.clock().now();
            sim.ungate("worker-0");

            // Then the drain finishes within that helper run: at most the other pods' grace and a
            // retry after the gate went (and a poll's 2 s), not the 1-minute requeue of a failed drain
            Instant[] drained = new Instant[1];
            await().atMost(LONG).until(() -> {
                drained[0] = sim.mco.clock().now();
                return ("drain-" + target).equals(sim.annotation("worker-0", Mco.LAST_APPLIED_DRAIN));
            });
            Timings timings = sim.mco.config().timings();
            assertThat(Duration.between(removed, drained[0]))
                    .isLessThan(
                            timings.podTermination().plus(timings.evictRetry()).plus(Duration.ofSeconds(10)));
        }
    }

    @Test
    void theDrainControllerCordonsAgainWhenSomeoneUncordonsMidDrain() {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(2)).start()) {
            sim.gate("worker-0");
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));
            await().atMost(LONG).until(() -> sim.unschedulable("worker-0"));

            // When another actor uncordons the node in the middle of the drain
            long uncordonedAt = Long.parseLong(sim.client
                    .nodes()
                    .withName("worker-0")
                    .edit(n -> {
                        n.getSpec().setUnschedulable(null);
                        return n;
                    })
                    .getMetadata()
                    .getResourceVersion());

            // Then a later version of the node is cordoned again
            await().atMost(LONG).until(() -> {
                var node = sim.node("worker-0");
                return Long.parseLong(node.getMetadata().getResourceVersion()) > uncordonedAt
                        && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
            });
            assertThat(sim.node("worker-0").getSpec().getTaints())
                    .extracting(Taint::getKey)
                    .contains(Mco.UNSCHEDULABLE_TAINT);
        }
    }

    private static List<String> podsOn(Simulation sim, String node) {
        return sim.client.pods().inAnyNamespace().list().getItems().stream()
                .filter(p -> node.equals(p.getSpec().getNodeName()))
                .map(p -> p.getMetadata().getName())
                .toList();
    }
}
