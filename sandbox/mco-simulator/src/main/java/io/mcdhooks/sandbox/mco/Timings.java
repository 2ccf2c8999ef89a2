package io.mcdhooks.sandbox.mco;

import java.time.Duration;

/**
 * Durations of the MCO's phases in real (unscaled) time. {@link #mco()} holds the MCO's own
 * constants where the code has them and typical cloud values where it depends on the machine.
 *
 * @param controllerDelay MCC node and drain controllers' enqueue delay (MCO: 5 s)
 * @param preflight MCD config-drift and reconcilability checks
 * @param drainPoll MCD polling for {@code lastAppliedDrain} (MCO: 10 s)
 * @param mcdDrainTimeout MCD gives up on the drain and degrades (MCO: 1 h)
 * @param drainRequeue drain controller retry delay after a failed drain (MCO: 1 min)
 * @param drainFailingThreshold after this, failed drains emit DrainThresholdExceeded (MCO: 10 min)
 * @param drainFailingRequeue retry delay once over the threshold (MCO: 5 min)
 * @param drainControllerTimeout after this, each failed drain emits DrainFailed (MCO: 1 h)
 * @param evictRetry the drain helper's retry of a refused eviction (MCO: 5 s)
 * @param drainHelperTimeout the drain helper gives up on one drain, which has then failed (MCO: 90 s)
 * @param podTermination time for evicted pods to terminate (Kubernetes default grace: 30 s)
 * @param writeFiles writing the config files
 * @param osUpdate pulling and staging an OS change (image, kernel, extensions, kargs)
 * @param reboot from the reboot request until the kubelet reports Ready again
 * @param nodeMonitorGrace kubelet silence before the node goes Ready=Unknown (Kubernetes: 40 s)
 * @param mcdStartAfterBoot from Ready until the MCD resumes after boot
 * @param uncordonTimeout MCD wait for the uncordon (MCO: 10 min)
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
        Duration podTermination,
        Duration writeFiles,
        Duration osUpdate,
        Duration reboot,
        Duration nodeMonitorGrace,
        Duration mcdStartAfterBoot,
        Duration uncordonTimeout) {

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
                Duration.ofSeconds(30),
                Duration.ofSeconds(2),
                Duration.ofSeconds(60),
                Duration.ofSeconds(150),
                Duration.ofSeconds(40),
                Duration.ofSeconds(15),
                Duration.ofMinutes(10));
    }
}
