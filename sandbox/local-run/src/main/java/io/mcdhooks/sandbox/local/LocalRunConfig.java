package io.mcdhooks.sandbox.local;

import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Everything one local run needs.
 *
 * @param kubeconfig        a real cluster to use instead of the in-memory one, or {@code null}
 * @param bootstrapServers  a real Kafka to use instead of the embedded broker, or {@code null}
 * @param rollOut           whether to apply the kernel MachineConfig (always with the in-memory cluster)
 * @param hookDownPolicy    what the stopped hook's gates do when they time out
 * @param kmodModulesAfter  when the missing modules appear in the kmod-missing scenario
 * @param timeLimit         when the run gives up waiting for the rollout to complete or settle held
 * @param settle            how long nothing must move before a held rollout counts as settled
 * @param httpPort          the bridge's port (status page and health), 0 for any free port
 */
public record LocalRunConfig(
        Scenario scenario,
        int masters,
        int workers,
        List<String> zones,
        int maxUnavailable,
        double timeScale,
        Path kubeconfig,
        String bootstrapServers,
        boolean rollOut,
        FailurePolicy hookDownPolicy,
        Duration kmodModulesAfter,
        Duration timeLimit,
        Duration settle,
        int httpPort) {

    public LocalRunConfig {
        Objects.requireNonNull(scenario, "scenario");
        if (masters < 0 || workers < 1 && !(masters == 1 && workers == 0)) {
            throw new IllegalArgumentException(
                    "need --masters >= 0 and --workers >= 1, or --topology single-node (one master, no worker)");
        }
        if (maxUnavailable < 1) {
            throw new IllegalArgumentException("--max-unavailable must be at least 1");
        }
        if (timeScale <= 0) {
            throw new IllegalArgumentException("--time-scale must be positive");
        }
        zones = zones == null || zones.isEmpty() ? List.of("zone-a") : List.copyOf(zones);
        hookDownPolicy = hookDownPolicy == null ? FailurePolicy.Ignore : hookDownPolicy;
    }

    /** The defaults of the command line. */
    public static LocalRunConfig defaults(Scenario scenario) {
        return new LocalRunConfig(
                scenario,
                3,
                6,
                List.of("zone-a", "zone-b", "zone-c"),
                1,
                100,
                null,
                null,
                true,
                FailurePolicy.Ignore,
                Duration.ofSeconds(10),
                Duration.ofSeconds(110),
                Duration.ofSeconds(6),
                8080);
    }

    /**
     * One master and no worker: the simulator makes it a single-node cluster ({@code Infrastructure}
     * {@code controlPlaneTopology: SingleReplica}), the master pool is the one rolled out.
     */
    public boolean singleNode() {
        return masters == 1 && workers == 0;
    }

    /** The pool the run rolls out and its hooks gate. */
    public String pool() {
        return singleNode() ? "master" : "worker";
    }

    public boolean inMemoryCluster() {
        return kubeconfig == null;
    }

    public boolean embeddedKafka() {
        return bootstrapServers == null;
    }

    public LocalRunConfig withTopology(int newMasters, int newWorkers, List<String> newZones, int newMaxUnavailable) {
        return new LocalRunConfig(
                scenario,
                newMasters,
                newWorkers,
                newZones,
                newMaxUnavailable,
                timeScale,
                kubeconfig,
                bootstrapServers,
                rollOut,
                hookDownPolicy,
                kmodModulesAfter,
                timeLimit,
                settle,
                httpPort);
    }

    public LocalRunConfig withHttpPort(int port) {
        return new LocalRunConfig(
                scenario,
                masters,
                workers,
                zones,
                maxUnavailable,
                timeScale,
                kubeconfig,
                bootstrapServers,
                rollOut,
                hookDownPolicy,
                kmodModulesAfter,
                timeLimit,
                settle,
                port);
    }

    /** Uses a given cluster and/or Kafka ({@code null}: the in-memory one, the embedded broker). */
    public LocalRunConfig withExternal(Path newKubeconfig, String newBootstrapServers, boolean newRollOut) {
        return new LocalRunConfig(
                scenario,
                masters,
                workers,
                zones,
                maxUnavailable,
                timeScale,
                newKubeconfig,
                newBootstrapServers,
                newRollOut,
                hookDownPolicy,
                kmodModulesAfter,
                timeLimit,
                settle,
                httpPort);
    }

    public LocalRunConfig withHookDownPolicy(FailurePolicy policy) {
        return new LocalRunConfig(
                scenario,
                masters,
                workers,
                zones,
                maxUnavailable,
                timeScale,
                kubeconfig,
                bootstrapServers,
                rollOut,
                policy,
                kmodModulesAfter,
                timeLimit,
                settle,
                httpPort);
    }
}
