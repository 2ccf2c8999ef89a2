package io.mcdhooks.sandbox.mco;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Settings of one {@link McoSimulator}.
 *
 * @param timeScale simulated seconds per real second; 1000 runs an hour in 3.6 s
 * @param seed seeds per-node jitter and pod placement, so runs draw the same durations
 * @param jitter each per-node duration is multiplied by a factor in [1 − jitter, 1 + jitter]
 * @param timings unscaled phase durations
 * @param machineConfigNodes whether to maintain MachineConfigNode objects (off: annotations only,
 *     like a cluster without MCN, and half the API traffic)
 * @param operatorNode the node the machine-config-operator pod runs on: the node controller defers
 *     it in the master pool (may be null)
 * @param workerThreads threads that talk to the API server
 * @param drainControllerVersion which release's drain controller to simulate
 * @param unpullableImages container images the kubelets cannot pull (the pod stays Pending)
 */
public record SimulatorConfig(
        double timeScale,
        long seed,
        double jitter,
        Timings timings,
        boolean machineConfigNodes,
        String operatorNode,
        int workerThreads,
        DrainControllerVersion drainControllerVersion,
        Pattern unpullableImages) {

    /** Matches no image. */
    public static final Pattern NO_IMAGES = Pattern.compile("(?!)");

    public SimulatorConfig {
        if (timeScale <= 0) {
            throw new IllegalArgumentException("timeScale must be positive: " + timeScale);
        }
        if (jitter < 0 || jitter >= 1) {
            throw new IllegalArgumentException("jitter must be in [0, 1): " + jitter);
        }
        if (workerThreads < 1) {
            throw new IllegalArgumentException("workerThreads must be at least 1: " + workerThreads);
        }
        Objects.requireNonNull(timings, "timings");
        Objects.requireNonNull(drainControllerVersion, "drainControllerVersion");
        Objects.requireNonNull(unpullableImages, "unpullableImages");
    }

    /** Scale 1000, seed 42, 10 % jitter, MCO timings, MachineConfigNodes on, 8 threads, the 4.18+ drain controller. */
    public static SimulatorConfig defaults() {
        return new SimulatorConfig(
                1000, 42, 0.1, Timings.mco(), true, null, 8, DrainControllerVersion.OCP_4_18, NO_IMAGES);
    }

    public SimulatorConfig withTimeScale(double scale) {
        return new SimulatorConfig(
                scale,
                seed,
                jitter,
                timings,
                machineConfigNodes,
                operatorNode,
                workerThreads,
                drainControllerVersion,
                unpullableImages);
    }

    public SimulatorConfig withSeed(long newSeed) {
        return new SimulatorConfig(
                timeScale,
                newSeed,
                jitter,
                timings,
                machineConfigNodes,
                operatorNode,
                workerThreads,
                drainControllerVersion,
                unpullableImages);
    }

    public SimulatorConfig withTimings(Timings newTimings) {
        return new SimulatorConfig(
                timeScale,
                seed,
                jitter,
                newTimings,
                machineConfigNodes,
                operatorNode,
                workerThreads,
                drainControllerVersion,
                unpullableImages);
    }

    public SimulatorConfig withMachineConfigNodes(boolean enabled) {
        return new SimulatorConfig(
                timeScale,
                seed,
                jitter,
                timings,
                enabled,
                operatorNode,
                workerThreads,
                drainControllerVersion,
                unpullableImages);
    }

    public SimulatorConfig withOperatorNode(String node) {
        return new SimulatorConfig(
                timeScale,
                seed,
                jitter,
                timings,
                machineConfigNodes,
                node,
                workerThreads,
                drainControllerVersion,
                unpullableImages);
    }

    public SimulatorConfig withDrainControllerVersion(DrainControllerVersion version) {
        return new SimulatorConfig(
                timeScale,
                seed,
                jitter,
                timings,
                machineConfigNodes,
                operatorNode,
                workerThreads,
                version,
                unpullableImages);
    }

    /** Images matching {@code images} cannot be pulled: pods using them stay Pending. */
    public SimulatorConfig withUnpullableImages(Pattern images) {
        return new SimulatorConfig(
                timeScale,
                seed,
                jitter,
                timings,
                machineConfigNodes,
                operatorNode,
                workerThreads,
                drainControllerVersion,
                images);
    }
}
