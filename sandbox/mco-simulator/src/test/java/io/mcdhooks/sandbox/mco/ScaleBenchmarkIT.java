package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A large rollout, off by default (minutes of wall time). Run it with
 * {@code mvn -pl sandbox/mco-simulator verify -Dit.test=ScaleBenchmarkIT -Dmco.benchmark=true}
 * and optionally {@code -Dmco.benchmark.nodes=5000 -Dmco.benchmark.mcn=false}.
 */
@EnabledIfSystemProperty(named = "mco.benchmark", matches = "true")
class ScaleBenchmarkIT {

    @Test
    void rollsOutAKernelChangeToALargePoolAtTenPercent() {
        int workers = Integer.getInteger("mco.benchmark.nodes", 5000);
        boolean mcn = Boolean.parseBoolean(System.getProperty("mco.benchmark.mcn", "true"));
        long t0 = System.nanoTime();
        var topology = Topology.builder()
                .masters(3)
                .workers(workers)
                .maxUnavailable("worker", MaxUnavailable.percent(10))
                .workloadPodsPerNode(1)
                .daemonSetPodsPerNode(1);
        var config = SimulatorConfig.defaults().withMachineConfigNodes(mcn);
        try (var sim = new Simulation(topology)) {
            long created = System.nanoTime();
            sim.start(config);
            long started = System.nanoTime();
            String before = sim.poolTarget("worker");
            var simulatedStart = sim.mco.clock().now();
            var done = new AtomicInteger();

            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));
            await().atMost(Duration.ofMinutes(2))
                    .until(() -> !sim.poolTarget("worker").equals(before));
            String target = sim.poolTarget("worker");
            long last = System.nanoTime();
            await().atMost(Duration.ofMinutes(60))
                    .pollInterval(Duration.ofSeconds(5))
                    .until(() -> {
                        int n = (int) sim.client.nodes().list().getItems().stream()
                                .filter(node -> node.getMetadata().getName().startsWith("worker-"))
                                .filter(node -> target.equals(
                                        node.getMetadata().getAnnotations().get(Mco.CURRENT_CONFIG)))
                                .count();
                        done.set(n);
                        System.out.printf(
                                "benchmark: %d/%d workers updated after %d s, %d unavailable now%n",
                                n,
                                workers,
                                (System.nanoTime() - started) / 1_000_000_000L,
                                sim.recorder.unavailableWorkers());
                        return n == workers;
                    });
            long finished = System.nanoTime();
            System.out.printf(
                    "benchmark: workers=%d maxUnavailable=10%% scale=%.0f mcn=%b "
                            + "topology=%d s start=%d s rollout=%d s (%.1f simulated h) maxSeenUnavailable=%d"
                            + "%n",
                    workers,
                    config.timeScale(),
                    mcn,
                    (created - t0) / 1_000_000_000L,
                    (started - created) / 1_000_000_000L,
                    (finished - started) / 1_000_000_000L,
                    Duration.between(simulatedStart, sim.mco.clock().now()).toSeconds() / 3600.0,
                    sim.recorder.maxUnavailableWorkers());
            assertThat(done.get()).isEqualTo(workers);
            assertThat(sim.recorder.maxUnavailableWorkers())
                    .isLessThanOrEqualTo(MaxUnavailable.percent(10).resolve(workers));
        }
    }
}
