package io.mcdhooks.bridge.gatekeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.mcdhooks.bridge.gate.AckedGates;
import io.mcdhooks.bridge.gate.Gatekeeper;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.mcdhooks.bridge.gate.PoolSchedules;
import io.mcdhooks.bridge.gate.PostUpdateHold;
import io.mcdhooks.bridge.gate.RegisteredHook;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.publish.Outbox;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.sign.StateSeal;
import io.vertx.core.Context;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Write-ahead: a decision reaches the levers only once Kafka has acknowledged it. The decisions go
 * through the bridge's outbox to a record sender the test answers for the broker; the levers are
 * planned by the real reconciler and recorded instead of pulled.
 */
class DecisionSinkTest {

    private static final String OLD = "rendered-worker-1111";
    private static final String TARGET = "rendered-worker-2222";
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    private static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);

    private Vertx vertx;
    private Context context;
    private final RecordingLevers levers = new RecordingLevers();
    /** Every send of a decision, in order, for the test to answer as the broker. */
    private final List<Promise<Void>> sends = new CopyOnWriteArrayList<>();

    private final AtomicInteger failedSends = new AtomicInteger();
    private Gatekeeper gatekeeper;
    private DecisionSink sink;
    private LeverReconciler reconciler;
    private Node node;
    private GateRequest request;

    @BeforeEach
    void setUp() {
        vertx = Vertx.vertx();
        context = vertx.getOrCreateContext();
        node = new NodeBuilder()
                .withNewMetadata()
                .withName("worker-0")
                .addToLabels("node-role.kubernetes.io/worker", "")
                .addToAnnotations(McoApi.CURRENT_CONFIG, OLD)
                .addToAnnotations(McoApi.DESIRED_CONFIG, TARGET)
                .addToAnnotations(McoApi.STATE, McoApi.STATE_WORKING)
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .build();
        GenericKubernetesResource pool = new GenericKubernetesResourceBuilder()
                .withApiVersion(McoApi.V1)
                .withKind(McoApi.POOL_KIND)
                .withNewMetadata()
                .withName("worker")
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("paused", false, "configuration", Map.of("name", TARGET)))
                .addToAdditionalProperties("status", Map.of("configuration", Map.of("name", OLD)))
                .build();
        ListedCluster cluster = new ListedCluster(List.of(node), pool);
        Outbox outbox = new Outbox(
                vertx,
                record -> {
                    Promise<Void> sent = Promise.promise();
                    sends.add(sent);
                    return sent.future();
                },
                new CloudEventsKafka(new MessageCodec()),
                Map.of(GateDecision.class, "decisions"),
                URI.create("/clusters/test/bridge"),
                new StateSeal(new byte[StateSeal.MIN_KEY_BYTES]),
                topic -> failedSends.incrementAndGet());
        onLoop(() -> {
            gatekeeper = new Gatekeeper("test", CLOCK, d -> sink.accept(d));
            AckedGates acked = new AckedGates(gatekeeper);
            reconciler = new LeverReconciler(
                    "test",
                    cluster,
                    gatekeeper,
                    acked,
                    levers,
                    context,
                    () -> PostUpdateHold.BATCH_PACING,
                    new PoolSchedules(),
                    Duration.ofMinutes(1),
                    (node, gate) -> {},
                    (poolName, target) -> false,
                    CLOCK);
            sink = new DecisionSink(
                    DecisionSink.through(outbox), acked, reconciler::decided, List.of(reconciler::decided));
            gatekeeper.putHook(new RegisteredHook(
                    "check",
                    Set.of(Stage.PRE_UPDATE),
                    Set.of(),
                    Map.of(),
                    Duration.ofMinutes(10),
                    Duration.ZERO,
                    GateDecision.FailurePolicy.Fail,
                    GateDecision.Mode.Enforcing,
                    RegisteredHook.PostUpdateFailure.Hold,
                    false));
            reconciler.start();
            // Given worker-0's pre-update gate, opened and its opening on Kafka
            request = new GateRequest(
                    "test",
                    GateId.of("test", Stage.PRE_UPDATE, "worker-0", TARGET),
                    1,
                    Stage.PRE_UPDATE,
                    new GateRequest.PoolFacts("worker", "1", 1),
                    new GateRequest.NodeFacts("worker-0", "zone-a", Map.of("node-role.kubernetes.io/worker", "")),
                    OLD,
                    TARGET,
                    new GateRequest.TargetFacts("quay.io/os@sha256:01", "default", null, null, null),
                    T0,
                    T0.plus(Duration.ofMinutes(30)));
            gatekeeper.onGateRequest(request);
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> sends.size() == 1);
        onLoop(() -> sends.get(0).complete());
    }

    @AfterEach
    void tearDown() {
        vertx.close().await();
    }

    @Test
    void theGatePodStaysUntilKafkaHasAcknowledgedTheReleaseThenGoes() {
        assertThat(planned().gatePod()).isTrue();

        // When the hook passes: the release is decided and sent, not yet acknowledged
        onLoop(() -> gatekeeper.onVerdict(pass()));
        await().atMost(Duration.ofSeconds(10)).until(() -> sends.size() == 2);
        assertThat(onLoop(() -> gatekeeper.gate(request.gateId()).released())).isTrue();

        // Then the gate pod is still wanted, even when the node's levers are planned again meanwhile
        assertThat(planned().gatePod()).isTrue();
        assertThat(plannedOnANodeEvent().gatePod()).isTrue();

        // And once Kafka acknowledges the release, the acknowledgement itself lets it go
        onLoop(() -> sends.get(1).complete());
        await().atMost(Duration.ofSeconds(10)).until(() -> !planned().gatePod());
    }

    @Test
    void aReleaseThatCannotBePublishedMovesNoLeverUntilARetrySucceeds() {
        // When the hook passes while the broker refuses every send
        onLoop(() -> gatekeeper.onVerdict(pass()));
        await().atMost(Duration.ofSeconds(10)).until(() -> sends.size() == 2);
        onLoop(() -> sends.get(1).fail("broker unreachable"));
        await().atMost(Duration.ofSeconds(10)).until(() -> sends.size() == 3);
        onLoop(() -> sends.get(2).fail("broker unreachable"));

        // Then the outbox tries again and again, and the gate pod stays wanted all along
        await().atMost(Duration.ofSeconds(10)).until(() -> sends.size() == 4);
        assertThat(failedSends).hasValue(2);
        assertThat(planned().gatePod()).isTrue();
        assertThat(plannedOnANodeEvent().gatePod()).isTrue();

        // And when a retry is acknowledged, the gate pod goes
        onLoop(() -> sends.get(3).complete());
        await().atMost(Duration.ofSeconds(10)).until(() -> !planned().gatePod());
    }

    private Verdict pass() {
        return Verdict.answering(request, "check", Outcome.PASS, "Fine", null, null, T0.plusSeconds(1));
    }

    /** The node's levers as last planned. */
    private LeverPlan.NodeLevers planned() {
        return levers.nodes.get("worker-0");
    }

    /** The node's levers as planned when it changes now. */
    private LeverPlan.NodeLevers plannedOnANodeEvent() {
        return onLoop(() -> {
            reconciler.nodeChanged(node);
            return planned();
        });
    }

    private void onLoop(Runnable action) {
        onLoop(() -> {
            action.run();
            return null;
        });
    }

    private <T> T onLoop(Supplier<T> action) {
        CompletableFuture<T> done = new CompletableFuture<>();
        context.runOnContext(v -> {
            try {
                done.complete(action.get());
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        try {
            return done.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
