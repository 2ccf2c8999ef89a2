package io.mcdhooks.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;

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
        CompletableFuture<?> a = Leadership.campaign(client, "mcdhooks", "replica-a", Duration.ofSeconds(2),
                () -> lead(leaders, maxLeaders, aLeads), leaders::decrementAndGet);
        await().atMost(Duration.ofSeconds(10)).until(() -> aLeads.get() == 1);
        CompletableFuture<?> b = Leadership.campaign(client, "mcdhooks", "replica-b", Duration.ofSeconds(2),
                () -> lead(leaders, maxLeaders, bLeads), leaders::decrementAndGet);

        // Then the second waits while the first holds the lease
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> bLeads.get() == 0);

        // When the leader goes away, the standby takes over, and never were there two
        a.cancel(true);
        await().atMost(Duration.ofSeconds(15)).until(() -> bLeads.get() == 1);
        assertThat(maxLeaders.get()).isEqualTo(1);
        assertThat(client.leases().inNamespace("mcdhooks").withName(Leadership.LEASE).get()
                .getSpec().getHolderIdentity()).isEqualTo("replica-b");
        b.cancel(true);
    }

    private static void lead(AtomicInteger leaders, AtomicInteger max, AtomicInteger mine) {
        int now = leaders.incrementAndGet();
        max.accumulateAndGet(now, Math::max);
        mine.incrementAndGet();
    }
}
