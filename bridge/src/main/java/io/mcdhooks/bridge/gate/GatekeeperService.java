package io.mcdhooks.bridge.gate;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.bridge.hooks.HookSpecs;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookStatus;
import io.mcdhooks.bridge.lag.LagMonitor;
import io.mcdhooks.bridge.lag.LagStatus;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.bridge.mco.Views;
import io.mcdhooks.bridge.metrics.BridgeMetrics;
import io.mcdhooks.bridge.publish.EventIds;
import io.mcdhooks.bridge.publish.Outbox;
import io.mcdhooks.bridge.publish.Outgoing;
import io.mcdhooks.bridge.watch.McoInformers;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.codec.InvalidMessageException;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.DeadLetters;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.sign.VerdictSignatures;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.kafka.client.common.TopicPartition;
import io.vertx.kafka.client.consumer.KafkaConsumer;
import io.vertx.kafka.client.producer.KafkaProducer;
import io.vertx.kafka.client.producer.KafkaProducerRecord;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gatekeeper's adapters around {@link Gatekeeper}: UpdateHooks from the API, gate requests
 * from the bridge, verdicts from Kafka (refused ones to the dead-letter topic), decisions to
 * Kafka and to Kubernetes Events, overrides from annotations, and the levers through
 * {@link LeverActuator}. Runs on the bridge verticle's event loop, which owns all its state.
 */
public final class GatekeeperService {

    /** Annotation on a Node or MachineConfigPool by which an operator overrides its gate. */
    public static final String OVERRIDE_ANNOTATION = OverrideRequest.ANNOTATION;

    private static final Logger LOG = LoggerFactory.getLogger(GatekeeperService.class);
    private static final long RESYNC_MILLIS = Duration.ofMinutes(5).toMillis();
    private static final Duration STATUS_PERIOD = Duration.ofSeconds(2);

    /** What the service needs of the bridge: its caches and its judgement of pools. */
    public interface Cluster {
        Node node(String name);

        List<Node> nodes();

        GenericKubernetesResource pool(String name);

        NodeView view(Node node);

        String poolOf(NodeView node);
    }

    /** Settings of the gatekeeper. */
    public record Settings(
            String cluster,
            KafkaSettings kafka,
            String requestsTopic,
            String verdictsTopic,
            String deadLetterTopic,
            String namespace,
            String pauseImage,
            Duration tick,
            Duration lagInterval,
            int lagWindow) {}

    private final Vertx vertx;
    private final Context context;
    private final KubernetesClient client;
    private final Settings settings;
    /**
     * Set by {@link #follow}: before, the informers are still filling (no nodes yet when the pools
     * arrive, late gates not yet requested), and levers planned then undid holds at every restart.
     */
    private boolean following;

    private final Cluster cluster;
    private final Outbox decisionsOutbox;
    private final BridgeMetrics metrics;
    private final Clock clock;
    private LagMonitor lagMonitor;
    private Map<String, LagStatus> lag = Map.of();
    private long lagTimer = -1;
    private final Gatekeeper gatekeeper;
    private final LeverActuator levers;
    private final CloudEventsKafka cloudEvents = new CloudEventsKafka(new MessageCodec());
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private KafkaConsumer<byte[], byte[]> verdicts;
    private KafkaProducer<byte[], byte[]> deadLetters;
    private long timer = -1;
    private long statusTimer = -1;
    private final Map<String, UpdateHookStatus> writtenStatus = new HashMap<>();
    private final Map<String, String> invalidWritten = new HashMap<>();
    /** The last decision of each open gate an Event was recorded for, as "DECISION/released". */
    private final Map<String, String> evented = new HashMap<>();
    /** Pools whose pause is to be planned once the events queued now are handled. */
    private final Set<String> poolsToPlan = new LinkedHashSet<>();
    /** Per pool, the target and whether it rolls out, as its nodes' levers were last planned for. */
    private final Map<String, String> poolRollouts = new HashMap<>();

    private long deadLettered;
    private long verdictRecords;
    private final Map<String, Map<String, PublicKey>> hookKeys = new HashMap<>();
    /** How far a signed verdict may seem to predate its gate: clocks of hooks and gatekeeper differ. */
    private static final Duration CLOCK_SKEW = Duration.ofMinutes(1);

