package io.mcdhooks.bridge.gatekeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.http.MockResponse;
import io.mcdhooks.bridge.TestEnvironment;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One write per object at a time, and what becomes of a write asked for meanwhile. */
class LeverActuatorIT {

    private static final LeverPlan.NodeLevers TAINT = new LeverPlan.NodeLevers(false, true, false, null);

    private InMemoryCluster cluster;
    private KubernetesClient client;
    private Vertx vertx;
    private LeverActuator levers;
    private WorkerExecutor kube;
    private Context context;
    private Node node;
    private final AtomicInteger planAgain = new AtomicInteger();

    @BeforeEach
    void setUp() {
        cluster = InMemoryCluster.start();
        client = cluster.client();
        vertx = Vertx.vertx();
        context = vertx.getOrCreateContext();
        kube = vertx.createSharedWorkerExecutor(GatekeeperService.KUBE_POOL, 2);
        levers = new LeverActuator(
                cluster.clientAs(TestEnvironment.bridgeIdentity("mcdhooks")), kube, context, "mcdhooks", "pause");
        node = client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName("worker-0")
                        .endMetadata()
                        .withNewSpec()
                        .endSpec()
                        .build())
                .create();
    }

    @AfterEach
    void tearDown() {
        vertx.close().await();
        cluster.close();
    }

    @Test
    void aWriteSkippedWhileAnotherIsInFlightAsksToPlanAgainOnceThatOneEnds() {
        // When a node's levers are applied twice before the first write can end
        context.runOnContext(v -> {
            levers.applyNode(node, TAINT, planAgain::incrementAndGet);
            levers.applyNode(node, TAINT, planAgain::incrementAndGet);
        });

        // Then the node is written once, and the caller is asked to plan again once
        await().atMost(Duration.ofSeconds(30)).until(() -> planAgain.get() == 1);
        assertThat(tainted()).isTrue();
    }

    @Test
    void aWriteNobodyWaitedOnAsksForNothing() {
        // When a node's levers are applied once
        context.runOnContext(v -> levers.applyNode(node, TAINT, planAgain::incrementAndGet));

        // Then the write lands and nothing is planned again
        await().atMost(Duration.ofSeconds(30)).until(this::tainted);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> planAgain.get() == 0);
    }

    @Test
    void aWriteTheServerRefusesIsPlannedAgainWithoutAnyEvent() {
        // Given an API server that refuses the first write of the node with a conflict that no
        // change of the node explains (fabric8 retries server errors itself, not conflicts)
        AtomicInteger refused = new AtomicInteger();
        cluster.interceptRequests((request, proceed) -> {
            if (!request.getMethod().equals("GET")
                    && request.getPath().startsWith("/api/v1/nodes/worker-0")
                    && refused.getAndIncrement() == 0) {
                return new MockResponse()
                        .setResponseCode(409)
                        .setHeader("Content-Type", "application/json")
                        .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                                + "\"status\":\"Failure\",\"reason\":\"Conflict\",\"code\":409}");
            }
            return proceed.get();
        });

        // When the node's levers are applied once, planning again from the latest node when asked
        Runnable[] plan = new Runnable[1];
        plan[0] = () -> {
            planAgain.incrementAndGet();
            levers.applyNode(client.nodes().withName("worker-0").get(), TAINT, plan[0]);
        };
        context.runOnContext(v -> levers.applyNode(node, TAINT, plan[0]));

        // Then, with nothing else changing, the refused write is planned again and lands
        await().atMost(Duration.ofSeconds(30)).until(this::tainted);
        assertThat(refused.get()).isGreaterThanOrEqualTo(2);
        assertThat(planAgain.get()).isEqualTo(1);
    }

    private boolean tainted() {
        Node now = client.nodes().withName("worker-0").get();
        return now.getSpec().getTaints() != null
                && now.getSpec().getTaints().stream().anyMatch(t -> LeverPlan.POST_UPDATE_TAINT.equals(t.getKey()));
    }
}
