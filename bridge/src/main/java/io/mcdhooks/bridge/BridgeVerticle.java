package io.mcdhooks.bridge;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.bridge.gate.Gatekeeper;
import io.mcdhooks.bridge.gatekeeper.Cluster;
import io.mcdhooks.bridge.gatekeeper.GatekeeperService;
import io.mcdhooks.bridge.kube.McoInformers;
import io.mcdhooks.bridge.mco.McnView;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.NodeViews;
import io.mcdhooks.bridge.mco.Views;
import io.mcdhooks.bridge.metrics.BridgeMetrics;
import io.mcdhooks.bridge.publish.KafkaRecordSender;
import io.mcdhooks.bridge.publish.Outbox;
import io.mcdhooks.bridge.publish.Outgoing;
import io.mcdhooks.bridge.publish.PublishedLog;
import io.mcdhooks.bridge.publish.RecordSender;
import io.mcdhooks.bridge.publish.TopicSetup;
import io.mcdhooks.bridge.rollback.ConfigSnapshot;
import io.mcdhooks.bridge.rollback.SnapshotCodec;
import io.mcdhooks.bridge.snapshots.SnapshotRecorder;
import io.mcdhooks.bridge.ui.RolloutObserver;
import io.mcdhooks.bridge.ui.StatusPage;
import io.mcdhooks.bridge.ui.TimelinePage;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.LifecycleEvent;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches Nodes, MachineConfigPools, MachineConfigNodes and rendered MachineConfigs, publishes
 * lifecycle events and gate requests, and (unless configured not to) runs the gatekeeper.
 *
 * <p>Start: create missing topics (if configured); watch UpdateHooks and gate pods; read back what
 * was published before (so a restart publishes nothing twice and rebuilds every gate); start the
 * MCO informers and derive what happened from what the cluster shows; then pull the levers and
 * follow verdicts. Informer callbacks hop onto this verticle's event loop, which owns all state;
 * Kafka and Kubernetes calls that block run on worker threads. Ready once every informer has
 * synced and the last publish succeeded.
 */
