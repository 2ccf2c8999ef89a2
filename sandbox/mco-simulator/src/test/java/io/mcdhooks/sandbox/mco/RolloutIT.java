package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whole rollouts: the budget, the per-node order, custom pools. */
class RolloutIT {

    private static final Duration LONG = Duration.ofSeconds(60);

    @Test
    void rollsOutToEveryWorkerWithinMaxUnavailableAndInTheDocumentedOrder() {
        // Given ten workers over three zones that may lose 20 % (two nodes) at a time
        try (var sim = new Simulation(Topology.builder()
                        .masters(1)
                        .workers(10)
                        .maxUnavailable("worker", MaxUnavailable.percent(20))
                        .workloadPodsPerNode(1)
                        .daemonSetPodsPerNode(1))
                .start()) {
            String before = sim.poolTarget("worker");

            // When the workers get the realtime kernel
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

            // Then every worker ends on the new rendered config
            await().atMost(LONG).until(() -> !sim.poolTarget("worker").equals(before));
            String target = sim.poolTarget("worker");
            assertThat(target).matches("rendered-worker-[0-9a-f]{32}");
            await().atMost(LONG).untilAsserted(() -> {
                for (String node : sim.nodeNames("worker")) {
                    assertThat(sim.annotation(node, Mco.CURRENT_CONFIG))
                            .as(node)
                            .isEqualTo(target);
                    assertThat(sim.annotation(node, Mco.STATE)).as(node).isEqualTo("Done");
                }
            });
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.poolStatus("worker"))
                            .containsEntry("updatedMachineCount", 10)
                            .containsEntry("unavailableMachineCount", 0));
            // never more than two unavailable at once, and two at once at some point
            assertThat(sim.recorder.maxUnavailableWorkers()).isEqualTo(2);
            // each node wrote the MCO annotations in the documented order
            // (the test's own informer may see the last change after the API server has it)
            await().atMost(LONG).untilAsserted(() -> {
                for (String node : sim.nodeNames("worker")) {
                    assertThat(sim.recorder.changes(node))
                            .as("annotation sequence of %s", node)
                            .containsExactlyElementsOf(McdStep.expectedChanges(target, true, true));
                }
            });
            // the masters were not touched
            assertThat(sim.recorder.changes("master-0")).isEmpty();
        }
    }

    @Test
    void aWorkerMachineConfigAlsoReachesACustomPoolWhichUpdatesOnlyItsOwnNodes() {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(2).customPool("infra", 2)).start()) {
            String infraBefore = sim.poolTarget("infra");

            sim.mco.applyMachineConfig(MachineConfigs.extensions("99-worker-usbguard", "worker", List.of("usbguard")));

            await().atMost(LONG).until(() -> !sim.poolTarget("infra").equals(infraBefore));
            String infra = sim.poolTarget("infra");
            assertThat(infra).startsWith("rendered-infra-");
            await().atMost(LONG).untilAsserted(() -> {
                for (String node : sim.nodeNames("infra")) {
                    assertThat(sim.annotation(node, Mco.CURRENT_CONFIG)).isEqualTo(infra);
                }
                for (String node : sim.nodeNames("worker")) {
                    assertThat(sim.annotation(node, Mco.CURRENT_CONFIG)).isEqualTo(sim.poolTarget("worker"));
                }
            });
            assertThat(sim.poolStatus("infra")).containsEntry("machineCount", 2);
            assertThat(sim.poolStatus("worker")).containsEntry("machineCount", 2);
        }
    }

    @Test
    void aSafeRegistriesChangeReloadsCrioWithoutDrainNorRebootButStillUncordons() {
        // calculatePostConfigChangeNodeDisruptionAction: registries.conf is Special; only added
        // search registries is a safe change (isSafeContainerRegistryConfChanges): no drain
        try (var sim = new Simulation(Topology.builder().masters(1).workers(1)).start()) {
            sim.mco.applyMachineConfig(MachineConfigs.file(
                    "99-worker-registries",
                    "worker",
                    "/etc/containers/registries.conf",
                    "unqualified-search-registries = ['quay.io']"));

            await().atMost(LONG).until(() -> !sim.events("worker-0", "NodeDone").isEmpty());
            String target = sim.poolTarget("worker");
            assertThat(sim.events("worker-0", "ServiceReload"))
                    .singleElement()
                    .satisfies(e -> assertThat(e.getMessage())
                            .isEqualTo("Config changes do not require reboot. Service crio was reloaded."));
            assertThat(sim.events("worker-0", "Reboot")).isEmpty();
            assertThat(sim.events("worker-0", "Drain")).isEmpty();
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.recorder.changes("worker-0"))
                            .containsExactlyElementsOf(McdStep.expectedChanges(target, false, false)));
        }
    }

    @Test
    void anUnsafeRegistriesChangeDrainsButDoesNotReboot() {
        // isDrainRequiredForNodeDisruptionActions: a Special action drains unless the change is safe
        try (var sim = new Simulation(Topology.builder().masters(1).workers(1)).start()) {
            sim.mco.applyMachineConfig(MachineConfigs.file(
                    "99-worker-registries",
                    "worker",
                    "/etc/containers/registries.conf",
                    "[[registry]]\nlocation = \"docker.io/library\"\nblocked = true\n"));

            await().atMost(LONG).until(() -> !sim.events("worker-0", "NodeDone").isEmpty());
            String target = sim.poolTarget("worker");
            assertThat(sim.events("worker-0", "Drain")).hasSize(1);
            assertThat(sim.events("worker-0", "ServiceReload")).hasSize(1);
            assertThat(sim.events("worker-0", "Reboot")).isEmpty();
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.recorder.changes("worker-0"))
                            .containsExactlyElementsOf(McdStep.expectedChanges(target, false, true)));
        }
    }
}
