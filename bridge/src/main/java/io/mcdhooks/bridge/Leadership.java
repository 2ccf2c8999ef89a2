package io.mcdhooks.bridge;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a Kubernetes Lease: of several bridge replicas only the leader watches,
 * publishes and pulls levers, so two gatekeepers never act at once. A replica that loses the
 * lease must stop acting at once; {@code onLose} is where it does.
 */
public final class Leadership {

    public static final String LEASE = "mcdhooks-gatekeeper";
    private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

    private Leadership() {}

    /**
     * Campaigns for the lease until the returned future is cancelled (which releases the lease).
     *
     * @param leaseDuration how long a leader that stops renewing keeps the lease; a standby takes
     *                      over after at most this long
     */
    public static CompletableFuture<?> campaign(
            KubernetesClient client,
            String namespace,
            String identity,
            Duration leaseDuration,
            Runnable onLead,
            Runnable onLose) {
        Duration renewDeadline = leaseDuration.multipliedBy(2).dividedBy(3);
        // fabric8 checks the renew deadline only between attempts, and one attempt can hang far past
        // the lease in the client's own retries (a 5xx, a slow API server): the old leader kept
        // acting after a standby had taken the lease. So we time renewals ourselves, from the start
        // of the last write that succeeded: no one may take the lease before that write plus the
        // lease duration, and we give up at that start plus the renew deadline.
        AtomicLong renewedAt = new AtomicLong(System.nanoTime());
        AtomicBoolean leading = new AtomicBoolean();
        Runnable lose = () -> {
            if (leading.compareAndSet(true, false)) {
                onLose.run();
            }
        };
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lease-watchdog");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(10, renewDeadline.toMillis() / 20);
        watchdog.scheduleAtFixedRate(
                () -> {
                    if (leading.get() && System.nanoTime() - renewedAt.get() > renewDeadline.toNanos()) {
                        LOG.atWarn()
                                .addKeyValue("identity", identity)
                                .log(
                                        "lease not renewed within {}: stop acting before another replica may take it",
                                        renewDeadline);
                        lose.run();
                    }
                },
                period,
                period,
                TimeUnit.MILLISECONDS);
        CompletableFuture<?> campaign = client.leaderElector()
                .withConfig(new LeaderElectionConfigBuilder()
                        .withName(LEASE)
                        .withLock(new TimedLeaseLock(namespace, identity, renewedAt))
                        .withLeaseDuration(leaseDuration)
                        .withRenewDeadline(renewDeadline)
                        .withRetryPeriod(leaseDuration.dividedBy(5))
                        .withReleaseOnCancel(true)
                        .withLeaderCallbacks(new LeaderCallbacks(
                                () -> {
                                    LOG.atInfo()
                                            .addKeyValue("identity", identity)
                                            .log("leading");
                                    leading.set(true);
                                    onLead.run();
                                },
                                () -> {
                                    LOG.atWarn()
                                            .addKeyValue("identity", identity)
                                            .log("lost the lease");
                                    lose.run();
                                },
                                leader -> LOG.atInfo()
                                        .addKeyValue("leader", leader)
                                        .log("leader is {}", leader)))
                        .build())
                .build()
                .start();
        campaign.whenComplete((ignored, error) -> watchdog.shutdownNow());
        return campaign;
    }

    /** The Lease lock, noting when each write of ours that succeeded was started. */
    private static final class TimedLeaseLock extends LeaseLock {

        private final AtomicLong renewedAt;

        TimedLeaseLock(String namespace, String identity, AtomicLong renewedAt) {
            super(namespace, LEASE, identity);
            this.renewedAt = renewedAt;
        }

        @Override
        public synchronized void create(KubernetesClient client, LeaderElectionRecord record) {
            long start = System.nanoTime();
            super.create(client, record);
            renewedAt.set(start);
        }

        @Override
        public synchronized void update(KubernetesClient client, LeaderElectionRecord record) {
            long start = System.nanoTime();
            super.update(client, record);
            renewedAt.set(start);
        }
    }
}
