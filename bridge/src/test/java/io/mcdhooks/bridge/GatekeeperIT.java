package io.mcdhooks.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.mcdhooks.bridge.cli.Cli;
import io.mcdhooks.bridge.gate.GateObjects;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.mcdhooks.bridge.gate.VerificationKeys;
import io.mcdhooks.bridge.gate.WhyHeld;
import io.mcdhooks.bridge.gatekeeper.GatekeeperService;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.bridge.kube.McoInformers;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.overrides.GateOverride;
import io.mcdhooks.bridge.overrides.GateOverrideSpec;
import io.mcdhooks.bridge.overrides.GateOverrideStatus;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.kafka.junit.KafkaBrokerExtension;
import io.mcdhooks.sandbox.mco.Identity;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.MachineConfigs;
import io.mcdhooks.sandbox.mco.MaxUnavailable;
import io.mcdhooks.sandbox.mco.McoSimulator;
import io.mcdhooks.sandbox.mco.SimulatorConfig;
import io.mcdhooks.sandbox.mco.Topology;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.Decision;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.DeadLetters;
import io.mcdhooks.schemas.sign.StateSeal;
import io.mcdhooks.schemas.sign.VerdictSignatures;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The mission's scenarios end to end: the simulated MCO on the in-memory API server, the bridge
 * with its gatekeeper, a real broker, and hooks played by the test over Kafka.
 */
@ExtendWith(KafkaBrokerExtension.class)
class GatekeeperIT {

    private static final String NAMESPACE = "mcdhooks";
    private static final int WORKERS = 4;
    /** Simulated seconds per real second: the MCD's one-hour drain limit lasts 36 s. */
    private static final double TIME_SCALE = 100;

    private final KafkaBroker broker;
    private InMemoryCluster cluster;
    private KubernetesClient client;
    private McoSimulator mco;
    private Vertx vertx;
    private BridgeConfig config;
    private KafkaTopicReader reader;
    private ScriptedHook hook;
    private String oldConfig;

    GatekeeperIT(KafkaBroker broker) {
        this.broker = broker;
    }

    @BeforeEach
    void setUp() {
        cluster = InMemoryCluster.start();
        client = cluster.client();
        Topology.builder()
                .workers(WORKERS)
                .zones("zone-a", "zone-b")
                .maxUnavailable("worker", MaxUnavailable.of(1))
                .workloadPodsPerNode(1)
                .daemonSetPodsPerNode(1)
                .build()
                .apply(client);
        ClusterReads.namespace(client, NAMESPACE);
        Map<String, String> env = TestEnvironment.bridge(broker, "e2e");
        env.put("MCDHOOKS_NAMESPACE", NAMESPACE);
        env.put("MCDHOOKS_TICK", "200ms");
        env.put("MCDHOOKS_LAG_INTERVAL", "500ms");
        env.put("MCDHOOKS_LAG_WINDOW", "4");
        config = BridgeConfig.fromEnvironment(env);
        // Every lever of every scenario is pulled under the shipped limits of the bridge's account
        installAdmissionPolicy("bridge-levers-policy.yaml");
        vertx = Vertx.vertx();
        reader = new KafkaTopicReader(broker.bootstrapServers(), List.of(config.decisionsTopic()));
        oldConfig = poolTarget();
    }

    @AfterEach
    void tearDown() throws Exception {
        if (hook != null) {
            hook.close();
        }
        reader.close();
        vertx.close().await();
        if (mco != null) {
            mco.close();
        }
        cluster.close();
    }

    @Test
    void aFailingPoolPreUpdateHookKeepsEveryNodeUntouchedAndItsLaterPassLetsTheRolloutProceed() {
        // Given a kmod hook on the pool that fails, the pool held at rest, and a kernel change rolled out
        String target = poolGateBlockedByKmodCheck();

        // Then the pool gate is blocked and no node moves
        await().during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(5))
                .until(() -> workers().stream().noneMatch(n -> target.equals(annotation(n, McoApi.DESIRED_CONFIG)))
                        && poolPaused());
        assertThat(lastDecision(Stage.POOL_PRE_UPDATE).summary()).contains("kmod-check: FAIL ChecksFailed");

        // When the modules appear and the hook passes the same gate
        hook.script(r -> Optional.of(Outcome.PASS));
        hook.answer(hook.seen().get(0), Outcome.PASS);

