package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The MCC's node controller: pool status ({@code calculateStatus}), the operator node
 * ({@code filterControlPlaneCandidateNodes}) and the UpdateInProgress taint
 * ({@code setUpdateInProgressTaint} / {@code removeUpdateInProgressTaint}).
 */
class NodeControllerIT {

    private static final Duration LONG = Duration.ofSeconds(60);

    @Test
    void aDoneButCordonedNodeKeepsThePoolNotUpdatedAndItsConfigurationWhereItWas() {
        try (var sim = new Simulation(
                        Topology.builder().masters(1).workers(2).maxUnavailable("worker", MaxUnavailable.of(2)))
                .start()) {
            String initial = sim.poolTarget("worker");
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));
            await().atMost(LONG).until(() -> !sim.poolTarget("worker").equals(initial));
            String first = sim.poolTarget("worker");
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.poolStatus("worker")
                                    .get("configuration")
                                    .toString())
                            .contains(first));

            // When someone cordons a node that is Done on the target
            sim.cordon("worker-1");

            // Then the pool is no longer Updated: updated = machines, but not ready = machines
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.poolStatus("worker"))
                            .containsEntry("updatedMachineCount", 2)
                            .containsEntry("readyMachineCount", 1)
                            .containsEntry("unavailableMachineCount", 1));
            assertThat(sim.poolStatus("worker").get("conditions").toString()).contains("status=False, type=Updated");

            // And a next config reaches the other node while status.configuration stays on the first
            sim.mco.applyMachineConfig(MachineConfigs.kernelArguments("99-worker-kargs", "worker", List.of("nosmt")));
            await().atMost(LONG).until(() -> !sim.poolTarget("worker").equals(first));
            String second = sim.poolTarget("worker");
            await().atMost(LONG)
                    .until(() -> second.equals(sim.annotation("worker-0", Mco.CURRENT_CONFIG))
                            && Mco.STATE_DONE.equals(sim.annotation("worker-0", Mco.STATE)));
            assertThat(sim.poolStatus("worker").get("configuration").toString()).contains(first);

            // When the cordon goes, the last node updates and status.configuration moves
            sim.client.nodes().withName("worker-1").edit(n -> {
                n.getSpec().setUnschedulable(null);
                return n;
            });
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.poolStatus("worker")
                                    .get("configuration")
                                    .toString())
                            .contains(second));
            // The node controller posts its Event after the status write, as the MCO's does
            await().atMost(LONG)
                    .untilAsserted(
                            () -> assertThat(sim.events("worker", "Completed")).hasSize(2));
        }
    }

    @Test
    void theOperatorsNodeIsDeferredInTheMasterPoolUntilItIsTheLastCandidate() {
        try (var sim = new Simulation(Topology.builder().masters(3).workers(1))
                .start(SimulatorConfig.defaults().withOperatorNode("master-0"))) {
            sim.mco.applyMachineConfig(MachineConfigs.kernelArguments("99-master-kargs", "master", List.of("nosmt")));

            await().atMost(LONG).untilAsserted(() -> {
                for (String m : sim.nodeNames("master")) {
                    assertThat(sim.annotation(m, Mco.CURRENT_CONFIG)).isEqualTo(sim.poolTarget("master"));
                }
            });
            assertThat(sim.events("master", "DeferringOperatorNodeUpdate"))
                    .isNotEmpty()
                    .allSatisfy(e -> assertThat(e.getMessage())
                            .isEqualTo("Deferring update of machine config operator node master-0"));
            List<String> targeted = sim.events("master", "SetDesiredConfig").stream()
                    .map(e -> e.getMessage())
                    .toList();
            assertThat(targeted.get(targeted.size() - 1)).startsWith("Targeted node master-0 to MachineConfig: ");
        }
    }

    @Test
    void theUpdateInProgressTaintGoesAtAssignmentNotAtDone() {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(2)).start()) {
            sim.gate("worker-0");
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

            // worker-0 is assigned (and held in its drain): its taint is gone; worker-1 waits with it
            await().atMost(LONG).untilAsserted(() -> {
                assertThat(sim.annotation("worker-0", Mco.DESIRED_CONFIG)).isEqualTo(sim.poolTarget("worker"));
                assertThat(sim.taintKeys("worker-0")).doesNotContain(Mco.UPDATE_IN_PROGRESS_TAINT);
                assertThat(sim.taintKeys("worker-1")).contains(Mco.UPDATE_IN_PROGRESS_TAINT);
            });
            assertThat(sim.annotation("worker-0", Mco.STATE)).isEqualTo(Mco.STATE_WORKING);
        }
    }

    @Test
    void aTaintAnotherActorAddsBetweenTheMccsReadAndWriteIsLost() {
        // the MCC patches the whole spec.taints list it read: Taints has no patch merge key
        Taint hold = new TaintBuilder()
                .withKey("example.com/hold")
                .withEffect("NoSchedule")
                .build();
        var config = SimulatorConfig.defaults().withTimings(Timings.mco().withTaintWriteWindow(Duration.ofMinutes(20)));
        try (var sim = new Simulation(Topology.builder().masters(1).workers(2)).start(config)) {
            var read = new AtomicBoolean();
            sim.cluster.interceptRequests((request, proceed) -> {
                if ("GET".equals(request.getMethod()) && request.getPath().equals("/api/v1/nodes/worker-1")) {
                    read.set(true);
                }
                return proceed.get();
            });
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

            // When another actor taints worker-1 after the MCC read it for its UpdateInProgress taint
            await().atMost(LONG).untilTrue(read);
            sim.addTaint("worker-1", hold);
            await().atMost(LONG).until(() -> sim.taintKeys("worker-1").contains("example.com/hold"));

            // Then the MCC's write of the list it read drops it
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.taintKeys("worker-1"))
                            .contains(Mco.UPDATE_IN_PROGRESS_TAINT)
                            .doesNotContain("example.com/hold"));
        }
    }
}
