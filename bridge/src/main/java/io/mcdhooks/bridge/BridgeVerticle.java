package io.mcdhooks.bridge;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.bridge.mco.McnView;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.Views;
import io.mcdhooks.bridge.publish.KafkaRecordSender;
import io.mcdhooks.bridge.publish.Outbox;
import io.mcdhooks.bridge.publish.Outgoing;
import io.mcdhooks.bridge.publish.PublishedLog;
import io.mcdhooks.bridge.publish.RecordSender;
import io.mcdhooks.bridge.publish.TopicSetup;
import io.mcdhooks.bridge.watch.McoInformers;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.LifecycleEvent;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.Topics;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;

/**
 * Watches Nodes, MachineConfigPools, MachineConfigNodes and rendered MachineConfigs, and
 * publishes lifecycle events and gate requests.
 *
 * <p>Start: create missing topics (if configured), read back what was published before (so a
 * restart publishes nothing twice), then start the informers and derive what happened from what
 * the cluster shows. Informer callbacks hop onto this verticle's event loop, which owns the
 * {@link BridgeState} and the {@link Outbox}; Kafka and Kubernetes calls that block run on worker
 * threads. Ready once every informer has synced and the last publish succeeded.
 */
public final class BridgeVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(BridgeVerticle.class);
    private static final long RESYNC_MILLIS = Duration.ofMinutes(5).toMillis();

    private final BridgeConfig config;
    private final KubernetesClient client;
    private final RecordSender injectedSender;
    private final Clock clock;
    private final CloudEventsKafka cloudEvents = new CloudEventsKafka(new MessageCodec());
    private final Map<String, McnView> mcns = new HashMap<>();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

    private BridgeState state;
    private Outbox outbox;
    private KafkaRecordSender ownSender;
    private SharedIndexInformer<Node> nodeInformer;
    private HttpServer http;
    private boolean synced;
    private String mcnVersion;

    public BridgeVerticle(BridgeConfig config, KubernetesClient client) {
        this(config, client, null, Clock.systemUTC());
    }

    /** For tests: {@code sender} replaces the Kafka producer when not {@code null}. */
    BridgeVerticle(BridgeConfig config, KubernetesClient client, RecordSender sender, Clock clock) {
        this.config = config;
        this.client = client;
        this.injectedSender = sender;
        this.clock = clock;
    }

    @Override
    public Future<?> start() {
        state = new BridgeState(config.cluster(), GatePolicy.pools(config.gatedPools()), config.gateTimeout(), clock);
        RecordSender sender = injectedSender;
        if (sender == null) {
            ownSender = new KafkaRecordSender(vertx, config.kafka(), "mcdhooks-bridge-" + config.cluster());
            sender = ownSender;
        }
        outbox = new Outbox(vertx, sender, cloudEvents,
                Map.of(LifecycleEvent.class, config.lifecycleTopic(), GateRequest.class, config.gateRequestsTopic()),
                URI.create("/clusters/" + config.cluster() + "/bridge"));
        return startHttp()
                .compose(v -> vertx.executeBlocking(this::prepareKafka))
                .compose(recovered -> {
                    recovered.forEach(this::recover);
                    LOG.atInfo().addKeyValue("messages", recovered.size()).log("read back what was published before");
                    return startInformers();
                })
                .onSuccess(v -> {
                    synced = true;
                    LOG.atInfo().addKeyValue("mcn", mcnVersion == null ? "none" : mcnVersion)
                            .log("bridge watching cluster {}", config.cluster());
                });
    }

    @Override
    public Future<?> stop() {
        informers.forEach(SharedIndexInformer::stop);
        Future<?> producer = ownSender == null ? Future.succeededFuture() : ownSender.closeAsync();
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

    private List<Message> prepareKafka() {
        List<String> topics = List.of(config.lifecycleTopic(), config.gateRequestsTopic());
        if (config.createTopics()) {
            List<String> all = new ArrayList<>(topics);
            all.addAll(List.of(Topics.VERDICTS, Topics.GATE_DECISIONS, Topics.DEAD_LETTER));
            TopicSetup.ensure(config.kafka(), all, config.topicPartitions());
        }
        List<Message> recovered = new ArrayList<>();
        PublishedLog.read(config.kafka(), topics, config.cluster(), config.recoveryLookback(), Duration.ofMinutes(2),
                cloudEvents, clock, recovered::add);
        return recovered;
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
        // Pools and rendered configs first: gate requests need their facts.
        SharedIndexInformer<GenericKubernetesResource> pools = McoInformers.informer(client, McoApi.POOL_KIND, "v1",
                RESYNC_MILLIS, McoInformers.levelHandler(
                        p -> ctx.runOnContext(v -> publish(state.onPool(Views.pool(p), !synced))),
                        (p, unknown) -> { }));
        SharedIndexInformer<GenericKubernetesResource> configs = McoInformers.informer(client, McoApi.CONFIG_KIND, "v1",
                RESYNC_MILLIS, McoInformers.levelHandler(
                        c -> {
                            if (c.getMetadata().getName().startsWith(McoApi.RENDERED_PREFIX)) {
                                ctx.runOnContext(v -> publish(state.onRenderedConfig(Views.renderedConfig(c))));
                            }
                        },
                        (c, unknown) -> { }));
        return started(pools).compose(v -> started(configs))
                .compose(v -> startMcnInformer(ctx))
                .compose(v -> {
                    nodeInformer = client.nodes().runnableInformer(RESYNC_MILLIS);
                    nodeInformer.addEventHandler(McoInformers.levelHandler(
                            n -> ctx.runOnContext(v2 -> onNode(n)),
                            (n, unknown) -> ctx.runOnContext(v2 -> publish(state.onNodeDeleted(n.getMetadata().getName())))));
                    return started(nodeInformer);
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
        SharedIndexInformer<GenericKubernetesResource> informer = McoInformers.informer(client, McoApi.MCN_KIND,
                version, RESYNC_MILLIS, McoInformers.levelHandler(
                        m -> ctx.runOnContext(v -> onMcn(m.getMetadata().getName(), Views.machineConfigNode(m))),
                        (m, unknown) -> ctx.runOnContext(v -> onMcn(m.getMetadata().getName(), null))));
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

    private void onNode(Node node) {
        publish(state.onNode(Views.node(node, mcns.get(node.getMetadata().getName())), !synced));
    }

    private void publish(List<Outgoing> messages) {
        messages.forEach(outbox::publish);
    }

    private Future<Void> started(SharedIndexInformer<?> informer) {
        informers.add(informer);
        CompletionStage<Void> start = informer.start();
        return Future.fromCompletionStage(start, context);
    }

    private Future<HttpServer> startHttp() {
        return vertx.createHttpServer().requestHandler(request -> {
            switch (request.path()) {
                case "/healthz" -> request.response().end("ok");
                case "/readyz" -> {
                    JsonObject body = new JsonObject()
                            .put("informersSynced", synced)
                            .put("kafkaHealthy", outbox.healthy())
                            .put("pendingMessages", outbox.pending())
                            .put("pendingGateRequests", state.pendingGateCount());
                    request.response().setStatusCode(ready() ? 200 : 503)
                            .putHeader("content-type", "application/json").end(body.encode());
                }
                default -> request.response().setStatusCode(404).end();
            }
        }).listen(config.httpPort(), "0.0.0.0").onSuccess(server -> http = server);
    }
}
