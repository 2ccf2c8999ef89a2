package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Eviction and the kubelet: Kubernetes' {@code canIgnorePDB} (a Pending pod goes without its budget
 * being asked) and pods that start only once their image is pulled.
 */
class EvictionIT {

    private static final Duration LONG = Duration.ofSeconds(60);

    private static Pod pod(Simulation sim, String name) {
        return sim.client.pods().inNamespace(Simulation.GATES).withName(name).get();
    }

    /** The pod's phase; null before the kubelet has written its status (a moment after it is created). */
    private static String phase(Pod pod) {
        return pod == null || pod.getStatus() == null ? null : pod.getStatus().getPhase();
    }

    @Test
    void aGatePodIsStartedByTheKubeletAndThenHoldsTheDrain() {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(1)).start()) {
            sim.gate("worker-0");
            await().atMost(LONG)
                    .untilAsserted(
                            () -> assertThat(phase(pod(sim, "gate-worker-0"))).isEqualTo("Running"));

            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

            await().atMost(LONG)
                    .until(() ->
                            !sim.events("worker-0", "DrainThresholdExceeded").isEmpty());
            assertThat(pod(sim, "gate-worker-0")).isNotNull();
        }
    }

    @Test
    void aGatePodWhoseImageCannotBePulledStaysPendingAndIsEvictedWithoutItsBudget() {
        var config = SimulatorConfig.defaults().withUnpullableImages(Pattern.compile("registry\\.example/missing/.*"));
        try (var sim = new Simulation(Topology.builder().masters(1).workers(1)).start(config)) {
            sim.gate("worker-0", "registry.example/missing/pause:1");
            await().atMost(LONG).untilAsserted(() -> {
                Pod gate = pod(sim, "gate-worker-0");
                assertThat(phase(gate)).isEqualTo("Pending");
                assertThat(gate.getStatus().getContainerStatuses())
                        .singleElement()
                        .satisfies(c -> assertThat(c.getState().getWaiting())
                                .isNotNull()
                                .extracting(w -> w.getReason())
                                .isEqualTo("ImagePullBackOff"));
            });

            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

            // the budget allows no disruption, yet the Pending pod is evicted and the update goes on
            await().atMost(LONG).until(() -> pod(sim, "gate-worker-0") == null);
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.annotation("worker-0", Mco.CURRENT_CONFIG))
                            .isEqualTo(sim.poolTarget("worker")));
            assertThat(sim.events("worker-0", "DrainThresholdExceeded")).isEmpty();
        }
    }

    @Test
    void evictedReplicaSetPodsComeBackPendingElsewhereAndTheKubeletStartsThem() {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(2).workloadPodsPerNode(1)).start()) {
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

            await().atMost(LONG).untilAsserted(() -> {
                for (String n : sim.nodeNames("worker")) {
                    assertThat(sim.annotation(n, Mco.CURRENT_CONFIG)).isEqualTo(sim.poolTarget("worker"));
                }
            });
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.client
                                    .pods()
                                    .inNamespace(Topology.WORKLOAD_NAMESPACE)
                                    .list()
                                    .getItems())
                            .hasSize(2)
                            .allSatisfy(p -> {
                                assertThat(p.getMetadata().getName()).isNotIn("app-0-worker-0", "app-0-worker-1");
                                assertThat(phase(p)).isEqualTo("Running");
                            }));
        }
    }
}
