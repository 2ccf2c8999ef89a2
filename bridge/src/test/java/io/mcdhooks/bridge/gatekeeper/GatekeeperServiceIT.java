package io.mcdhooks.bridge.gatekeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.TestEnvironment;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.bridge.hooks.UpdateHookStatus;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The service's reaction to UpdateHooks on the in-memory API server: what makes it plan every node again. */
class GatekeeperServiceIT {

    private InMemoryCluster cluster;
    private KubernetesClient client;
    private Vertx vertx;
    private Context context;
    private final ListedCluster listed = new ListedCluster(ListedCluster.workers(100), null);

    @BeforeEach
    void setUp() {
        cluster = InMemoryCluster.start();
        client = cluster.client();
        vertx = Vertx.vertx();
    }

    @AfterEach
    void tearDown() {
        vertx.close().await();
        cluster.close();
    }

    @Test
    void aHookStatusWriteDoesNotPlanEveryNodeAgainButASpecChangeDoes() {
        // Given a gatekeeper watching UpdateHooks, and a hook it has planned every node for
        GatekeeperService service = service();
        service.startWatching().await();
        CompletableFuture<Void> planning = new CompletableFuture<>();
        context.runOnContext(v -> {
            service.startPlanning();
            planning.complete(null);
        });
        planning.join();
        listed.scans.set(0);
        client.resources(UpdateHook.class).resource(hook(600)).create();
        await().atMost(Duration.ofSeconds(30)).until(() -> listed.scans.get() > 0);
        int perPlan = listed.scans.get();

        // When the hook's status is written (as the gatekeeper does every few seconds), then its spec changes
        client.resources(UpdateHook.class).withName("check").editStatus(h -> {
            UpdateHookStatus status = new UpdateHookStatus();
            status.setOpenGates(List.of("test/post-update/worker-1/rendered-worker-new"));
            h.setStatus(status);
            return h;
        });
        client.resources(UpdateHook.class).withName("check").edit(h -> {
            h.getSpec().setTimeoutSeconds(900);
            return h;
        });

        // Then only the spec change planned every node again (events arrive in order: the status first)
        await().atMost(Duration.ofSeconds(30)).until(() -> listed.scans.get() >= 2 * perPlan);
        assertThat(listed.scans.get()).isEqualTo(2 * perPlan);
    }

    private static UpdateHook hook(int timeoutSeconds) {
        UpdateHook hook = new UpdateHook();
        hook.getMetadata().setName("check");
        UpdateHookSpec spec = new UpdateHookSpec();
        spec.setStages(List.of(UpdateHookSpec.StageName.POST_UPDATE));
        spec.setPools(List.of("worker"));
        spec.setTimeoutSeconds(timeoutSeconds);
        hook.setSpec(spec);
        return hook;
    }

    private GatekeeperService service() {
        context = vertx.getOrCreateContext();
        return listed.service(vertx, context, cluster.clientAs(TestEnvironment.bridgeIdentity("mcdhooks")));
    }
}
