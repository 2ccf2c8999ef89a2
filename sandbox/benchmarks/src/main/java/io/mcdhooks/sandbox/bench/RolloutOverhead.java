package io.mcdhooks.sandbox.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.MachineConfigs;
import io.mcdhooks.sandbox.mco.MaxUnavailable;
import io.mcdhooks.sandbox.mco.Mco;
import io.mcdhooks.sandbox.mco.McoSimulator;
import io.mcdhooks.sandbox.mco.SimulatorConfig;
import io.mcdhooks.sandbox.mco.Topology;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Row 6: the same simulated rollout (a kernel change, {@code maxUnavailable=10%}, the simulated
 * MCO at {@value #DEFAULT_TIME_SCALE}× by default) on a stock cluster, then with the bridge, its
 * gatekeeper, the shipped admission policy (post-update holds enforced by the API server, pools
 * not paused) and {@code hooks} pre- and post-update hooks that pass at once; then the same with
 * hooks that answer after 30 s simulated; optionally without the policy (batch pacing). Time =
 * MachineConfig applied → the pool's status counts every worker updated.
 */
final class RolloutOverhead {

    /**
     * Simulated seconds per real second. At the simulator's default 1000× the MCD gives up a
     * drain after 3.6 s of wall time, less than 20 hooks' verdicts and the gate pod's removal can
     * take on a loaded 2-core machine, and degrades the node; at 100× it waits 36 s, and the
     * rollout's wall time is still bound by the API server, not by the scale.
     */
    static final double DEFAULT_TIME_SCALE = 100;

    /** Simulated time the slow hooks take to answer. */
    static final Duration SLOW_ANSWER = Duration.ofSeconds(30);

    /** How the hooks hold: with the admission policy or without (batch pacing), answering at once or late. */
    record Setup(boolean policy, Duration answerAfter) {
        static final Setup NONE = new Setup(false, Duration.ZERO);
    }

    record Result(Run stock, Run hooked, Run slow, Run fallback) {
        double stockSeconds() {
            return stock.seconds();
        }

        double hookedSeconds() {
            return hooked.seconds();
        }

        double overheadPercent() {
            return (hookedSeconds() / stockSeconds() - 1) * 100;
        }
    }

    private RolloutOverhead() {}

    /** Stock, then hooked with the policy, then slow hooks with it, then (if asked) hooked without it. */
    static Result measure(String bootstrap, int workers, int hooks, double timeScale, boolean fallback) {
        Run stock = rollout(bootstrap, workers, 0, timeScale, Setup.NONE);
        Run hooked = rollout(bootstrap, workers, hooks, timeScale, new Setup(true, Duration.ZERO));
        Duration late = Duration.ofNanos((long) (SLOW_ANSWER.toNanos() / timeScale));
        Run slow = rollout(bootstrap, workers, hooks, timeScale, new Setup(true, late));
        Run paced = fallback ? rollout(bootstrap, workers, hooks, timeScale, new Setup(false, Duration.ZERO)) : null;
        return new Result(stock, hooked, slow, paced);
    }

    /** One rollout: its time and its profile (see {@link RolloutTrace}). */
    record Run(double seconds, double occupancy, Map<RolloutTrace.Step, Latency.Stats> phases, String profile) {}

    static Run rollout(String bootstrap, int workers, int hooks, double timeScale, Setup setup) {
        try (InMemoryCluster cluster = InMemoryCluster.start()) {
            KubernetesClient client = cluster.client();
            Topology.builder()
                    .masters(3)
                    .workers(workers)
                    .maxUnavailable(BenchBridge.POOL, MaxUnavailable.percent(10))
                    .workloadPodsPerNode(1)
                    .daemonSetPodsPerNode(1)
                    .build()
                    .apply(client);
            List<String> names = BenchBridge.hookNames(hooks);
            if (hooks > 0) {
                BenchBridge.prepare(
                        client,
                        names,
                        List.of(UpdateHookSpec.StageName.PRE_UPDATE, UpdateHookSpec.StageName.POST_UPDATE));
            }
            if (setup.policy()) {
                BenchBridge.installHoldPolicy(client);
            }
            try (McoSimulator mco = McoSimulator.start(
                            client, SimulatorConfig.defaults().withTimeScale(timeScale));
                    BenchBridge bridge = hooks > 0 ? BenchBridge.start(bootstrap, cluster) : null;
                    InstantHooks answering = hooks > 0
                            ? new InstantHooks(
                                    bootstrap,
                                    names,
                                    bridge.config().gateRequestsTopic(),
                                    bridge.config().verdictsTopic(),
                                    setup.answerAfter())
                            : null) {
                if (hooks > 0) {
                    BenchBridge.waitFor(
                            Duration.ofMinutes(3),
                            "the gatekeeper to pause the pool",
                            () -> BenchBridge.poolPaused(client));
                }
                String before = target(client);
                RolloutTrace trace = new RolloutTrace(client, before);
                long start = System.nanoTime();
                mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-realtime", BenchBridge.POOL, "realtime"));
                BenchBridge.waitFor(Duration.ofMinutes(2), "a new target config", () -> !before.equals(target(client)));
                String target = target(client);
                BenchBridge.waitFor(Duration.ofMinutes(30), "every worker updated", () -> {
                    GenericKubernetesResource pool =
                            Mco.pools(client).withName(BenchBridge.POOL).get();
                    Object updated = pool.get("status", "updatedMachineCount");
                    return target.equals(pool.get("status", "configuration", "name"))
                            && updated instanceof Number n
                            && n.intValue() == workers;
                });
                double seconds = (System.nanoTime() - start) / 1e9;
                trace.close();
                int slots = MaxUnavailable.percent(10).resolve(workers);
                return new Run(seconds, trace.occupancy(slots), trace.phases(), trace.summary(slots));
            }
        }
    }

    private static String target(KubernetesClient client) {
        return (String) Mco.pools(client).withName(BenchBridge.POOL).get().get("spec", "configuration", "name");
    }
}