    public GatekeeperService(
            Vertx vertx,
            Context context,
            KubernetesClient client,
            Settings settings,
            Cluster cluster,
            Outbox decisionsOutbox,
            BridgeMetrics metrics,
            Clock clock) {
        this.metrics = metrics;
        this.clock = clock;
        this.vertx = vertx;
        this.context = context;
        this.client = client;
        this.settings = settings;
        this.cluster = cluster;
        this.decisionsOutbox = decisionsOutbox;
        this.gatekeeper = new Gatekeeper(settings.cluster(), clock, this::decided);
        this.levers = new LeverActuator(vertx, client, settings.namespace(), settings.pauseImage());
    }

    public Gatekeeper gatekeeper() {
        return gatekeeper;
    }

    public LeverActuator levers() {
        return levers;
    }

    /** Verdicts and other records refused so far. */
    public long deadLettered() {
        return deadLettered;
    }

    /** Records taken from the verdicts topic so far, whatever became of them. */
    public long verdictRecords() {
        return verdictRecords;
    }

    /** Watches UpdateHooks, and the gate pods and budgets in its namespace; completes once synced. */
    public Future<Void> startWatching() {
        SharedIndexInformer<UpdateHook> hooks =
                client.resources(UpdateHook.class).runnableInformer(RESYNC_MILLIS);
        hooks.addEventHandler(McoInformers.levelHandler(
                h -> context.runOnContext(v -> onHook(h)),
                (h, unknown) -> context.runOnContext(v -> {
                    gatekeeper.removeHook(h.getMetadata().getName());
                    invalidWritten.remove(h.getMetadata().getName());
                    writtenStatus.remove(h.getMetadata().getName());
                    reconcileAll();
                })));
        String selector = LeverActuator.MANAGED_BY + "=" + LeverActuator.MANAGER;
        SharedIndexInformer<Pod> pods = client.pods()
                .inNamespace(settings.namespace())
                .withLabel(LeverActuator.MANAGED_BY, LeverActuator.MANAGER)
                .runnableInformer(RESYNC_MILLIS);
        pods.addEventHandler(McoInformers.levelHandler(
                p -> context.runOnContext(v -> gateObject(p, true, true)),
                (p, unknown) -> context.runOnContext(v -> gateObject(p, false, true))));
        SharedIndexInformer<PodDisruptionBudget> budgets = client.policy()
                .v1()
                .podDisruptionBudget()
                .inNamespace(settings.namespace())
                .withLabel(LeverActuator.MANAGED_BY, LeverActuator.MANAGER)
                .runnableInformer(RESYNC_MILLIS);
        budgets.addEventHandler(McoInformers.levelHandler(
                b -> context.runOnContext(v -> gateObject(b, true, false)),
                (b, unknown) -> context.runOnContext(v -> gateObject(b, false, false))));
        LOG.atDebug().log("watching gate objects with {}", selector);
        return Future.all(start(hooks), start(pods), start(budgets)).mapEmpty();
    }

    /**
     * Rebuilds the gates from what Kafka holds (gate requests, decisions, verdicts of this
     * cluster, oldest first). Call before the node and pool informers start: levers planned
     * without the gates could lift a cordon a held gate needs.
     */
    public void recover(List<Message> recovered) {
        Map<String, GateRequest> requests = new LinkedHashMap<>();
        Map<String, GateDecision> latest = new HashMap<>();
        Map<String, List<Verdict>> verdictsByGate = new HashMap<>();
        for (Message message : recovered) {
            if (message instanceof GateRequest r) {
                GateRequest known = requests.get(r.gateId());
                if (known == null || known.attempt() <= r.attempt()) {
                    requests.put(r.gateId(), r);
                }
            } else if (message instanceof GateDecision d) {
                latest.put(d.gateId() + "#" + d.attempt(), d);
            } else if (message instanceof Verdict v) {
                verdictsByGate
                        .computeIfAbsent(v.gateId(), k -> new ArrayList<>())
                        .add(v);
            }
        }
        for (GateRequest r : requests.values()) {
            gatekeeper.restore(
                    r, latest.get(r.gateId() + "#" + r.attempt()), verdictsByGate.getOrDefault(r.gateId(), List.of()));
        }
        LOG.atInfo().addKeyValue("gates", requests.size()).log("gates rebuilt from Kafka");
    }

