package io.mcdhooks.sandbox.mco;

import java.time.Duration;

/**
 * Durations of the MCO's phases in real (unscaled) time. {@link #mco()} holds the MCO's own
 * constants where the code has them and typical cloud values where it depends on the machine.
 *
 * @param controllerDelay MCC node and drain controllers' enqueue delay (MCO: 5 s)
 * @param preflight MCD config-drift and reconcilability checks
 * @param drainPoll MCD polling for {@code lastAppliedDrain} (MCO: 10 s)
 * @param mcdDrainTimeout MCD reports FailedToDrain and degrades (MCO: 1 h)
 * @param drainRequeue drain controller retry delay after a failed drain (MCO: 1 min)
 * @param drainFailingThreshold after this, failed drains emit DrainThresholdExceeded (MCO: 10 min)
 * @param drainFailingRequeue retry delay once over the threshold (MCO: 5 min)
 * @param drainControllerTimeout after this, each drain emits DrainFailed (MCO: 1 h)
 * @param evictRetry the drain helper's retry of a refused eviction (MCO: 5 s)
 * @param drainHelperTimeout one run of the drain helper (MCO: 90 s)
 * @param cordonBackoff first wait of the cordon/uncordon retries, doubling, 5 tries (MCO: 10 s)
 * @param podTermination time for evicted pods to terminate (Kubernetes default grace: 30 s)
 * @param writeFiles writing the config files
 * @param osUpdate pulling and staging an OS change (image, kernel, extensions, kargs)
 * @param reboot from the reboot request until the kubelet reports Ready again
 * @param nodeMonitorGrace kubelet silence before the node goes Ready=Unknown (Kubernetes: 40 s)
 * @param mcdStartAfterBoot from Ready until the MCD resumes after boot
 * @param uncordonTimeout MCD wait for the uncordon (MCO: 10 min)
 * @param mcdRetryBase first MCD retry after an error, doubling (MCO: 1 s)
 * @param mcdRetryMax longest MCD retry delay (MCO: 60 s)
 * @param podStartup from a pod bound to a Ready node until it runs (kubelet, cached image)
 * @param imagePullBackOff from ErrImagePull to ImagePullBackOff
 * @param requiredPoolTimeoutPerNode operator's wait for required pools per machine (MCO: 10 min)
 * @param taintWriteWindow MCC: between reading a node's taints and writing the whole list (a round
 *     trip on a real cluster; longer values widen the window in which another taint is lost)
 */
public record Timings(
        Duration controllerDelay,
        Duration preflight,
        Duration drainPoll,
        Duration mcdDrainTimeout,
        Duration drainRequeue,
        Duration drainFailingThreshold,
        Duration drainFailingRequeue,
        Duration drainControllerTimeout,
        Duration evictRetry,
        Duration drainHelperTimeout,
        Duration cordonBackoff,
        Duration podTermination,
        Duration writeFiles,
        Duration osUpdate,
        Duration reboot,
        Duration nodeMonitorGrace,
        Duration mcdStartAfterBoot,
        Duration uncordonTimeout,
        Duration mcdRetryBase,
        Duration mcdRetryMax,
        Duration podStartup,
        Duration imagePullBackOff,
        Duration requiredPoolTimeoutPerNode,
        Duration taintWriteWindow) {

    /** The MCO's timings; one node's update with a reboot takes about 5 minutes. */
    public static Timings mco() {
        return new Timings(
                Duration.ofSeconds(5),
                Duration.ofSeconds(3),
                Duration.ofSeconds(10),
                Duration.ofHours(1),
                Duration.ofMinutes(1),
                Duration.ofMinutes(10),
                Duration.ofMinutes(5),
                Duration.ofHours(1),
                Duration.ofSeconds(5),
                Duration.ofSeconds(90),
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                Duration.ofSeconds(2),
                Duration.ofSeconds(60),
                Duration.ofSeconds(150),
                Duration.ofSeconds(40),
                Duration.ofSeconds(15),
                Duration.ofMinutes(10),
                Duration.ofSeconds(1),
                Duration.ofSeconds(60),
                Duration.ofSeconds(2),
                Duration.ofSeconds(10),
                Duration.ofMinutes(10),
                Duration.ZERO);
    }

    /** A copy with a wider window between the MCC's read and write of a node's taints. */
    public Timings withTaintWriteWindow(Duration window) {
        return new Timings(
                controllerDelay,
                preflight,
                drainPoll,
                mcdDrainTimeout,
                drainRequeue,
                drainFailingThreshold,
                drainFailingRequeue,
                drainControllerTimeout,
                evictRetry,
                drainHelperTimeout,
                cordonBackoff,
                podTermination,
                writeFiles,
                osUpdate,
                reboot,
                nodeMonitorGrace,
                mcdStartAfterBoot,
                uncordonTimeout,
                mcdRetryBase,
                mcdRetryMax,
                podStartup,
                imagePullBackOff,
                requiredPoolTimeoutPerNode,
                window);
    }
}