public final class BridgeVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(BridgeVerticle.class);
    private static final long RESYNC_MILLIS = Duration.ofMinutes(5).toMillis();
    /** How often the rollout's timeline and the gauges of open gates and node phases are refreshed. */
    private static final long OBSERVE_MILLIS = 1000;

    private final BridgeConfig config;
    private final KubernetesClient client;
    private final RecordSender injectedSender;
    private final Clock clock;
    private final BridgeMetrics metrics;
    private final CloudEventsKafka cloudEvents = new CloudEventsKafka(new MessageCodec());
    private final Map<String, McnView> mcns = new HashMap<>();
    private final NodeViews views = new NodeViews();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

    private BridgeState state;
    private Outbox outbox;
    /** The parts that follow the cluster with the bridge: the gatekeeper, unless it is off. */
    private final List<ClusterListener> listeners = new ArrayList<>();

    private GatekeeperService gatekeeper;
    /** The gates the timeline and gauges show: the gatekeeper's, or none. */
    private Gatekeeper gates;

    private KafkaRecordSender ownSender;
    private SharedIndexInformer<Node> nodeInformer;
    private SharedIndexInformer<GenericKubernetesResource> poolInformer;
    /** Every MachineConfig: rendered ones are published, all are snapshotted for a rollback. */
    private SharedIndexInformer<GenericKubernetesResource> configInformer;
    /** The config snapshots, unless the gatekeeper is off. */
    private SnapshotRecorder snapshots;

    private HttpServer http;
    private RolloutObserver observer;
    private long observeTimer = -1;
    private boolean synced;
    /**
     * Nodes and pools seen since start. The first sight of each is what happened while no bridge
     * looked (published late), also when its event reaches the event loop after the informers
     * synced, which a busy machine makes happen.
     */
    private final Set<String> seen = new HashSet<>();

    private String mcnVersion;

    public BridgeVerticle(BridgeConfig config, KubernetesClient client) {
        this(config, client, BridgeMetrics.create());
    }

    /** @param metrics where to record metrics; its registry can also hold Vert.x's own */
    public BridgeVerticle(BridgeConfig config, KubernetesClient client, BridgeMetrics metrics) {
        this(config, client, null, Clock.systemUTC(), metrics);
    }

    /** For tests: {@code sender} replaces the Kafka producer when not {@code null}. */
    BridgeVerticle(BridgeConfig config, KubernetesClient client, RecordSender sender, Clock clock) {
        this(config, client, sender, clock, BridgeMetrics.create());
    }

    private BridgeVerticle(
            BridgeConfig config, KubernetesClient client, RecordSender sender, Clock clock, BridgeMetrics metrics) {
        this.config = config;
        this.client = client;
        this.injectedSender = sender;
        this.clock = clock;
        this.metrics = metrics;
    }

    public BridgeMetrics metrics() {
        return metrics;
    }

    @Override
    public Future<?> start() {
        RecordSender sender = injectedSender;
        if (sender == null) {
            ownSender = new KafkaRecordSender(vertx, config.kafka(), "mcdhooks-bridge-" + config.cluster());
            sender = ownSender;
        }
        outbox = new Outbox(
                vertx,
                sender,
                cloudEvents,
                Map.of(
                        LifecycleEvent.class, config.lifecycleTopic(),
                        GateRequest.class, config.gateRequestsTopic(),
                        GateDecision.class, config.decisionsTopic()),
                URI.create("/clusters/" + config.cluster() + "/bridge"),
                config.stateSeal(),
                metrics::publishFailure);
        GatePolicy policy = GatePolicy.pools(config.gatedPools());
        // A bridge that only publishes holds no gates: the timeline and gauges see an empty set.
        gates = new Gatekeeper(config.cluster(), clock, decision -> {});
        if (config.gatekeeper()) {
            ClusterCaches caches = new ClusterCaches();
            gatekeeper = new GatekeeperService(
                    vertx,
                    context,
                    client,
                    new GatekeeperService.Settings(
                            config.cluster(),
                            config.kafka(),
                            config.gateRequestsTopic(),
                            config.verdictsTopic(),
                            config.deadLetterTopic(),
                            config.namespace(),
                            config.gatePodImage(),
                            config.tick(),
                            config.lagInterval(),
                            config.lagWindow(),
                            config.verdictClockSkew(),
                            config.uncordonHandover(),
                            config.rollback()),
                    caches,
                    outbox,
                    sender,
                    metrics,
                    clock);
            listeners.add(gatekeeper);
            snapshots = new SnapshotRecorder(
                    vertx,
                    new SnapshotRecorder.Settings(
                            config.cluster(), config.kafka(), config.snapshotsTopic(), config.snapshotsKept()),
                    new SnapshotCodec(config.cluster(), config.stateSeal()),
                    sender,
                    caches::machineConfig,
                    () -> poolInformer == null
                            ? List.of()
                            : poolInformer.getStore().list(),
                    clock);
            listeners.add(snapshots);
            policy = gatekeeper.policy();
            gates = gatekeeper.gatekeeper();
        }
        state = new BridgeState(config.cluster(), policy, config.gateTimeout(), config.preUpdateLookahead(), clock);
        metrics.leading(true);
        return startHttp()
                .compose(v -> vertx.executeBlocking(this::ensureTopics))
                .compose(v -> Future.all(
                        listeners.stream().map(ClusterListener::startWatching).toList()))
                .compose(v -> vertx.executeBlocking(this::readBack))
                .compose(recovered -> {
                    recovered.messages().forEach(r -> recover(r.message()));
                    listeners.forEach(l -> l.recover(recovered.messages()));
                    LOG.atInfo()
                            .addKeyValue("messages", recovered.messages().size())
                            .log("read back what was published before");
                    return startInformers().map(recovered);
                })
                .compose(recovered -> Future.all(
                        listeners.stream().map(l -> l.follow(recovered.ends())).toList()))
                .onSuccess(v -> {
                    synced = true;
                    LOG.atInfo()
                            .addKeyValue("mcn", mcnVersion == null ? "none" : mcnVersion)
                            .addKeyValue("gatekeeper", config.gatekeeper())
                            .log("bridge watching cluster {}", config.cluster());
                });
    }

    @Override
    public Future<?> stop() {
        metrics.leading(false);
        if (observeTimer >= 0) {
            vertx.cancelTimer(observeTimer);
        }
        informers.forEach(SharedIndexInformer::stop);
        Future<?> parts =
                Future.join(listeners.stream().map(ClusterListener::stop).toList());
        // The gatekeeper's dead letters go through the sender too: close it after the gatekeeper.
        Future<?> producer =
                parts.transform(v -> ownSender == null ? Future.succeededFuture() : ownSender.closeAsync());
        Future<?> server = http == null ? Future.succeededFuture() : http.close();
        return Future.join(producer, server);
    }

    /** The port the health endpoints listen on. */
    public int httpPort() {
        return http.actualPort();
    }

    public boolean ready() {
        return synced && outbox.healthy();
    }

    /** The config snapshots, or {@code null} when the bridge only publishes. */
    public SnapshotRecorder snapshots() {
        return snapshots;
    }

    /** The gatekeeper, or {@code null} when the bridge only publishes. */
    public GatekeeperService gatekeeper() {
        return gatekeeper;
    }

    private Void ensureTopics() {
        if (config.createTopics()) {
            TopicSetup.ensure(
                    config.kafka(),
                    List.of(
                            config.lifecycleTopic(),
                            config.gateRequestsTopic(),
                            config.verdictsTopic(),
                            config.decisionsTopic(),
                            config.deadLetterTopic(),
                            config.snapshotsTopic()),
                    config.topicPartitions(),
                    Map.of(
                            // The verdict screen judges producedAt against the broker's time, the
                            // same live and when read back.
                            config.verdictsTopic(), Map.of("message.timestamp.type", "LogAppendTime"),
                            // One snapshot per key is all a rollback needs; a tombstone lets one go.
                            config.snapshotsTopic(), Map.of("cleanup.policy", "compact")));
        }
        return null;
    }

    /** What a restart reads back, and where each partition's read stopped. */
    private record ReadBack(List<PublishedLog.Recovered> messages, Map<TopicPartition, Long> ends) {}

    private ReadBack readBack() {
        List<String> topics = new ArrayList<>(List.of(config.lifecycleTopic(), config.gateRequestsTopic()));
        if (config.gatekeeper()) {
            topics.add(config.decisionsTopic());
            topics.add(config.verdictsTopic());
        }
        List<PublishedLog.Recovered> recovered = new ArrayList<>();
        Map<TopicPartition, Long> ends = PublishedLog.read(
                config.kafka(),
                topics,
                config.cluster(),
                config.stateSeal(),
                config.recoveryLookback(),
                Duration.ofMinutes(2),
                cloudEvents,
                clock,
                recovered::add);
        return new ReadBack(recovered, ends);
    }

    private void recover(Message message) {
        if (message instanceof LifecycleEvent event) {
            state.recover(event);
        } else if (message instanceof GateRequest request) {
            state.recover(request);
        }
    }

    private Future<Void> startInformers() {
        Context ctx = context;
        // Pools and rendered configs first: gate requests and levers need them.
        poolInformer = McoInformers.informer(
                client,
                McoApi.POOL_KIND,
                "v1",
                RESYNC_MILLIS,
                McoInformers.levelHandler(p -> ctx.runOnContext(v -> onPool(p)), (p, unknown) -> {}));
        configInformer = McoInformers.informer(
                client,
                McoApi.CONFIG_KIND,
                "v1",
                RESYNC_MILLIS,
                McoInformers.levelHandler(
                        c -> {
                            if (c.getMetadata().getName().startsWith(McoApi.RENDERED_PREFIX)) {
                                ctx.runOnContext(v -> publish(state.onRenderedConfig(Views.renderedConfig(c))));
                            }
                        },
                        (c, unknown) -> {}));
        return started(poolInformer)
                .compose(v -> started(configInformer))
                .compose(v -> startDisruptionPolicyInformer(ctx))
                .compose(v -> startMcnInformer(ctx))
                .compose(v -> {
                    nodeInformer = client.nodes().runnableInformer(RESYNC_MILLIS);
                    nodeInformer.addEventHandler(McoInformers.levelHandler(
                            n -> ctx.runOnContext(v2 -> onNode(n)),
                            (n, unknown) -> ctx.runOnContext(v2 -> onNodeDeleted(n))));
                    return started(nodeInformer);
                });
    }

    /**
     * {@code MachineConfiguration/cluster}, whose status holds the merged node disruption policy the
     * change classifier reads. Where it is not served, no change's class is known, and every change
     * is held as one that may not drain.
     */
    private Future<Void> startDisruptionPolicyInformer(Context ctx) {
        SharedIndexInformer<GenericKubernetesResource> informer = client.genericKubernetesResources(
                        McoInformers.MACHINE_CONFIGURATIONS)
                .withName(McoApi.CLUSTER)
                .runnableInformer(RESYNC_MILLIS);
        informer.addEventHandler(McoInformers.levelHandler(
                m -> ctx.runOnContext(v -> publish(state.onDisruptionPolicy(Views.disruptionPolicy(m)))),
                (m, unknown) -> ctx.runOnContext(v -> publish(state.onDisruptionPolicy(null)))));
        return started(informer).recover(e -> {
            LOG.warn(
                    "no MachineConfiguration API served; the class of a change is unknown, so pre-update gates"
                            + " hold every change with the pool's pause",
                    e);
            informer.stop();
            informers.remove(informer);
            return Future.succeededFuture();
        });
    }

    /** MachineConfigNode v1, else v1alpha1 (clusters 4.16 to 4.18), else none: annotations alone still work. */
    private Future<Void> startMcnInformer(Context ctx) {
        return tryMcn(ctx, "v1").recover(e1 -> tryMcn(ctx, "v1alpha1")).recover(e2 -> {
            LOG.info("no MachineConfigNode API served; following nodes by their annotations alone");
            mcnVersion = null;
            return Future.succeededFuture();
        });
    }

    private Future<Void> tryMcn(Context ctx, String version) {
        SharedIndexInformer<GenericKubernetesResource> informer = McoInformers.informer(
                client,
                McoApi.MCN_KIND,
                version,
                RESYNC_MILLIS,
                McoInformers.levelHandler(
                        m -> ctx.runOnContext(v -> onMcn(m.getMetadata().getName(), Views.machineConfigNode(m))),
                        (m, unknown) ->
                                ctx.runOnContext(v -> onMcn(m.getMetadata().getName(), null))));
        return started(informer).onSuccess(v -> mcnVersion = version).onFailure(e -> {
            informer.stop();
            informers.remove(informer);
        });
    }

    private void onMcn(String name, McnView mcn) {
        if (mcn == null) {
            mcns.remove(name);
        } else {
            mcns.put(name, mcn);
        }
        Node node = nodeInformer == null ? null : nodeInformer.getStore().getByKey(name);
        if (node != null) {
            onNode(node);
        }
    }

    private void onPool(GenericKubernetesResource pool) {
        publish(state.onPool(
                Views.pool(pool), firstSight("pool/" + pool.getMetadata().getName())));
        listeners.forEach(l -> l.onPool(pool));
    }

    private void onNode(Node node) {
        publish(state.onNode(view(node), firstSight("node/" + node.getMetadata().getName())));
        listeners.forEach(l -> l.onNode(node));
        observer.onNode(node, clock.instant());
    }

    private void onNodeDeleted(Node node) {
        observer.onNodeDeleted(node.getMetadata().getName());
        publish(state.onNodeDeleted(node.getMetadata().getName()));
        listeners.forEach(l -> l.onNodeDeleted(node));
        views.forget(node.getMetadata().getName());
        seen.remove("node/" + node.getMetadata().getName());
    }

    private boolean firstSight(String key) {
        return seen.add(key) || !synced;
    }

    private NodeView view(Node node) {
        return views.of(node, mcns.get(node.getMetadata().getName()));
    }

    private void publish(List<Outgoing> messages) {
        for (Outgoing message : messages) {
            outbox.publish(message);
            if (message.message() instanceof GateRequest request) {
                // In-process as well as on Kafka: the gate is open before any hook can answer it.
                listeners.forEach(l -> l.onGateRequest(request));
            }
        }
    }

    private Future<Void> started(SharedIndexInformer<?> informer) {
        informers.add(informer);
        return Future.fromCompletionStage(informer.start(), context);
    }

    /** The rollout's timeline and the gauges of open gates and node phases, refreshed now. */
    private void observe() {
        Instant now = clock.instant();
        metrics.nodePhases(observer.sample(now));
        metrics.gates(gates.gates(), now);
    }

    private Future<HttpServer> startHttp() {
        Supplier<List<Node>> nodes =
                () -> nodeInformer == null ? List.of() : nodeInformer.getStore().list();
        Supplier<List<GenericKubernetesResource>> pools =
                () -> poolInformer == null ? List.of() : poolInformer.getStore().list();
        StatusPage status = new StatusPage(config, nodes, pools, () -> gatekeeper, clock);
        observer = new RolloutObserver(config.cluster(), nodes, pools, () -> gates.gates(), id -> gates.gate(id));
        TimelinePage timeline = new TimelinePage(observer, clock);
        observeTimer = vertx.setPeriodic(OBSERVE_MILLIS, t -> observe());
        return vertx.createHttpServer()
                .requestHandler(request -> {
                    switch (request.path()) {
                        case "/" -> status.servePage(request);
                        case "/api/status" -> status.serveStatus(request);
                        case "/timeline.js" -> timeline.serveScript(request);
                        case "/api/timeline" -> timeline.serveTimeline(request);
                        case "/healthz" -> request.response().end("ok");
                        case "/metrics" ->
                            request.response()
                                    .putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8")
                                    .end(metrics.scrape());
                        case "/readyz" -> {
                            JsonObject body = new JsonObject()
                                    .put("informersSynced", synced)
                                    .put("kafkaHealthy", outbox.healthy())
                                    .put("pendingMessages", outbox.pending())
                                    .put("pendingGateRequests", state.pendingGateCount());
                            request.response()
                                    .setStatusCode(ready() ? 200 : 503)
                                    .putHeader("content-type", "application/json")
                                    .end(body.encode());
                        }
                        default -> request.response().setStatusCode(404).end();
                    }
                })
                .listen(config.httpPort(), config.httpHost())
                .onSuccess(server -> http = server);
    }

    /** The informer caches, as the gatekeeper sees the cluster. */
    private final class ClusterCaches implements Cluster {
        @Override
        public Node node(String name) {
            return nodeInformer == null ? null : nodeInformer.getStore().getByKey(name);
        }

        @Override
        public List<Node> nodes() {
            return nodeInformer == null ? List.of() : nodeInformer.getStore().list();
        }

        @Override
        public GenericKubernetesResource pool(String name) {
            return poolInformer == null ? null : poolInformer.getStore().getByKey(name);
        }

        @Override
        public NodeView view(Node node) {
            return BridgeVerticle.this.view(node);
        }

        @Override
        public String poolOf(NodeView node) {
            return state.poolOf(node);
        }

        @Override
        public GateRequest.Disruption disruption(NodeView node, String target) {
            return state.disruption(node.currentConfig(), target);
        }

        @Override
        public GenericKubernetesResource machineConfig(String name) {
            return configInformer == null ? null : configInformer.getStore().getByKey(name);
        }

        @Override
        public Optional<ConfigSnapshot> snapshot(String pool, String renderedConfig) {
            return snapshots == null ? Optional.empty() : snapshots.snapshot(pool, renderedConfig);
        }
    }
}
