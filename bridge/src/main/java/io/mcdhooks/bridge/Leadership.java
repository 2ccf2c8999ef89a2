package io.mcdhooks.bridge;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;

/**
 * Leader election on a Kubernetes Lease: of several bridge replicas only the leader watches,
 * publishes and pulls levers, so two gatekeepers never act at once. A replica that loses the
 * lease must stop acting at once; {@code onLose} is where it does.
 */
public final class Leadership {

    public static final String LEASE = "mcdhooks-gatekeeper";
    private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

    private Leadership() {
    }

    /**
     * Campaigns for the lease until the returned future is cancelled (which releases the lease).
     *
     * @param leaseDuration how long a leader that stops renewing keeps the lease; a standby takes
     *                      over after at most this long
     */
    public static CompletableFuture<?> campaign(KubernetesClient client, String namespace, String identity,
                                                Duration leaseDuration, Runnable onLead, Runnable onLose) {
        return client.leaderElector()
                .withConfig(new LeaderElectionConfigBuilder()
                        .withName(LEASE)
                        .withLock(new LeaseLock(namespace, LEASE, identity))
                        .withLeaseDuration(leaseDuration)
                        .withRenewDeadline(leaseDuration.multipliedBy(2).dividedBy(3))
                        .withRetryPeriod(leaseDuration.dividedBy(5))
                        .withReleaseOnCancel(true)
                        .withLeaderCallbacks(new LeaderCallbacks(
                                () -> {
                                    LOG.atInfo().addKeyValue("identity", identity).log("leading");
                                    onLead.run();
                                },
                                () -> {
                                    LOG.atWarn().addKeyValue("identity", identity).log("lost the lease");
                                    onLose.run();
                                },
                                leader -> LOG.atInfo().addKeyValue("leader", leader).log("leader is {}", leader)))
                        .build())
                .build()
                .start();
    }
}
