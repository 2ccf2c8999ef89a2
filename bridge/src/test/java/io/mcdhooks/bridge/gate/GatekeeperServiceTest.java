package io.mcdhooks.bridge.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/** How often the service plans a pool's pause, which scans every node of the pool. */
class GatekeeperServiceTest {

    private static final int NODES = 1000;

    private Vertx vertx;
    private KubernetesClient client;
    private ListedCluster cluster;
    private final List<Node> nodes = new ArrayList<>();

    @BeforeEach
    void setUp() {
        vertx = Vertx.vertx();
        // Never reached: with no hooks registered the plan wants no lever pulled.
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:9")
                .build()).build();
        for (int i = 0; i < NODES; i++) {
            nodes.add(new NodeBuilder().withNewMetadata().withName("worker-" + i)
                    .addToLabels("node-role.kubernetes.io/worker", "").endMetadata().withNewSpec().endSpec().build());
        }
    }

    @AfterEach
    void tearDown() {
        client.close();
        vertx.close().await();
    }

    @Test
    void aBurstOfNodeEventsPlansThePoolPauseOnceNotOncePerEvent() throws Exception {
        // Given a gatekeeper on a 1,000-node pool, planning levers (its informers filled)
        Context context = vertx.getOrCreateContext();
        GatekeeperService service = service(context);
        context.runOnContext(v -> service.startPlanning());
        int before = scansAfterQueuedWork(context);

        // When every node changes in one burst of events on the event loop
        CompletableFuture<Void> burst = new CompletableFuture<>();
        context.runOnContext(v -> {
            nodes.forEach(service::onNode);
            burst.complete(null);
        });
        burst.get(30, TimeUnit.SECONDS);

        // Then the pool's pause is planned once, after the burst, not once per node
        assertThat(scansAfterQueuedWork(context)).isEqualTo(before + 1);

        // And a single later event is still planned on its own
        context.runOnContext(v -> service.onNode(nodes.get(0)));
        assertThat(scansAfterQueuedWork(context)).isEqualTo(before + 2);
    }

    /** Scans counted once everything queued on the event loop before this call has run. */
    private int scansAfterQueuedWork(Context context) throws Exception {
        CompletableFuture<Integer> count = new CompletableFuture<>();
        context.runOnContext(v -> context.runOnContext(w -> count.complete(cluster.scans.get())));
        return count.get(30, TimeUnit.SECONDS);
    }

    private GatekeeperService service(Context context) {
        GenericKubernetesResource pool = new GenericKubernetesResourceBuilder()
                .withApiVersion("machineconfiguration.openshift.io/v1").withKind("MachineConfigPool")
                .withNewMetadata().withName("worker").endMetadata()
                .addToAdditionalProperties("spec", Map.of("paused", false)).build();
        cluster = new ListedCluster(nodes, pool);
        return cluster.service(vertx, context, client);
    }
}
