package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Single-node topology: the MCD's {@code drainRequired} reads the {@code controlPlaneTopology}
 * annotation the node controller copies from {@code Infrastructure/cluster}
 * ({@code setClusterConfigAnnotation}); {@code completeUpdate} still asks for the uncordon, which
 * the drain controller in the MCC's pod can answer only once that pod is scheduled again.
 */
class SingleNodeIT {

    private static final Duration LONG = Duration.ofSeconds(60);

    @Test
    void aSingleReplicaClusterDoesNotDrainButStillDoesTheUncordonHandshake() {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(0)).start()) {
            assertThat(sim.annotation("master-0", Mco.CONTROL_PLANE_TOPOLOGY)).isEqualTo(Mco.SINGLE_REPLICA);

            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-master-rt", "master", "realtime"));

            await().atMost(LONG).until(() -> !sim.events("master-0", "NodeDone").isEmpty());
            String target = sim.poolTarget("master");
            assertThat(sim.events("master-0", "Drain"))
                    .singleElement()
                    .satisfies(e -> assertThat(e.getMessage()).isEqualTo("Drain not required, skipping"));
            assertThat(sim.events("master-0", "Reboot")).hasSize(1);
            // The test's own informer may see the last change after the API server has it
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.recorder.changes("master-0"))
                            .containsExactlyElementsOf(McdStep.expectedChanges(target, true, false)));
        }
    }

    @Test
    void aOneNodeCustomPoolInAHighlyAvailableClusterStillDrains() {
        // not pool size: the cluster's topology decides
        try (var sim = new Simulation(Topology.builder().masters(1).workers(1).customPool("infra", 1)).start()) {
            sim.mco.applyMachineConfig(MachineConfigs.kernelArguments("99-infra-kargs", "infra", List.of("nosmt")));

            await().atMost(LONG).until(() -> !sim.events("infra-0", "NodeDone").isEmpty());
            assertThat(sim.events("infra-0", "Drain"))
                    .singleElement()
                    .satisfies(e -> assertThat(e.getMessage()).isEqualTo("Draining node to update config."));
        }
    }

    @Test
    void aTaintTheMccDoesNotTolerateDeadlocksTheUncordonAfterTheRebootUntilItIsRemoved() {
        Taint hold = new TaintBuilder()
                .withKey("example.com/post-update-hold")
                .withValue("gatekeeper")
                .withEffect("NoSchedule")
                .build();
        List<Toleration> tolerateHold = List.of(new TolerationBuilder()
                .withKey("example.com/post-update-hold")
                .withOperator("Exists")
                .build());
        try (var sim = new Simulation(Topology.builder().masters(1).workers(0)).start()) {
            SimulatedDeployment bridge = sim.mco.deployment("bridge", List.of(), Map.of());
            SimulatedDeployment tolerant = sim.mco.deployment("tolerant", tolerateHold, Map.of());
            assertThat(sim.mco.controllerDeployment().running()).isTrue();
            assertThat(bridge.running()).isTrue();

            // Given a NoSchedule taint on the only node before its update (a post-update hold)
            sim.addTaint("master-0", hold);
            // pods already running stay: NoSchedule does not evict
            await().during(Duration.ofMillis(500))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> sim.mco.controllerDeployment().running() && bridge.running());

            // When the node reboots into a new config
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-master-rt", "master", "realtime"));

            // Then after the reboot neither the MCC nor the bridge is scheduled again, while a pod
            // tolerating the taint is; the MCD gets no uncordon: FailedToUncordon and Degraded
            await().atMost(LONG)
                    .until(() -> !sim.events("master-0", "FailedToUncordon").isEmpty());
            assertThat(sim.mco.controllerDeployment().running()).isFalse();
            assertThat(bridge.running()).isFalse();
            assertThat(tolerant.running()).isTrue();
            await().atMost(LONG).until(() -> Mco.STATE_DEGRADED.equals(sim.annotation("master-0", Mco.STATE)));
            String target = sim.poolTarget("master");
            assertThat(sim.annotation("master-0", Mco.CURRENT_CONFIG)).isNotEqualTo(target);

            // When someone removes the taint, the MCC runs again and the update completes by itself
            sim.client.nodes().withName("master-0").edit(n -> {
                n.getSpec().getTaints().removeIf(t -> t.getKey().equals(hold.getKey()));
                return n;
            });
            await().atMost(LONG).untilAsserted(() -> {
                assertThat(sim.annotation("master-0", Mco.CURRENT_CONFIG)).isEqualTo(target);
                assertThat(sim.annotation("master-0", Mco.STATE)).isEqualTo("Done");
            });
            assertThat(sim.mco.controllerDeployment().running()).isTrue();
            assertThat(bridge.running()).isTrue();
        }
    }
}