        // Then the rollout proceeds to the end, and the pool is paused again at rest
        await().atMost(Duration.ofSeconds(120)).until(() -> allWorkersOn(target));
        await().atMost(Duration.ofSeconds(30)).until(this::poolPaused);
        assertThat(lastDecision(Stage.POOL_PRE_UPDATE).decision()).isEqualTo(Decision.RELEASED);
    }

    @Test
    void aFailingPostUpdateHookHoldsTheFirstUpdatedNodeAndHaltsThePoolWithinMaxUnavailable() {
        // Given a post-update self-check that fails
        registerHook("node-check", List.of(UpdateHookSpec.StageName.POST_UPDATE), spec -> {});
        hook = hook("node-check", r -> Optional.of(Outcome.FAIL));
        var leverWriters = new ConcurrentLinkedQueue<Identity>();
        cluster.interceptRequests((request, proceed) -> {
            if (!request.getMethod().equals("GET")
                    && new String(request.getBody().getBytes(), StandardCharsets.UTF_8)
                            .contains(GateObjects.CORDONED_FOR)) {
                leverWriters.add(cluster.identityOf(request));
            }
            return proceed.get();
        });
        startAll();

        // When the kernel change rolls out
        String target = rollOutRealtimeKernel();

        // Then the first updated node is held: tainted and cordoned after the MCD's uncordon, by the
        // bridge's own service account
        await().atMost(Duration.ofSeconds(90)).until(() -> decided(Stage.POST_UPDATE, Decision.BLOCKED));
        String held = lastDecision(Stage.POST_UPDATE).node();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Node node = client.nodes().withName(held).get();
            return target.equals(annotation(node, McoApi.CURRENT_CONFIG))
                    && tainted(node)
                    && Boolean.TRUE.equals(node.getSpec().getUnschedulable())
                    && node.getMetadata().getAnnotations().containsKey(GateObjects.CORDONED_FOR);
        });
        // And the pool halts: no other node is assigned the update, none is tainted or cordoned
        await().during(Duration.ofSeconds(5))
                .atMost(Duration.ofSeconds(8))
                .until(() -> workers().stream()
                        .filter(n -> !n.getMetadata().getName().equals(held))
                        .allMatch(n -> oldConfig.equals(annotation(n, McoApi.DESIRED_CONFIG))
                                && !tainted(n)
                                && !Boolean.TRUE.equals(n.getSpec().getUnschedulable())));
        assertThat(workers())
                .filteredOn(n -> target.equals(annotation(n, McoApi.DESIRED_CONFIG)))
                .hasSize(1);
        assertThat(leverWriters).isNotEmpty().containsOnly(TestEnvironment.bridgeIdentity(config.namespace()));
    }

    @Test
    void aSilentHookTimesOutAndFailPolicyHoldsTheNodesDrain() {
        // Given a pre-update hook that never answers, with a 2 s timeout that fails closed
        registerHook("silent", List.of(UpdateHookSpec.StageName.PRE_UPDATE), spec -> spec.setTimeoutSeconds(2));
        hook = hook("silent", r -> Optional.empty());
        startAll();
        await().atMost(Duration.ofSeconds(30)).until(this::poolPaused);

        // When the change rolls out
        String target = rollOutRealtimeKernel();

        // Then the first node's gate times out held, its gate pod stays, and its drain cannot finish
        await().atMost(Duration.ofSeconds(60)).until(() -> decided(Stage.PRE_UPDATE, Decision.TIMED_OUT));
        GateDecision timedOut = lastDecision(Stage.PRE_UPDATE);
        assertThat(timedOut.released()).isFalse();
        await().during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(5))
                .until(() -> client.pods()
                                        .inNamespace(NAMESPACE)
                                        .withName(GateObjects.gateName(timedOut.node()))
                                        .get()
                                != null
                        && !("drain-" + target)
                                .equals(annotation(
                                        client.nodes().withName(timedOut.node()).get(), McoApi.LAST_APPLIED_DRAIN)));
        // And the gate pod asks for nothing a restricted namespace refuses
        var gatePod = client.pods()
                .inNamespace(NAMESPACE)
                .withName(GateObjects.gateName(timedOut.node()))
                .get();
        assertThat(gatePod.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(gatePod.getSpec().getSecurityContext().getSeccompProfile().getType())
                .isEqualTo("RuntimeDefault");
        assertThat(gatePod.getSpec().getContainers()).singleElement().satisfies(c -> {
            assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
            assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        });

        // And when the node is deleted, its gate pod and budget go too
        client.nodes().withName(timedOut.node()).delete();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> client.pods()
                                        .inNamespace(NAMESPACE)
                                        .withName(GateObjects.gateName(timedOut.node()))
                                        .get()
                                == null
                        && client.policy()
                                        .v1()
                                        .podDisruptionBudget()
                                        .inNamespace(NAMESPACE)
                                        .withName(GateObjects.gateName(timedOut.node()))
                                        .get()
                                == null);
    }

    @Test
    void aSilentHookTimesOutAndIgnorePolicyLetsTheRolloutPassRecorded() {
        registerHook("silent", List.of(UpdateHookSpec.StageName.PRE_UPDATE), spec -> {
            spec.setTimeoutSeconds(1);
            spec.setFailurePolicy(UpdateHookSpec.FailurePolicy.Ignore);
        });
        hook = hook("silent", r -> Optional.empty());
        startAll();
        await().atMost(Duration.ofSeconds(30)).until(this::poolPaused);

        String target = rollOutRealtimeKernel();

        await().atMost(Duration.ofSeconds(150)).until(() -> allWorkersOn(target));
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(decisions(Stage.PRE_UPDATE))
                        .filteredOn(d -> d.decision() == Decision.TIMED_OUT)
                        .hasSize(WORKERS)
                        .allMatch(GateDecision::released));
    }

    @Test
    void advisoryHooksAreRecordedAndNeverBlock() {
        registerHook(
                "opinion",
                List.of(UpdateHookSpec.StageName.POST_UPDATE),
                spec -> spec.setMode(UpdateHookSpec.Mode.Advisory));
        hook = hook("opinion", r -> Optional.of(Outcome.FAIL));
        startAll();

        String target = rollOutRealtimeKernel();

        await().atMost(Duration.ofSeconds(120)).until(() -> allWorkersOn(target));
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(decisions(Stage.POST_UPDATE))
                        .filteredOn(d -> d.decision() == Decision.RELEASED)
                        .hasSize(WORKERS));
        assertThat(decisions(Stage.POST_UPDATE)).noneMatch(d -> d.decision() == Decision.BLOCKED);
        assertThat(workers()).noneMatch(GatekeeperIT::tainted);
    }

    @Test
    void onlyAnAdministratorsOverrideOfAnOpenGateReleasesItAndTheApiServerSaysWhoAsked() {
        String target = poolGateBlockedByKmodCheck();
        String gateId = lastDecision(Stage.POOL_PRE_UPDATE).gateId();
        Identity alice = Identity.user("alice", "mcdhooks-gate-overriders");

        // Given no admission policy yet: an override is refused, since nobody vouches for requestedBy
        create(alice, override("early", gateId, "alice"));
        assertThat(judged("early").getPhase()).isEqualTo(GateOverrideStatus.Phase.Refused);
        assertThat(judged("early").getMessage()).contains("admission policy mcdhooks-gate-override");

        // When the shipped policy is installed, a node's credentials and a false requestedBy are refused by the API
        // server
        installAdmissionPolicy("gate-override-policy.yaml");
        assertThatThrownBy(() -> create(Identity.node("worker-0"), override("node", gateId, "system:node:worker-0")))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(403);
                    assertThat(e.getStatus().getMessage()).contains("a node's credentials cannot override a gate");
                });
        assertThatThrownBy(() -> create(alice, override("as-bob", gateId, "bob")))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getStatus().getMessage())
                                .contains("spec.requestedBy must be the requesting user, alice"));
        // and the old annotation on the pool changes nothing but earns a Warning Event
        client.genericKubernetesResources(McoInformers.context(McoApi.POOL_KIND, "v1"))
                .withName("worker")
                .edit(p -> {
                    p.getMetadata()
                            .getAnnotations()
                            .put("mcdhooks.io/override", "{\"gate\":\"" + gateId + "\",\"action\":\"release\"}");
                    return p;
                });
        await().atMost(Duration.ofSeconds(30))
                .until(() -> client.v1().events().inNamespace("default").list().getItems().stream()
                        .anyMatch(e -> "OverrideAnnotationIgnored".equals(e.getReason())
                                && "worker".equals(e.getInvolvedObject().getName())));
        // and an admitted override naming another gate is refused by the gatekeeper
        create(alice, override("wrong-gate", gateId.replace("/worker/", "/master/"), "alice"));
        assertThat(judged("wrong-gate").getMessage()).endsWith("names no gate of this cluster");
        assertThat(judged("wrong-gate").getPhase()).isEqualTo(GateOverrideStatus.Phase.Refused);
        assertThat(lastDecision(Stage.POOL_PRE_UPDATE).decision()).isEqualTo(Decision.BLOCKED);

        // When an administrator releases the gate
        create(alice, override("release", gateId, "alice"));

        // Then it is applied, its decision on Kafka names who the API server said asked, and the rollout proceeds
        assertThat(judged("release").getPhase()).isEqualTo(GateOverrideStatus.Phase.Applied);
        await().atMost(Duration.ofSeconds(30)).until(() -> decided(Stage.POOL_PRE_UPDATE, Decision.OVERRIDDEN));
        GateDecision overridden = lastDecision(Stage.POOL_PRE_UPDATE);
        assertThat(overridden.released()).isTrue();
        assertThat(overridden.override().by()).isEqualTo("alice");
        assertThat(overridden.override().reason()).isEqualTo("modules checked by hand");
        await().atMost(Duration.ofSeconds(120)).until(() -> allWorkersOn(target));
        assertThat(client.v1().events().inNamespace("default").list().getItems())
                .anyMatch(e -> "GateOverridden".equals(e.getReason())
                        && "worker".equals(e.getInvolvedObject().getName()));
        // and an admitted override is immutable
        assertThatThrownBy(() -> {
                    try (KubernetesClient asAlice = cluster.clientAs(alice)) {
                        asAlice.resources(GateOverride.class)
                                .inNamespace(NAMESPACE)
                                .withName("release")
                                .edit(o -> {
                                    o.getSpec().setGate("e2e/post-update/worker-0/x");
                                    return o;
                                });
                    }
                })
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getStatus().getMessage()).contains("a GateOverride cannot be changed"));
    }

    @Test
    void aRestartedGatekeeperChangesNoDecisionAndKeepsAHeldNodeHeld() {
        // Given a node held by a failed post-update gate
        registerHook("node-check", List.of(UpdateHookSpec.StageName.POST_UPDATE), spec -> {});
        hook = hook("node-check", r -> Optional.of(Outcome.FAIL));
        startAll();
        String target = rollOutRealtimeKernel();
        await().atMost(Duration.ofSeconds(90)).until(() -> decided(Stage.POST_UPDATE, Decision.BLOCKED));
        String held = lastDecision(Stage.POST_UPDATE).node();
        await().atMost(Duration.ofSeconds(60)).until(() -> heldNode(held));
        // And a decision releasing it, in this cluster's name but sealed by another cluster's bridge
        GateDecision held0 = lastDecision(Stage.POST_UPDATE);
        GateDecision forged = new GateDecision(
                held0.cluster(),
                held0.gateId(),
                held0.attempt(),
                held0.stage(),
                held0.pool(),
                held0.node(),
                held0.targetConfig(),
                Decision.RELEASED,
                true,
                held0.hooks(),
                List.of(),
                "released",
                null,
                held0.openedAt(),
                Instant.now());
        sendForeignDecision(forged);
        await().atMost(Duration.ofSeconds(10)).until(() -> decided(Stage.POST_UPDATE, Decision.RELEASED));
        int decisionsBefore = reader.poll().size();

        // When the gatekeeper is killed and a new one starts
        vertx.close().await();
        vertx = Vertx.vertx();
        deployBridge();

        // Then nothing is released, no decision is made again, and the node stays held
        await().during(Duration.ofSeconds(4))
                .atMost(Duration.ofSeconds(6))
                .until(() -> heldNode(held)
                        && workers().stream()
                                        .filter(n -> target.equals(annotation(n, McoApi.DESIRED_CONFIG)))
                                        .count()
                                == 1);
        assertThat(reader.poll()).hasSize(decisionsBefore);

        // And a later PASS still releases it, and the rollout completes
        hook.script(r -> Optional.of(Outcome.PASS));
        hook.answer(
                hook.seen().stream()
                        .filter(r -> r.stage() == Stage.POST_UPDATE)
                        .findFirst()
                        .orElseThrow(),
                Outcome.PASS);
        await().atMost(Duration.ofSeconds(120)).until(() -> allWorkersOn(target));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> workers().stream()
                        .noneMatch(n ->
                                tainted(n) || Boolean.TRUE.equals(n.getSpec().getUnschedulable())));
    }

    @Test
    void refusedVerdictsGoToTheDeadLetterTopicWithTheirReasonAndReleaseNothing() throws Exception {
        // Given a pool gate held by a failing hook
        poolGateBlockedByKmodCheck();
        GateRequest request = hook.seen().get(0);

        // When garbage, a forged PASS for an unknown gate and a PASS with a mistyped outcome arrive
        try (var producer = new KafkaProducer<String, byte[]>(
                        Map.of("bootstrap.servers", broker.bootstrapServers()),
                        new StringSerializer(),
                        new ByteArraySerializer());
                var dlq = new KafkaConsumer<String, byte[]>(
                        Map.of(
                                "bootstrap.servers",
                                broker.bootstrapServers(),
                                "group.id",
                                "dlq-" + UUID.randomUUID(),
                                "auto.offset.reset",
                                "earliest"),
                        new StringDeserializer(),
                        new ByteArrayDeserializer())) {
            producer.send(new ProducerRecord<>(config.verdictsTopic(), "worker", "not json".getBytes()))
                    .get();
            Verdict forged = new Verdict(
                    "e2e",
                    "e2e/pool-pre-update/worker/nope",
                    1,
                    "kmod-check",
                    Stage.POOL_PRE_UPDATE,
                    "worker",
                    null,
                    request.targetConfig(),
                    Outcome.PASS,
                    "Forged",
                    null,
                    null,
                    Instant.now());
            var cloudEvents = new CloudEventsKafka(new MessageCodec());
            producer.send(cloudEvents.toRecord(
                            config.verdictsTopic(), forged, "x", URI.create("/x"), OffsetDateTime.now(), Map.of()))
                    .get();
            var good = cloudEvents.toRecord(
                    config.verdictsTopic(),
                    Verdict.answering(request, "kmod-check", Outcome.PASS, "Fine", null, null, Instant.now()),
                    "y",
                    URI.create("/y"),
                    OffsetDateTime.now(),
                    Map.of());
            producer.send(new ProducerRecord<>(
                            config.verdictsTopic(),
                            null,
                            good.key(),
                            new String(good.value())
                                    .replace("\"PASS\"", "\"PASSED\"")
                                    .getBytes(),
                            good.headers()))
                    .get();

            // Then each lands on the dead-letter topic with its reason and origin, and the gate stays blocked
            dlq.subscribe(List.of(config.deadLetterTopic()));
            List<String> reasons = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (var record : dlq.poll(Duration.ofMillis(200))) {
                    reasons.add(header(record, DeadLetters.REASON));
                    assertThat(header(record, DeadLetters.ORIGINAL_TOPIC)).isEqualTo(config.verdictsTopic());
                    assertThat(header(record, DeadLetters.ORIGINAL_OFFSET)).isNotBlank();
                    assertThat(header(record, DeadLetters.ERROR)).isNotBlank();
                }
                return reasons.size() >= 3;
            });
            assertThat(reasons).containsExactlyInAnyOrder("NOT_A_CLOUDEVENT", "UNKNOWN_GATE", "SCHEMA_VIOLATION");
        }
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(4))
                .until(() -> lastDecision(Stage.POOL_PRE_UPDATE).decision() == Decision.BLOCKED && poolPaused());
    }

    @Test
    void aHookThatStopsConsumingShowsAsStoppedInMetricsTheCliAndTheBlockReason() throws Exception {
        // Given a hook that consumed under its own group, then stopped
        registerHook("kmod-check", List.of(UpdateHookSpec.StageName.POOL_PRE_UPDATE), spec -> {});
        hook = hook("kmod-check", r -> Optional.of(Outcome.PASS));
        BridgeVerticle bridge = startAll();
        await().atMost(Duration.ofSeconds(30)).until(this::poolPaused);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> client.resources(UpdateHook.class)
                                .withName("kmod-check")
                                .get()
                                .getStatus()
                        != null);
        hook.stopConsuming();

        // When a rollout asks it for a verdict
        rollOutRealtimeKernel();

        // Then, within a bounded time, it is STOPPED with lag in metrics, in the block reason and in its status
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(bridge.metrics().scrape())
                        .contains("mcdhooks_hook_lag_state{hook=\"kmod-check\"} 3.0"));
        String scrape = bridge.metrics().scrape();
        PrometheusText.assertValid(scrape);
        assertThat(scrape).containsPattern("mcdhooks_hook_lag\\{hook=\"kmod-check\"\\} [1-9]");
        // What the alert on a stopped hook reads: it leads, and a gate waits on the stopped hook.
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(
                        () -> assertThat(bridge.metrics().scrape())
                                .contains("mcdhooks_leader 1.0")
                                .contains("mcdhooks_hook_gates_waiting{hook=\"kmod-check\"} 1.0")
                                .contains(
                                        "mcdhooks_gates_open{decision=\"OPENED\",pool=\"worker\",stage=\"pool-pre-update\"} 1.0"));
        GatekeeperService gatekeeper = bridge.gatekeeper();
        var gate = gatekeeper.gatekeeper().gates().stream()
                .filter(g -> g.request().stage() == Stage.POOL_PRE_UPDATE)
                .findFirst()
                .orElseThrow();
        assertThat(WhyHeld.of(gate.last(), gatekeeper.lag(), Instant.now()))
                .startsWith("waiting on kmod-check: MISSING, hook STOPPED, lag ");
        // And the status page says so where it says why the gate is held
        HttpResponse<String> page = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + bridge.httpPort() + "/api/status"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        JsonObject poolGate = new JsonObject(page.body())
                .getJsonArray("gates").stream()
                        .map(JsonObject.class::cast)
                        .filter(g -> g.getString("stage").equals(Stage.POOL_PRE_UPDATE.wire()))
                        .findFirst()
                        .orElseThrow();
        assertThat(poolGate.getString("summary")).startsWith("waiting on kmod-check: MISSING, hook STOPPED, lag ");
        await().atMost(Duration.ofSeconds(10))
                .ignoreExceptions()
                .untilAsserted(() -> assertThat(client.resources(UpdateHook.class)
                                .withName("kmod-check")
                                .get()
                                .getStatus()
                                .getLag()
                                .getState())
                        .isEqualTo("STOPPED"));

        // And the CLI, from Kafka alone, says the same
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.run(
                new PrintWriter(out),
                new PrintWriter(err),
                Map.of(),
                "--bootstrap-servers",
                broker.bootstrapServers(),
                "--topic-gate-requests",
                config.gateRequestsTopic(),
                "--topic-gate-decisions",
                config.decisionsTopic(),
                "--topic-lifecycle",
                config.lifecycleTopic(),
                "status");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains("OPEN GATES")
                .contains("e2e/pool-pre-update/worker/")
                .contains("hook kmod-check: STOPPED, lag");
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        return CloudEventsKafka.header(record.headers(), name);
    }

    @Test
    void tenThousandRandomAndMutatedVerdictsCrashNoConsumerAndReleaseNothing() throws Exception {
        // Given a pool gate blocked by a failing hook
        poolGateBlockedByKmodCheck();
        GateRequest request = hook.seen().get(0);
        BridgeVerticle bridge = deployedBridge;
        CloudEventsKafka cloudEvents = new CloudEventsKafka(new MessageCodec());
        Verdict fail = Verdict.answering(
                request, "kmod-check", Outcome.FAIL, "ModulesMissing", "not yet", null, Instant.now());
        var valid = cloudEvents.toRecord(
                config.verdictsTopic(), fail, "fuzz", URI.create("/fuzz"), OffsetDateTime.now(), Map.of());

        // When 10,000 random and mutated records arrive on the verdicts topic
        long refusedBefore = bridge.gatekeeper().deadLettered();
        long recordsBefore = bridge.gatekeeper().verdictRecords();
        List<ProducerRecord<String, byte[]>> fuzz = VerdictFuzz.records(config.verdictsTopic(), valid, 10_000, 42L);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", broker.bootstrapServers(), "linger.ms", 20),
                new StringSerializer(),
                new ByteArraySerializer())) {
            List<Future<?>> sends = new ArrayList<>();
            for (ProducerRecord<String, byte[]> record : fuzz) {
                sends.add(producer.send(record));
            }
            producer.flush();
            for (var send : sends) {
                send.get();
            }
        }

        // Then the consumer keeps going (a real PASS sent after them all still releases), and until
        // then nothing was released and nobody moved
        await().atMost(Duration.ofSeconds(120))
                .until(() -> bridge.gatekeeper().verdictRecords() - recordsBefore >= fuzz.size());
        assertThat(bridge.gatekeeper().deadLettered() - refusedBefore).isGreaterThan(fuzz.size() / 2);
        assertThat(decisions(Stage.POOL_PRE_UPDATE)).noneMatch(GateDecision::released);
        assertThat(poolPaused()).isTrue();
        assertThat(workers()).noneMatch(n -> !oldConfig.equals(annotation(n, McoApi.DESIRED_CONFIG)));

        // And a restart reading them all back releases nothing either
        vertx.close().await();
        vertx = Vertx.vertx();
        BridgeVerticle restarted = deployBridge();
        await().atMost(Duration.ofSeconds(60)).until(restarted::ready);
        assertThat(restarted.gatekeeper().gatekeeper().gate(request.gateId()))
                .satisfies(g -> assertThat(g.released()).isFalse());
        assertThat(decisions(Stage.POOL_PRE_UPDATE)).noneMatch(GateDecision::released);
        assertThat(poolPaused()).isTrue();
        hook.answer(request, Outcome.PASS);
        await().atMost(Duration.ofSeconds(30)).until(() -> decided(Stage.POOL_PRE_UPDATE, Decision.RELEASED));
    }

    @Test
    void aHookThatSignsIsHeardOnlyThroughItsSignatureLiveAndAfterARestartAndWaitsForANewKey() throws Exception {
        // Given a hook that must sign, its public key in the keys Secret, and its key with the hook
        KeyPair hookKey = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        KeyPair strangerKey = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        KeyPair nextKey = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        client.secrets()
                .inNamespace(NAMESPACE)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName(VerificationKeys.SECRET)
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .addToData("kmod-check.2026-11", publicPem(hookKey))
                        .build())
                .create();
        registerHook("kmod-check", List.of(UpdateHookSpec.StageName.POOL_PRE_UPDATE), spec -> {
            spec.setSignature(new UpdateHookSpec.Signature());
        });
        hook = hook("kmod-check", r -> Optional.of(Outcome.FAIL));
        hook.signWith(hookKey.getPrivate(), "2026-11");
        BridgeVerticle bridge = startAll();
        await().atMost(Duration.ofSeconds(30)).until(this::poolPaused);
        rollOutRealtimeKernel();
        await().atMost(Duration.ofSeconds(30)).until(() -> decided(Stage.POOL_PRE_UPDATE, Decision.BLOCKED));
        GateRequest request = hook.seen().get(0);

        // When PASS verdicts arrive unsigned, forged with another key, and replayed from another gate
        Verdict pass =
                Verdict.answering(request, "kmod-check", Outcome.PASS, "ModulesReady", null, null, Instant.now());
        Verdict elsewhere = new Verdict(
                pass.cluster(),
                "e2e/pool-pre-update/worker/rendered-worker-old",
                1,
                pass.hook(),
                pass.stage(),
                pass.pool(),
                null,
                pass.targetConfig(),
                Outcome.PASS,
                "ModulesReady",
                null,
                null,
                pass.producedAt());
        long refusedBefore = bridge.gatekeeper().deadLettered();
        sendVerdict(pass, Map.of());
        sendVerdict(
                pass,
                Map.of(
                        CloudEventsKafka.JWS_EXTENSION,
                        VerdictSignatures.sign(pass, strangerKey.getPrivate(), "2026-11")));
        sendVerdict(
                pass,
                Map.of(
                        CloudEventsKafka.JWS_EXTENSION,
                        VerdictSignatures.sign(elsewhere, hookKey.getPrivate(), "2026-11")));

        // Then all three are refused, the gate stays blocked, and the refusals are visible
        await().atMost(Duration.ofSeconds(30)).until(() -> bridge.gatekeeper().deadLettered() - refusedBefore == 3);
        assertThat(lastDecision(Stage.POOL_PRE_UPDATE).decision()).isEqualTo(Decision.BLOCKED);
        assertThat(bridge.metrics().scrape())
                .contains("reason=\"SIGNATURE_UNSIGNED\"")
                .contains("reason=\"SIGNATURE_BAD_SIGNATURE\"");
        // One Event per hook and reason a minute: the two bad signatures make one
        await().atMost(Duration.ofSeconds(10))
                .until(() -> client.v1().events().inNamespace("default").list().getItems().stream()
                                .filter(e -> "VerdictRejected".equals(e.getReason()))
                                .count()
                        == 2);

        // And when the gatekeeper restarts (a failover), reading those forgeries back, the gate stays held
        int decisionsBefore = reader.poll().size();
        vertx.close().await();
        vertx = Vertx.vertx();
        BridgeVerticle restarted = deployBridge();
        await().atMost(Duration.ofSeconds(30)).until(restarted::ready);
        await().during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(5))
                .until(() -> restarted.gatekeeper().gatekeeper().gates().stream()
                        .filter(g -> g.id().equals(request.gateId()))
                        .allMatch(g -> !g.released()));
        assertThat(reader.poll()).hasSize(decisionsBefore);
        assertThat(poolPaused()).isTrue();

        // And a PASS signed with a key the gatekeeper does not know yet waits for it, refused by nobody
        long refusedAfterRestart = restarted.gatekeeper().deadLettered();
        hook.script(r -> Optional.of(Outcome.PASS));
        hook.signWith(nextKey.getPrivate(), "2026-12");
        hook.answer(request, Outcome.PASS);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> restarted.gatekeeper().verdictRecords() >= 1);
        assertThat(restarted.gatekeeper().deadLettered()).isEqualTo(refusedAfterRestart);
        assertThat(decided(Stage.POOL_PRE_UPDATE, Decision.RELEASED)).isFalse();

        // And once the keys Secret has the new key, that PASS releases the gate
        client.secrets()
                .inNamespace(NAMESPACE)
                .withName(VerificationKeys.SECRET)
                .edit(secret -> {
                    secret.getData().put("kmod-check.2026-12", publicPem(nextKey));
                    return secret;
                });
        await().atMost(Duration.ofSeconds(30)).until(() -> decided(Stage.POOL_PRE_UPDATE, Decision.RELEASED));
        assertThat(restarted.gatekeeper().deadLettered()).isEqualTo(refusedAfterRestart);
    }

    private static String publicPem(KeyPair key) {
        return Base64.getEncoder()
                .encodeToString(
                        VerdictSignatures.pem("PUBLIC KEY", key.getPublic().getEncoded())
                                .getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anEditThatBreaksAHookIsRefusedInItsStatusAndItsLastValidVersionStillHolds() {
        // Given a kmod-check hook that fails, on a pool held at rest
        registerHook("kmod-check", List.of(UpdateHookSpec.StageName.POOL_PRE_UPDATE), spec -> {});
        hook = hook("kmod-check", r -> Optional.of(Outcome.FAIL));
        startAll();
        await().atMost(Duration.ofSeconds(30)).until(this::poolPaused);

        // When someone edits it into something the gatekeeper cannot use
        client.resources(UpdateHook.class).withName("kmod-check").edit(h -> {
            h.getSpec().setStages(List.of());
            return h;
        });

        // Then its status says why
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            UpdateHook h =
                    client.resources(UpdateHook.class).withName("kmod-check").get();
            return h.getStatus() != null
                    && h.getStatus().getInvalid() != null
                    && h.getStatus().getInvalid().contains("spec.stages must name at least one stage");
        });
        // And the rollout still waits on its last valid version, which blocks it
        rollOutRealtimeKernel();
        await().atMost(Duration.ofSeconds(30)).until(() -> decided(Stage.POOL_PRE_UPDATE, Decision.BLOCKED));
        assertThat(lastDecision(Stage.POOL_PRE_UPDATE).blockingHooks()).containsExactly("kmod-check");
    }

    /** A decision written by another cluster's bridge: sealed with a state key that is not this cluster's. */
    private void sendForeignDecision(GateDecision decision) {
        byte[] otherKey = new byte[StateSeal.MIN_KEY_BYTES];
        new SecureRandom().nextBytes(otherKey);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", broker.bootstrapServers()),
                new StringSerializer(),
                new ByteArraySerializer())) {
            ProducerRecord<String, byte[]> record = new CloudEventsKafka(new MessageCodec())
                    .toRecord(
                            config.decisionsTopic(),
                            decision,
                            "forged",
                            URI.create("/clusters/e2e/bridge"),
                            OffsetDateTime.now(),
                            Map.of());
            String seal = new StateSeal(otherKey)
                    .seal(decision.cluster(), decision.kind().cloudEventType(), "forged", record.value());
            record.headers().add("ce_" + StateSeal.EXTENSION, seal.getBytes(StandardCharsets.US_ASCII));
            producer.send(record).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void sendVerdict(Verdict verdict, Map<String, String> extensions) throws Exception {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", broker.bootstrapServers()),
                new StringSerializer(),
                new ByteArraySerializer())) {
            producer.send(new CloudEventsKafka(new MessageCodec())
                            .toRecord(
                                    config.verdictsTopic(),
                                    verdict,
                                    UUID.randomUUID().toString(),
                                    URI.create("/forger"),
                                    OffsetDateTime.now(),
                                    extensions))
                    .get();
        }
    }

    /** A failing kmod-check hook on the worker pool, the pool held at rest, then a rollout its gate blocks. */
    private String poolGateBlockedByKmodCheck() {
        registerHook("kmod-check", List.of(UpdateHookSpec.StageName.POOL_PRE_UPDATE), spec -> {});
        hook = hook("kmod-check", r -> Optional.of(Outcome.FAIL));
        startAll();
        await().atMost(Duration.ofSeconds(30)).until(this::poolPaused);
        String target = rollOutRealtimeKernel();
        await().atMost(Duration.ofSeconds(30)).until(() -> decided(Stage.POOL_PRE_UPDATE, Decision.BLOCKED));
        return target;
    }

    private static GateOverride override(String name, String gateId, String requestedBy) {
        GateOverride override = new GateOverride();
        override.getMetadata().setName(name);
        override.getMetadata().setNamespace(NAMESPACE);
        override.setSpec(
                new GateOverrideSpec(gateId, GateOverrideSpec.Action.Release, "modules checked by hand", requestedBy));
        return override;
    }

    private void create(Identity who, GateOverride override) {
        try (KubernetesClient as = cluster.clientAs(who)) {
            as.resources(GateOverride.class)
                    .inNamespace(NAMESPACE)
                    .resource(override)
                    .create();
        }
    }

    /** The gatekeeper's answer in the override's status, once it is there. */
    private GateOverrideStatus judged(String name) {
        return ClusterReads.judged(client, NAMESPACE, name, Duration.ofSeconds(30));
    }

    /** A policy file of deploy/admission/v1, as shipped. */
    private void installAdmissionPolicy(String file) {
        ClusterReads.installAdmissionPolicy(client, file);
    }

    private boolean heldNode(String name) {
        Node node = client.nodes().withName(name).get();
        return tainted(node) && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    }

    private BridgeVerticle startAll() {
        mco = McoSimulator.start(client, SimulatorConfig.defaults().withTimeScale(TIME_SCALE));
        return deployBridge();
    }

    private BridgeVerticle deployedBridge;

    private BridgeVerticle deployBridge() {
        BridgeVerticle bridge = new BridgeVerticle(
                config, cluster.clientAs(TestEnvironment.bridgeIdentity(config.namespace())), null, Clock.systemUTC());
        vertx.deployVerticle(bridge).await();
        deployedBridge = bridge;
        return bridge;
    }

    private ScriptedHook hook(String name, Function<GateRequest, Optional<Outcome>> script) {
        return new ScriptedHook(
                name, broker.bootstrapServers(), config.gateRequestsTopic(), config.verdictsTopic(), script);
    }

    private void registerHook(String name, List<UpdateHookSpec.StageName> stages, Consumer<UpdateHookSpec> tweak) {
        UpdateHook hook = new UpdateHook();
        hook.getMetadata().setName(name);
        UpdateHookSpec spec = new UpdateHookSpec();
        spec.setStages(stages);
        spec.setPools(List.of("worker"));
        spec.setTimeoutSeconds(600);
        tweak.accept(spec);
        hook.setSpec(spec);
        client.resources(UpdateHook.class).resource(hook).create();
    }

    private String rollOutRealtimeKernel() {
        mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-realtime", "worker", "realtime"));
        await().atMost(Duration.ofSeconds(30)).until(() -> !poolTarget().equals(oldConfig));
        return poolTarget();
    }

    private List<GateDecision> decisions(Stage stage) {
        return reader.poll().stream()
                .map(KafkaTopicReader.Read::message)
                .filter(GateDecision.class::isInstance)
                .map(GateDecision.class::cast)
                .filter(d -> d.stage() == stage)
                .toList();
    }

    private boolean decided(Stage stage, Decision decision) {
        return decisions(stage).stream().anyMatch(d -> d.decision() == decision);
    }

    private GateDecision lastDecision(Stage stage) {
        List<GateDecision> all = decisions(stage);
        return all.get(all.size() - 1);
    }

    private List<Node> workers() {
        return ClusterReads.workers(client);
    }

    private boolean allWorkersOn(String target) {
        return workers().stream()
                .allMatch(n -> target.equals(annotation(n, McoApi.CURRENT_CONFIG))
                        && McoApi.STATE_DONE.equals(annotation(n, McoApi.STATE)));
    }

    private boolean poolPaused() {
        return ClusterReads.paused(pool());
    }

    private String poolTarget() {
        return ClusterReads.target(pool());
    }

    private GenericKubernetesResource pool() {
        return ClusterReads.pool(client, "worker");
    }

    private static String annotation(Node node, String key) {
        return ClusterReads.annotation(node, key);
    }

    private static boolean tainted(Node node) {
        return node.getSpec().getTaints() != null
                && node.getSpec().getTaints().stream().anyMatch(t -> LeverPlan.POST_UPDATE_TAINT.equals(t.getKey()));
    }
}
