package io.mcdhooks.bridge;

import static io.mcdhooks.schemas.Transition.APPLIED;
import static io.mcdhooks.schemas.Transition.CORDONED;
import static io.mcdhooks.schemas.Transition.DONE;
import static io.mcdhooks.schemas.Transition.DRAINED;
import static io.mcdhooks.schemas.Transition.DRAIN_REQUESTED;
import static io.mcdhooks.schemas.Transition.REBOOTING;
import static io.mcdhooks.schemas.Transition.RESUMED;
import static io.mcdhooks.schemas.Transition.UNCORDONED;
import static io.mcdhooks.schemas.Transition.UNCORDON_REQUESTED;
import static io.mcdhooks.schemas.Transition.UPDATE_ASSIGNED;
import static io.mcdhooks.schemas.Transition.WORKING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.mcdhooks.bridge.kube.McoInformers;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.kafka.junit.KafkaBrokerExtension;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.LifecycleEvent;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Transition;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The bridge against fabric8's in-memory API server and a real broker, with the MCD's writes
 * played by hand, step by step, so each step's effect on Kafka can be asserted.
 */
@EnableKubernetesMockClient(crud = true)
@ExtendWith(KafkaBrokerExtension.class)
class BridgeIT {

    private static final String CLUSTER = "it-cluster";
    private static final String OLD = "rendered-worker-1111aaaa";
    private static final String NEW = "rendered-worker-2222bbbb";
    private static final List<Transition> FULL_UPDATE = List.of(
            UPDATE_ASSIGNED,
            WORKING,
            DRAIN_REQUESTED,
            CORDONED,
            DRAINED,
            APPLIED,
            REBOOTING,
            RESUMED,
            UNCORDON_REQUESTED,
            UNCORDONED,
            DONE);

    KubernetesClient client;

    private final KafkaBroker broker;
    private Vertx vertx;
    private BridgeConfig config;
    private KafkaTopicReader reader;

    BridgeIT(KafkaBroker broker) {
        this.broker = broker;
    }

    @BeforeEach
    void setUp() {
        Map<String, String> env = TestEnvironment.bridge(broker, CLUSTER);
        env.put("MCDHOOKS_GATEKEEPER", "false");
        config = BridgeConfig.fromEnvironment(env);
        vertx = Vertx.vertx();
        reader = new KafkaTopicReader(
                broker.bootstrapServers(), List.of(config.lifecycleTopic(), config.gateRequestsTopic()));

        createRenderedConfig(OLD, "default");
        createRenderedConfig(NEW, "realtime");
        createPool(OLD);
        createNode("worker-0", "zone-a");
        createNode("worker-1", "zone-b");
    }

    @AfterEach
    void tearDown() {
        reader.close();
        vertx.close().await();
        if (!broker.isRunning()) {
            broker.start();
        }
    }

    @Test
    void publishesEveryTransitionOfAnUpdateInOrderAndAGateRequestPerStage() {
        // Given a running bridge over a pool at rest
        deployBridge();

        // When the pool gets a new target and one node goes through the whole update
        setPoolTarget(NEW);
        playUpdate("worker-0", 0, FULL_UPDATE.size());

        // Then the node's transitions are on Kafka exactly once each, in order, and on time
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(transitionsOf("worker-0")).containsExactlyElementsOf(FULL_UPDATE));
        // (only APPLIED is inferred: without MachineConfigNodes the reboot is its first sign)
        assertThat(lifecycle("worker-0"))
                .filteredOn(LifecycleEvent::late)
                .extracting(LifecycleEvent::transition)
                .containsExactly(APPLIED);
        assertThat(lifecycle("worker-0")).allMatch(e -> e.toConfig().equals(NEW) && "worker".equals(e.pool()));
        assertThat(transitionsOf("worker-1")).isEmpty();
        assertThat(transitionsOf("worker")).contains(Transition.NEW_TARGET_CONFIG);