    /**
     * Once the cluster's objects are known: pulls every lever to where the gates say, lets time
     * pass for deadlines, and follows the verdicts topic from {@code ends} (where recovery stopped).
     */
    public Future<Void> follow(Map<org.apache.kafka.common.TopicPartition, Long> ends) {
        startPlanning();
        timer = vertx.setPeriodic(settings.tick().toMillis(), t -> {
            gatekeeper.tick();
            gatekeeper.forgetReleasedBefore(Instant.now().minus(Duration.ofHours(6)));
        });
        statusTimer = vertx.setPeriodic(STATUS_PERIOD.toMillis(), t -> {
            writeHookStatuses();
            metrics.held(nodesHeldByPool());
        });
        lagMonitor = new LagMonitor(settings.kafka(), settings.requestsTopic(), settings.lagWindow(), clock);
        lagTimer = vertx.setPeriodic(settings.lagInterval().toMillis(), t -> sampleLag());
        return followVerdicts(ends);
    }

    /** From here on levers are planned, every one at once now: the gates and the cluster are known. */
    void startPlanning() {
        following = true;
        reconcileAll();
    }

    public Future<Void> stop() {
        informers.forEach(SharedIndexInformer::stop);
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            vertx.cancelTimer(statusTimer);
            vertx.cancelTimer(lagTimer);
        }
        if (lagMonitor != null) {
            LagMonitor monitor = lagMonitor;
            vertx.executeBlocking(
                    () -> {
                        monitor.close();
                        return null;
                    },
                    false);
        }
        Future<Void> consumer = verdicts == null ? Future.succeededFuture() : verdicts.close();
        Future<Void> producer = deadLetters == null ? Future.succeededFuture() : deadLetters.close();
        return Future.join(consumer, producer).mapEmpty();
    }

    public void onGateRequest(GateRequest request) {
        gatekeeper.onGateRequest(request);
    }

    /** A node changed: overrides on it, then its levers (and its pool's pause). */
    public void onNode(Node node) {
        NodeView view = cluster.view(node);
        override(node);
        if (!following) {
            return;
        }
        reconcileNode(node);
        String pool = cluster.poolOf(view);
        if (pool != null) {
            reconcilePoolPauseSoon(pool);
        }
    }

    /** A node was deleted: its gate pod and budget are removed, and its pool may go on without it. */
    public void onNodeDeleted(Node node) {
        levers.nodeDeleted(node.getMetadata().getName(), () -> {});
        String pool = cluster.poolOf(cluster.view(node));
        if (pool != null) {
            reconcilePoolPauseSoon(pool);
        }
    }

    public void onPool(GenericKubernetesResource pool) {
        override(pool);
        if (!following) {
            return;
        }
        // A node's levers read only its pool's target and whether it rolls out; the pool's status
        // counts change with every step of every node, and only the pause depends on them.
        String name = pool.getMetadata().getName();
        PoolView view = Views.pool(pool);
        String rollout = view.targetConfig() + (view.rolling() ? " rolling" : " at rest");
        if (!rollout.equals(poolRollouts.put(name, rollout))) {
            reconcilePool(name);
        } else {
            reconcilePoolPauseSoon(name);
        }
    }

    private void onHook(UpdateHook hook) {
        String name = hook.getMetadata().getName();
        boolean changed;
        try {
            HookSpec spec = HookSpecs.from(hook);
            changed = gatekeeper.putHook(spec);
            if (spec.signed()) {
                loadKeys(spec.name(), hook.getSpec().getSignature().getPublicKeysSecret());
            } else {
                hookKeys.remove(spec.name());
            }
            if (invalidWritten.remove(name) != null) {
                // The next status written clears the complaint.
                writtenStatus.remove(name);
            }
        } catch (IllegalArgumentException e) {
            // An edit that breaks a hook must not let gates open without it: the last valid
            // version stays in force, and the hook's status says what is wrong.
            boolean kept = gatekeeper.hooks().stream().anyMatch(h -> h.name().equals(name));
            LOG.atWarn()
                    .addKeyValue("hook", name)
                    .log(
                            "ignoring this version of the hook{}: {}",
                            kept ? " (its last valid version stays in force)" : "",
                            e.getMessage());
            writeInvalid(name, e.getMessage());
            changed = false;
        }
        // Every status this service writes comes back as an update of the hook; only a change of
        // what the hook gates can move a lever, so only that plans every node again.
        if (changed) {
            reconcileAll();
        }
    }

    /** Says in the hook's status why it was refused; once per message, since writing it is a change too. */
    private void writeInvalid(String hook, String why) {
        if (why.equals(invalidWritten.put(hook, why))) {
            return;
        }
        vertx.executeBlocking(
                        () -> {
                            client.resources(UpdateHook.class).withName(hook).editStatus(h -> {
                                UpdateHookStatus status =
                                        h.getStatus() == null ? new UpdateHookStatus() : h.getStatus();
                                status.setInvalid(why);
                                h.setStatus(status);
                                return h;
                            });
                            return null;
                        },
                        false)
                .onFailure(e -> {
                    invalidWritten.remove(hook);
                    LOG.atDebug().addKeyValue("hook", hook).log("status not written: {}", e.getMessage());
                });
    }

    /** Each registered hook's lag state, as last sampled. */
    public Map<String, LagStatus> lag() {
        return lag;
    }

    /**
     * Why a gate is closed, for people: its decision's summary, and for hooks it still waits on,
     * their lag state, e.g. {@code waiting on kmod-check: STALLED, lag 12 for 4 m}.
     */
    public String blockReason(Gate gate) {
        GateDecision decision = GateMachine.evaluate(gate, clock.instant());
        if (decision.released()) {
            return decision.summary();
        }
        List<String> parts = new ArrayList<>();
        for (GateDecision.HookStatus hook : decision.hooks()) {
            if (!decision.blockingHooks().contains(hook.hook())) {
                continue;
            }
            LagStatus status = lag.get(hook.hook());
            boolean waiting = hook.state() == GateDecision.HookState.MISSING
                    || hook.state() == GateDecision.HookState.PENDING
                    || hook.state() == GateDecision.HookState.TIMED_OUT;
            String text = hook.hook() + ": " + hook.state() + (hook.reason() == null ? "" : " " + hook.reason());
            if (waiting && status != null) {
                text = hook.hook() + ": " + hook.state() + ", hook " + status.describe(clock.instant());
            }
            parts.add(text);
        }
        String verb = decision.decision() == GateDecision.Decision.BLOCKED ? "blocked by " : "waiting on ";
        return decision.decision() == GateDecision.Decision.OVERRIDDEN
                ? decision.summary()
                : verb + String.join("; ", parts);
    }

    private void sampleLag() {
        List<String> hooks = gatekeeper.hooks().stream().map(HookSpec::name).toList();
        LagMonitor monitor = lagMonitor;
        vertx.executeBlocking(() -> monitor.sample(hooks), false).onSuccess(statuses -> {
            lag = Map.copyOf(statuses);
            metrics.lag(statuses);
        });
    }

    private Map<String, Long> nodesHeldByPool() {
        Map<String, Long> held = new HashMap<>();
        for (Gate gate : gatekeeper.gates()) {
            GateDecision last = gate.last();
            if (gate.request().stage().perNode()
                    && !gate.released()
                    && last != null
                    && last.decision() != GateDecision.Decision.OPENED) {
                held.merge(gate.request().pool().name(), 1L, Long::sum);
            }
        }
        return held;
    }

    /** Writes each hook's open gates and latest verdicts to its status, where they changed. */
    private void writeHookStatuses() {
        for (HookSpec hook : gatekeeper.hooks()) {
            UpdateHookStatus status = HookStatuses.of(hook.name(), gatekeeper.gates(), lag.get(hook.name()));
            status.setInvalid(invalidWritten.get(hook.name()));
            if (HookStatuses.same(status, writtenStatus.get(hook.name()))) {
                continue;
            }
            writtenStatus.put(hook.name(), status);
            vertx.executeBlocking(
                            () -> {
                                client.resources(UpdateHook.class)
                                        .withName(hook.name())
                                        .editStatus(h -> {
                                            h.setStatus(status);
                                            return h;
                                        });
                                return null;
                            },
                            false)
                    .onFailure(e -> {
                        writtenStatus.remove(hook.name());
                        LOG.atDebug().addKeyValue("hook", hook.name()).log("status not written: {}", e.getMessage());
                    });
        }
    }

    /**
     * Reads a signed hook's public keys from its Secret. Until they are read, and if they cannot
     * be, the hook has no keys and every verdict of it is refused: a gate waiting on it stays closed.
     */
    private void loadKeys(String hook, String secretName) {
        hookKeys.put(hook, Map.of());
        vertx.executeBlocking(
                        () -> {
                            var secret = client.secrets()
                                    .inNamespace(settings.namespace())
                                    .withName(secretName)
                                    .get();
                            Map<String, PublicKey> keys = new HashMap<>();
                            if (secret != null && secret.getData() != null) {
                                secret.getData()
                                        .forEach((kid, b64) -> keys.put(
                                                kid,
                                                VerdictSignatures.publicKey(new String(
                                                        Base64.getDecoder().decode(b64), StandardCharsets.UTF_8))));
                            }
                            return keys;
                        },
                        false)
                .onComplete(result -> {
                    if (result.succeeded() && !result.result().isEmpty()) {
                        hookKeys.put(hook, Map.copyOf(result.result()));
                    } else {
                        LOG.atWarn()
                                .addKeyValue("hook", hook)
                                .log(
                                        "no usable public keys in Secret {}/{}: its verdicts are refused",
                                        settings.namespace(),
                                        secretName);
                    }
                });
    }

    /**
     * A signed hook's verdict must carry a signature its keys verify, and must not predate the
     * gate it is about; the signature binds gate, attempt, hook and outcome, so one copied from
     * another gate or attempt does not verify. Returns why a verdict is refused, or {@code null}.
     */
    private String signatureProblem(Verdict verdict, String jws) {
        Gate gate = gatekeeper.gate(verdict.gateId());
        Gate.Slot slot = gate == null ? null : gate.hooks().get(verdict.hook());
        if (slot == null || !slot.signed()) {
            return null;
        }
        VerdictSignatures.Check check =
                VerdictSignatures.verify(verdict, jws, hookKeys.getOrDefault(verdict.hook(), Map.of()));
        if (check != VerdictSignatures.Check.VALID) {
            return "SIGNATURE_" + check;
        }
        if (verdict.producedAt().isBefore(gate.openedAt().minus(CLOCK_SKEW))) {
            return "SIGNATURE_EXPIRED";
        }
        return null;
    }

    private void decided(GateDecision decision) {
        metrics.decision(decision);
        decisionsOutbox.publish(new Outgoing(
                decision,
                EventIds.lifecycle(
                        decision.cluster(),
                        "GateDecision",
                        decision.gateId(),
                        Integer.toString(decision.attempt()),
                        decision.decision().name(),
                        decision.decidedAt().toString()),
                decision.decidedAt()));
        LOG.atInfo()
                .addKeyValue("gate", decision.gateId())
                .addKeyValue("decision", decision.decision())
                .log(decision.summary());
        // An Event when what the gate is changes (opened, blocked, released...), not for every
        // verdict that only moves a hook's state: with 20 hooks that would be 20 Events a gate.
        String kind = decision.decision() + "/" + decision.released();
        boolean changed = !kind.equals(evented.put(decision.gateId(), kind));
        if (decision.released()) {
            evented.remove(decision.gateId());
        }
        if (changed) {
            vertx.executeBlocking(
                            () -> {
                                GateEvents.record(client, decision);
                                return null;
                            },
                            false)
                    .onFailure(e -> LOG.atWarn()
                            .addKeyValue("gate", decision.gateId())
                            .log("could not record the Kubernetes Event: {}", e.getMessage()));
        }
        if (decision.node() != null) {
            Node node = cluster.node(decision.node());
            if (node != null) {
                reconcileNode(node);
            }
        }
        if (following) {
            reconcilePoolPauseSoon(decision.pool());
        }
    }

    private void reconcileAll() {
        if (!following) {
            return;
        }
        Set<String> pools = new HashSet<>();
        for (Node node : cluster.nodes()) {
            reconcileNode(node);
            String pool = cluster.poolOf(cluster.view(node));
            if (pool != null) {
                pools.add(pool);
            }
        }
        pools.forEach(this::reconcilePoolPause);
    }

    private void reconcilePool(String pool) {
        for (Node node : cluster.nodes()) {
            if (pool.equals(cluster.poolOf(cluster.view(node)))) {
                reconcileNode(node);
            }
        }
        reconcilePoolPause(pool);
    }

    private void reconcileNode(Node node) {
        if (!following) {
            return;
        }
        NodeView view = cluster.view(node);
        String poolName = cluster.poolOf(view);
        GenericKubernetesResource pool = poolName == null ? null : cluster.pool(poolName);
        PoolView poolView = pool == null ? null : Views.pool(pool);
        LeverPlan.NodeLevers want =
                LeverPlan.node(settings.cluster(), poolView, view, enforcingHooks(), gatekeeper::gate);
        String name = node.getMetadata().getName();
        levers.applyNode(node, want, () -> {
            Node latest = cluster.node(name);
            if (latest != null) {
                reconcileNode(latest);
            }
        });
    }

    /**
     * Plans a pool's pause after the events already queued on the event loop: a pool's pause
     * depends on all its nodes, so planning it on every node event, verdict or gate object scans
     * every node each time (quadratic in a 5,000-node rollout). A burst is planned once; while
     * the loop keeps up, one event still gets one plan, a turn of the loop later.
     */
    private void reconcilePoolPauseSoon(String pool) {
        boolean first = poolsToPlan.isEmpty();
        poolsToPlan.add(pool);
        if (first) {
            context.runOnContext(v -> {
                List<String> pools = new ArrayList<>(poolsToPlan);
                poolsToPlan.clear();
                pools.forEach(this::reconcilePoolPause);
            });
        }
    }

    private void reconcilePoolPause(String poolName) {
        GenericKubernetesResource pool = cluster.pool(poolName);
        // Before the informers are filled a pool would be planned over a partial node list.
        if (!following || pool == null) {
            return;
        }
        PoolView view = Views.pool(pool);
        List<NodeView> nodes = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            NodeView nodeView = cluster.view(node);
            if (poolName.equals(cluster.poolOf(nodeView))) {
                nodes.add(nodeView);
            }
        }
        Boolean paused = LeverPlan.poolPaused(
                settings.cluster(), view, nodes, enforcingHooks(), gatekeeper::gate, levers::gatePodReady);
        levers.applyPool(pool, paused, () -> reconcilePoolPauseSoon(poolName));
    }

    /** Advisory hooks get gate requests, and their verdicts are recorded, but they pull no lever. */
    private List<HookSpec> enforcingHooks() {
        return gatekeeper.hooks().stream()
                .filter(h -> h.mode() == GateDecision.Mode.Enforcing)
                .toList();
    }

    private void gateObject(HasMetadata object, boolean exists, boolean pod) {
        String name = object.getMetadata().getName();
        if (pod) {
            levers.seenGatePod(name, exists);
        } else {
            levers.seenGateBudget(name, exists);
        }
        Map<String, String> annotations = object.getMetadata().getAnnotations();
        String nodeName = annotations == null ? null : annotations.get("mcdhooks.io/node");
        Node node = nodeName == null ? null : cluster.node(nodeName);
        if (node != null && following) {
            reconcileNode(node);
            String pool = cluster.poolOf(cluster.view(node));
            if (pool != null) {
                reconcilePoolPauseSoon(pool);
            }
        }
    }

    /**
     * {@code mcdhooks.io/override: {"gate": "<gate id>", "action": "release"|"block", "by": "...", "reason": "..."}}
     * on the gate's Node or pool. Who may write it is who may patch Nodes and pools; the API
     * server's audit log has the real identity behind "by".
     */
    private void override(HasMetadata object) {
        Map<String, String> annotations = object.getMetadata().getAnnotations();
        String text = annotations == null ? null : annotations.get(OVERRIDE_ANNOTATION);
        if (text == null) {
            return;
        }
        try {
            OverrideRequest request = OverrideRequest.parse(text);
            if (!gatekeeper.onOverride(request.gateId(), request.toOverride(clock.instant()))) {
                LOG.atWarn().addKeyValue("gate", request.gateId()).log("override names no known gate");
            }
        } catch (IllegalArgumentException e) {
            LOG.atWarn()
                    .addKeyValue("object", object.getMetadata().getName())
                    .log("ignoring malformed {} annotation: {}", OVERRIDE_ANNOTATION, e.getMessage());
        }
    }

    private Future<Void> followVerdicts(Map<org.apache.kafka.common.TopicPartition, Long> ends) {
        Map<String, String> config = new HashMap<>(settings.kafka().asMap());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "mcdhooks-gatekeeper-" + settings.cluster());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        verdicts = KafkaConsumer.create(vertx, config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        Map<String, String> producerConfig = new HashMap<>(settings.kafka().asMap());
        producerConfig.put("acks", "all");
        producerConfig.put("enable.idempotence", "true");
        deadLetters = KafkaProducer.create(vertx, producerConfig, new ByteArraySerializer(), new ByteArraySerializer());
        verdicts.handler(record -> onVerdictRecord(record.record()));
        verdicts.exceptionHandler(e -> LOG.warn("verdict consumer: {}", e.getMessage()));
        return verdicts.partitionsFor(settings.verdictsTopic()).compose(infos -> {
            Set<TopicPartition> partitions = new HashSet<>();
            infos.forEach(i -> partitions.add(new TopicPartition(i.getTopic(), i.getPartition())));
            return verdicts.assign(partitions).compose(v -> {
                List<Future<Void>> seeks = new ArrayList<>();
                for (TopicPartition tp : partitions) {
                    Long end = ends.get(new org.apache.kafka.common.TopicPartition(tp.getTopic(), tp.getPartition()));
                    if (end != null) {
                        seeks.add(verdicts.seek(tp, end));
                    }
                }
                return Future.all(seeks).mapEmpty();
            });
        });
    }

    private void onVerdictRecord(ConsumerRecord<byte[], byte[]> record) {
        verdictRecords++;
        try {
            judge(record);
        } catch (RuntimeException e) {
            // Nothing a record holds may stop the consumer; what cannot be judged is refused.
            deadLetter(record, "PROCESSING_ERROR", "cannot process: " + e);
        }
    }

    private void judge(ConsumerRecord<byte[], byte[]> record) {
        String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        Message message;
        String jws;
        try {
            CloudEventsKafka.Received received = cloudEvents.fromRecord(key, record.headers(), record.value());
            message = received.message();
            jws = received.jws();
        } catch (InvalidMessageException e) {
            deadLetter(record, e.reason().name(), e.getMessage());
            return;
        }
        if (!(message instanceof Verdict verdict)) {
            deadLetter(record, "UNEXPECTED_KIND", "a " + message.kind() + " on the verdicts topic");
            return;
        }
        if (!settings.cluster().equals(verdict.cluster())) {
            return; // another cluster's gate: one Kafka serves a fleet
        }
        String refused = signatureProblem(verdict, jws);
        if (refused != null) {
            deadLetter(
                    record,
                    refused,
                    "verdict of " + verdict.hook() + " on " + verdict.gateId() + " refused: " + refused);
            LOG.atWarn()
                    .addKeyValue("hook", verdict.hook())
                    .addKeyValue("gate", verdict.gateId())
                    .log("verdict refused: {}", refused);
            vertx.executeBlocking(
                    () -> {
                        GateEvents.rejected(client, verdict, refused);
                        return null;
                    },
                    false);
            return;
        }
        VerdictFate fate = gatekeeper.onVerdict(verdict);
        Gate gate = gatekeeper.gate(verdict.gateId());
        metrics.verdict(verdict, fate, gate == null ? null : gate.openedAt(), clock.instant());
        if (fate == VerdictFate.UNKNOWN_GATE) {
            deadLetter(record, fate.name(), "no gate " + verdict.gateId() + " is known to this gatekeeper");
        } else if (fate != VerdictFate.ACCEPTED) {
            LOG.atDebug()
                    .addKeyValue("gate", verdict.gateId())
                    .addKeyValue("hook", verdict.hook())
                    .log("verdict ignored: {}", fate);
        }
    }

    private void deadLetter(ConsumerRecord<byte[], byte[]> record, String reason, String error) {
        deadLettered++;
        metrics.deadLetter(reason);
        var letter = DeadLetters.of(record, settings.deadLetterTopic(), "gatekeeper", reason, error);
        KafkaProducerRecord<byte[], byte[]> out =
                KafkaProducerRecord.create(letter.topic(), letter.key(), letter.value());
        letter.headers().forEach(h -> out.addHeader(h.key(), Buffer.buffer(h.value())));
        deadLetters
                .send(out)
                .onFailure(e -> LOG.atError()
                        .addKeyValue("topic", record.topic())
                        .addKeyValue("offset", record.offset())
                        .log("could not dead-letter a refused record: {}", e.getMessage()));
        // Debug only: a flood of garbage must not flood the log; the metric and the topic keep count.
        LOG.atDebug()
                .addKeyValue("topic", record.topic())
                .addKeyValue("partition", record.partition())
                .addKeyValue("offset", record.offset())
                .log("refused: {}", error);
    }

    private <T> Future<Void> start(SharedIndexInformer<T> informer) {
        informers.add(informer);
        return Future.fromCompletionStage(informer.start(), context);
    }
}
