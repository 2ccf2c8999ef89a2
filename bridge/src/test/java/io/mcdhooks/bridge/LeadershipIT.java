package io.mcdhooks.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.mockwebserver.http.MockResponse;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class LeadershipIT {

    KubernetesClient client;

    @Test
    void twoReplicasNeverLeadAtOnceAndTheStandbyTakesOver() {
        // Given two replicas campaigning for the same lease
        AtomicInteger leaders = new AtomicInteger();
        AtomicInteger maxLeaders = new AtomicInteger();
        AtomicInteger aLeads = new AtomicInteger();
        AtomicInteger bLeads = new AtomicInteger();
        CompletableFuture<?> a = Leadership.campaign(
                client,
                "mcdhooks",
                "replica-a",
                Duration.ofSeconds(2),
                () -> lead(leaders, maxLeaders, aLeads),
                leaders::decrementAndGet);
        await().atMost(Duration.ofSeconds(10)).until(() -> aLeads.get() == 1);
        CompletableFuture<?> b = Leadership.campaign(
                client,
                "mcdhooks",
                "replica-b",
                Duration.ofSeconds(2),
                () -> lead(leaders, maxLeaders, bLeads),
                leaders::decrementAndGet);

        // Then the second waits while the first holds the lease
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> bLeads.get() == 0);

        // When the leader goes away, the standby takes over, and never were there two
        a.cancel(true);
        await().atMost(Duration.ofSeconds(15)).until(() -> bLeads.get() == 1);
        assertThat(maxLeaders.get()).isEqualTo(1);
        assertThat(client.leases()
                        .inNamespace("mcdhooks")
                        .withName(Leadership.LEASE)
                        .get()
                        .getSpec()
                        .getHolderIdentity())
                .isEqualTo("replica-b");
        b.cancel(true);
    }

    @Test
    void aLeaderWhoseRenewalsFailStopsActingBeforeItsLeaseCanPassToAnother() {
        try (InMemoryCluster cluster = InMemoryCluster.start()) {
            // Given a leader on a 3 s lease
            Duration lease = Duration.ofSeconds(3);
            AtomicLong lastRenewal = new AtomicLong();
            AtomicLong stoppedAt = new AtomicLong();
            AtomicInteger leads = new AtomicInteger();
            AtomicBoolean failRenewals = new AtomicBoolean();
            cluster.interceptRequests((request, proceed) -> {
                boolean leaseWrite = request.getPath().contains("/leases") && !"GET".equals(request.getMethod());
                if (leaseWrite && failRenewals.get()) {
                    return new MockResponse().setResponseCode(503).setBody("{}");
                }
                long start = System.nanoTime();
                MockResponse response = proceed.get();
                if (leaseWrite && response.code() < 300) {
                    lastRenewal.set(start);
                }
                return response;
            });
            CompletableFuture<?> a = Leadership.campaign(
                    cluster.clientAs(TestEnvironment.bridgeIdentity("mcdhooks")),
                    "mcdhooks",
                    "replica-a",
                    lease,
                    leads::incrementAndGet,
                    () -> stoppedAt.set(System.nanoTime()));
            await().atMost(Duration.ofSeconds(10)).until(() -> leads.get() == 1);

            // When the API server answers its renewals with 503 (which the client retries for long)
            failRenewals.set(true);

            // Then it stops acting before a standby could take the lease: within the lease duration of
            // the last renewal that went through
            await().atMost(Duration.ofSeconds(20)).until(() -> stoppedAt.get() != 0);
            assertThat(Duration.ofNanos(stoppedAt.get() - lastRenewal.get())).isLessThan(lease);
            // (without waiting for the renewal still in the client's retries: it ends with the server)
            cluster.interceptRequests(null);
            CompletableFuture.runAsync(() -> a.cancel(true));
        }
    }

    private static void lead(AtomicInteger leaders, AtomicInteger max, AtomicInteger mine) {
        int now = leaders.incrementAndGet();
        max.accumulateAndGet(now, Math::max);
        mine.incrementAndGet();
    }
}