        // And one gate request per stage, carrying the target's facts; and worker-1's pre-update gate,
        // asked for once worker-0 is assigned: it is the next the MCC takes (MCDHOOKS_PRE_UPDATE_LOOKAHEAD)
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(gateRequests())
                        .extracting(r -> r.stage() + " "
                                + (r.node() == null ? "" : r.node().name()))
                        .containsExactlyInAnyOrder(
                                "pool-pre-update ",
                                "pre-update worker-0",
                                "post-update worker-0",
                                "pre-update worker-1"));
        for (GateRequest request : gateRequests()) {
            if (request.node() != null && request.node().name().equals("worker-1")) {
                assertThat(request.node().zone()).isEqualTo("zone-b");
                continue;
            }
            assertThat(request.cluster()).isEqualTo(CLUSTER);
            assertThat(request.targetConfig()).isEqualTo(NEW);
            assertThat(request.target().kernelType()).isEqualTo("realtime");
            assertThat(request.target().osImageURL()).isEqualTo("quay.io/example/rhcos@sha256:" + NEW);
            assertThat(request.target().extensions()).containsExactly("kernel-devel");
            assertThat(request.target().kernelArguments()).containsExactly("nosmt");
            assertThat(request.pool().name()).isEqualTo("worker");
            assertThat(request.pool().maxUnavailable()).isEqualTo("1");
            assertThat(request.deadline()).isAfter(request.requestedAt());
            if (request.stage() != Stage.POOL_PRE_UPDATE) {
                assertThat(request.node().name()).isEqualTo("worker-0");
                assertThat(request.node().zone()).isEqualTo("zone-a");
                assertThat(request.currentConfig()).isEqualTo(OLD);
            }
        }
        assertThat(ids()).doesNotHaveDuplicates();
    }

    @Test
    void aRestartMidUpdatePublishesWhatHappenedMeanwhileLateAndNothingTwice() {
        // Given a bridge that saw the first half of an update
        deployBridge();
        playUpdate("worker-0", 0, 5);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() ->
                        assertThat(transitionsOf("worker-0")).containsExactlyElementsOf(FULL_UPDATE.subList(0, 5)));

        // When it stops, the node goes on into its reboot, and a new bridge starts
        vertx.close().await();
        playUpdate("worker-0", 5, 7);
        vertx = Vertx.vertx();
        deployBridge();
        playUpdate("worker-0", 7, FULL_UPDATE.size());

        // Then every transition is on Kafka once, the missed ones marked late
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(transitionsOf("worker-0")).containsExactlyElementsOf(FULL_UPDATE));
        assertThat(lifecycle("worker-0"))
                .filteredOn(LifecycleEvent::late)
                .extracting(LifecycleEvent::transition)
                .containsExactly(APPLIED, REBOOTING);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(gateRequests())
                        .extracting(GateRequest::stage)
                        .containsExactlyInAnyOrder(Stage.PRE_UPDATE, Stage.POST_UPDATE));
        assertThat(ids()).doesNotHaveDuplicates();
    }

    @Test
    void aBrokerOutageMidUpdateLosesNothing() {
        // Given a bridge following an update
        BridgeVerticle bridge = deployBridge();
        playUpdate("worker-0", 0, 3);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(transitionsOf("worker-0")).hasSize(3));

        // When the broker goes away while the node moves on
        broker.stop();
        playUpdate("worker-0", 3, FULL_UPDATE.size());
        await().atMost(Duration.ofSeconds(60)).until(() -> !bridge.ready());

        // Then, once it is back, everything arrives, in order, once
        broker.start();
        await().atMost(Duration.ofSeconds(90))
                .untilAsserted(() -> assertThat(transitionsOf("worker-0")).containsExactlyElementsOf(FULL_UPDATE));
        await().atMost(Duration.ofSeconds(30)).until(bridge::ready);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(gateRequests())
                        .extracting(GateRequest::stage)
                        .containsExactlyInAnyOrder(Stage.PRE_UPDATE, Stage.POST_UPDATE));
        assertThat(ids()).doesNotHaveDuplicates();
    }

    @Test
    void followsNodesByTheirAnnotationsAloneWhenNoMachineConfigNodesExist() {
        // The in-memory API server serves no MachineConfigNode objects here: every step above was
        // recognised from annotations; this checks the bridge did not wait for them either.
        BridgeVerticle bridge = deployBridge();
        await().atMost(Duration.ofSeconds(10)).until(bridge::ready);
        playUpdate("worker-1", 0, 2);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(transitionsOf("worker-1")).containsExactly(UPDATE_ASSIGNED, WORKING));
    }

    private BridgeVerticle deployBridge() {
        BridgeVerticle bridge = new BridgeVerticle(config, client, null, Clock.systemUTC());
        vertx.deployVerticle(bridge).await();
        return bridge;
    }

    /** Plays steps [from, to) of the MCD's and drain controller's writes for an update to NEW. */
    private void playUpdate(String node, int from, int to) {
        List<UnaryOperator<Node>> steps = List.of(
                n -> annotate(n, McoApi.DESIRED_CONFIG, NEW),
                n -> annotate(n, McoApi.STATE, McoApi.STATE_WORKING),
                n -> annotate(n, McoApi.DESIRED_DRAIN, "drain-" + NEW),
                n -> cordon(n, true),
                n -> annotate(n, McoApi.LAST_APPLIED_DRAIN, "drain-" + NEW),
                // APPLIED shows through the reboot on an annotation-only cluster
                n -> n,
                n -> annotate(n, McoApi.POST_CONFIG_ACTION, McoApi.POST_CONFIG_REBOOTING),
                n -> annotate(n, McoApi.POST_CONFIG_ACTION, ""),
                n -> annotate(n, McoApi.DESIRED_DRAIN, "uncordon-" + NEW),
                n -> annotate(cordon(n, false), McoApi.LAST_APPLIED_DRAIN, "uncordon-" + NEW),
                n -> annotate(annotate(n, McoApi.CURRENT_CONFIG, NEW), McoApi.STATE, McoApi.STATE_DONE));
        for (int i = from; i < to; i++) {
            UnaryOperator<Node> step = steps.get(i);
            if (i == 5) {
                continue;
            }
            client.nodes().withName(node).edit(step);
            if (i < to - 1) {
                // Let the bridge see each state: an update that skips states is a different test.
                int seen = i + 1;
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> transitionsOf(node).size() >= Math.min(seen, 5) || !brokerUp());
            }
        }
    }

    private boolean brokerUp() {
        return broker.isRunning();
    }

    private static Node annotate(Node node, String key, String value) {
        node.getMetadata().getAnnotations().put(key, value);
        return node;
    }

    private static Node cordon(Node node, boolean value) {
        node.getSpec().setUnschedulable(value);
        return node;
    }

    private List<KafkaTopicReader.Read> all() {
        return reader.poll();
    }

    private List<String> ids() {
        return all().stream().map(KafkaTopicReader.Read::id).toList();
    }

    private List<LifecycleEvent> lifecycle(String object) {
        return all().stream()
                .map(KafkaTopicReader.Read::message)
                .filter(LifecycleEvent.class::isInstance)
                .map(LifecycleEvent.class::cast)
                .filter(e -> e.object().name().equals(object))
                .toList();
    }

    private List<Transition> transitionsOf(String object) {
        return lifecycle(object).stream().map(LifecycleEvent::transition).toList();
    }

    private List<GateRequest> gateRequests() {
        return all().stream()
                .map(KafkaTopicReader.Read::message)
                .filter(GateRequest.class::isInstance)
                .map(GateRequest.class::cast)
                .toList();
    }

    private void createNode(String name, String zone) {
        Map<String, String> annotations = new HashMap<>();
        annotations.put(McoApi.CURRENT_CONFIG, OLD);
        annotations.put(McoApi.DESIRED_CONFIG, OLD);
        annotations.put(McoApi.STATE, McoApi.STATE_DONE);
        annotations.put(McoApi.REASON, "");
        annotations.put(McoApi.DESIRED_DRAIN, "uncordon-" + OLD);
        annotations.put(McoApi.LAST_APPLIED_DRAIN, "uncordon-" + OLD);
        annotations.put(McoApi.POST_CONFIG_ACTION, "");
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withAnnotations(annotations)
                        .withLabels(Map.of("node-role.kubernetes.io/worker", "", McoApi.ZONE_LABEL, zone))
                        .endMetadata()
                        .withNewSpec()
                        .withUnschedulable(false)
                        .endSpec()
                        .withNewStatus()
                        .addNewCondition()
                        .withType("Ready")
                        .withStatus("True")
                        .endCondition()
                        .endStatus()
                        .build())
                .create();
    }

    private void createPool(String config) {
        GenericKubernetesResource pool = new GenericKubernetesResource();
        pool.setApiVersion(McoApi.V1);
        pool.setKind(McoApi.POOL_KIND);
        pool.setMetadata(new ObjectMetaBuilder().withName("worker").build());
        pool.setAdditionalProperty(
                "spec",
                Map.of(
                        "configuration", Map.of("name", config),
                        "nodeSelector", Map.of("matchLabels", Map.of("node-role.kubernetes.io/worker", "")),
                        "paused", false));
        pool.setAdditionalProperty("status", Map.of("configuration", Map.of("name", config), "machineCount", 2));
        client.genericKubernetesResources(McoInformers.context(McoApi.POOL_KIND, "v1"))
                .resource(pool)
                .create();
    }

    private void setPoolTarget(String config) {
        client.genericKubernetesResources(McoInformers.context(McoApi.POOL_KIND, "v1"))
                .withName("worker")
                .edit(p -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> spec = new HashMap<>(
                            (Map<String, Object>) p.getAdditionalProperties().get("spec"));
                    spec.put("configuration", Map.of("name", config));
                    p.setAdditionalProperty("spec", spec);
                    return p;
                });
    }

    private void createRenderedConfig(String name, String kernelType) {
        GenericKubernetesResource config = new GenericKubernetesResource();
        config.setApiVersion(McoApi.V1);
        config.setKind(McoApi.CONFIG_KIND);
        config.setMetadata(new ObjectMetaBuilder().withName(name).build());
        config.setAdditionalProperty(
                "spec",
                Map.of(
                        "osImageURL",
                        "quay.io/example/rhcos@sha256:" + name,
                        "kernelType",
                        kernelType,
                        "extensions",
                        "realtime".equals(kernelType) ? List.of("kernel-devel") : List.of(),
                        "kernelArguments",
                        "realtime".equals(kernelType) ? List.of("nosmt") : List.of()));
        client.genericKubernetesResources(McoInformers.context(McoApi.CONFIG_KIND, "v1"))
                .resource(config)
                .create();
    }
}
