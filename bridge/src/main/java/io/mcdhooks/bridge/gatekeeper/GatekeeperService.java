package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.ClusterListener;
import io.mcdhooks.bridge.GatePolicy;
import io.mcdhooks.bridge.gate.AckedGates;
import io.mcdhooks.bridge.gate.Gatekeeper;
import io.mcdhooks.bridge.gate.PoolSchedules;
import io.mcdhooks.bridge.gate.PostUpdateHold;
import io.mcdhooks.bridge.gate.RegisteredHook;
import io.mcdhooks.bridge.gate.VerdictRecord;
import io.mcdhooks.bridge.gate.VerdictScreen;
import io.mcdhooks.bridge.lag.LagStatus;
import io.mcdhooks.bridge.metrics.BridgeMetrics;
import io.mcdhooks.bridge.publish.Outbox;
import io.mcdhooks.bridge.publish.PublishedLog;
import io.mcdhooks.bridge.publish.RecordSender;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gatekeeper inside the bridge: its pure core ({@link Gatekeeper}, {@link VerdictScreen},
 * {@link AckedGates}) wired to its adapters, and the lifecycle and timers. In: UpdateHooks
 * ({@link HookRegistry}), gate requests and cluster changes from the bridge, verdicts
 * ({@link VerdictLog}), overrides ({@link GateOverrides}), the passing of time. Out: decisions, to Kafka
 * before anything else ({@link DecisionSink}); levers ({@link LeverReconciler}); Events
 * ({@link GateEvents}); refused records ({@link DeadLetterSink}); hook statuses
 * ({@link HookStatusWriter}). Runs on the bridge verticle's event loop, which owns all its state;
 * blocking fabric8 calls go to one worker pool, {@value #KUBE_POOL}.
 */
public final class GatekeeperService implements ClusterListener {

    /** The worker pool of every blocking Kubernetes call the gatekeeper makes. */
    public static final String KUBE_POOL = "mcdhooks-kube";

    private static final Logger LOG = LoggerFactory.getLogger(GatekeeperService.class);
    private static final int KUBE_POOL_SIZE = 8;
    private static final Duration STATUS_PERIOD = Duration.ofSeconds(2);
    /** How often holds are compared with the MCO's limits: minutes ahead of them, so seconds suffice. */
    private static final Duration LIMITS_PERIOD = Duration.ofSeconds(10);
    /** Released gates are forgotten this long after they opened: nothing can change them any more. */
    private static final Duration FORGET_AFTER = Duration.ofHours(6);

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
            int lagWindow,
            Duration verdictClockSkew,
            Duration uncordonHandover,
            boolean rollback) {}

    private final Vertx vertx;
    private final Settings settings;
    private final BridgeMetrics metrics;
    private final Clock clock;
    private final WorkerExecutor kube;
    private final Gatekeeper gatekeeper;
    private final AckedGates acked;
    private final VerdictScreen screen;
    private final Levers levers;
    private final LeverReconciler reconciler;
    private final ScheduleReporter scheduleReporter;
    private final DecisionSink decisions;
    private final GateEvents events;
    private final HookStatusWriter statuses;
    private final HookRegistry hooks;
    private final DeadLetterSink deadLetters;
    private final HookLagSampler lag;
    private final HoldPolicy holdPolicy;
    private final HoldReporter holdReporter;
    private final GateOverrides overrides;
    private final PoolRollbacks rollbacks;
    private final List<Long> timers = new ArrayList<>();
    /** The verdicts topic, followed from {@link #follow} on. */
    private VerdictLog verdicts;

    private final VerdictIntake intake;

    /**
     * A gatekeeper acting on {@code client}'s cluster, publishing its decisions through the
     * bridge's {@code outbox} and its dead letters through the bridge's record {@code sender}.
     */
    public GatekeeperService(
            Vertx vertx,
            Context context,
            KubernetesClient client,
            Settings settings,
            Cluster cluster,
            Outbox outbox,
            RecordSender sender,
            BridgeMetrics metrics,
            Clock clock) {
        this.vertx = vertx;
        this.settings = settings;
        this.metrics = metrics;
        this.clock = clock;
        this.kube = vertx.createSharedWorkerExecutor(KUBE_POOL, KUBE_POOL_SIZE);
        this.gatekeeper = new Gatekeeper(settings.cluster(), clock, this::decided);
        this.acked = new AckedGates(gatekeeper);
        this.levers = new LeverActuator(client, kube, context, settings.namespace(), settings.pauseImage());
        this.holdPolicy = new HoldPolicy(client, kube, context);
        PoolSchedules schedules = new PoolSchedules();
        this.events = new GateEvents(new EventWriter(client, kube), clock);
        this.rollbacks = new PoolRollbacks(
                settings.rollback(),
                new PoolRollbacks.Sources(
                        gatekeeper::hooks, gatekeeper::gate, cluster::snapshot, cluster::machineConfig),
                DecisionSink.through(outbox),
                new MachineConfigWrites(client, kube),
                this::rollbackDecided,
                clock);
        this.reconciler = new LeverReconciler(
                settings.cluster(),
                cluster,
                gatekeeper,
                acked,
                levers,
                context,
                holdPolicy::mode,
                schedules,
                settings.uncordonHandover(),
                (node, gate) -> events.handedOver(
                        node, cluster.poolOf(node), gate, Duration.between(gate.openedAt(), clock.instant())),
                rollbacks::holdsPaused,
                clock);
        this.scheduleReporter = new ScheduleReporter(cluster, schedules, events, metrics, clock);
        this.holdReporter =
                new HoldReporter(settings.cluster(), cluster, acked::gate, gatekeeper::hooks, events, metrics, clock);
        this.decisions = new DecisionSink(
                DecisionSink.through(outbox),
                acked,
                reconciler::decided,
                List.of(reconciler::decided, events::decided, rollbacks::decided));
        this.statuses = new HookStatusWriter(client, kube);
        this.hooks =
                new HookRegistry(client, context, settings.namespace(), gatekeeper, statuses, reconciler::everything);
        this.screen = new VerdictScreen(
                settings.cluster(),
                new CloudEventsKafka(new MessageCodec()),
                gatekeeper::gate,
                hooks::keys,
                clock,
                settings.verdictClockSkew());
        this.deadLetters = new DeadLetterSink(sender, settings.deadLetterTopic(), metrics);
        this.intake = new VerdictIntake(screen, gatekeeper, deadLetters, events, metrics, clock);
        hooks.onKeysChanged(intake::keysChanged);
        this.lag = new HookLagSampler(vertx, settings, metrics, clock);
        this.overrides = new GateOverrides(
                client, kube, context, settings.namespace(), gatekeeper, rollbacks::onOverride, clock);
    }

    public Gatekeeper gatekeeper() {
        return gatekeeper;
    }

    /** Which gates the bridge requests, and how long their requests stand: what the hooks registered now ask. */
    public GatePolicy policy() {
        return GatePolicy.of(gatekeeper);
    }

    /** Whether each pool takes new nodes by its update windows and pause, now. */
    public Map<String, PoolSchedules.Status> schedules() {
        return scheduleReporter.statuses();
    }

    /** How post-update gates hold on this cluster now. */
    public PostUpdateHold postUpdateHold() {
        return holdPolicy.mode();
    }

    /** Each registered hook's lag state, as last sampled. */
    public Map<String, LagStatus> lag() {
        return lag.latest();
    }

    /** Verdicts and other records refused so far. */
    public long deadLettered() {
        return deadLetters.sent();
    }

    /** Records taken from the verdicts topic so far, whatever became of them. */
    public long verdictRecords() {
        return intake.records();
    }

    /** Watches UpdateHooks, and the gate pods and budgets in its namespace; completes once synced. */
    @Override
    public Future<Void> startWatching() {
        return Future.all(hooks.start(), levers.watch(this::gateObjectChanged), holdPolicy.start(this::holdChanged))
                .mapEmpty();
    }

    /**
     * Rebuilds the gates from what Kafka holds. Called before the node and pool informers start:
     * levers planned without the gates could lift a cordon a held gate needs.
     */
    @Override
    public void recover(List<PublishedLog.Recovered> recovered) {
        List<Message> messages = new ArrayList<>();
        List<VerdictRecord> verdictRecords = new ArrayList<>();
        for (PublishedLog.Recovered r : recovered) {
            if (r.message() instanceof Verdict) {
                verdictRecords.add(r.record());
            } else {
                messages.add(r.message());
            }
        }
        Gatekeeper.Recovery recovery = gatekeeper.recover(messages, verdictRecords, screen::screen);
        recovery.standing().forEach(acked::acknowledged);
        rollbacks.recover(messages.stream()
                .filter(GateDecision.class::isInstance)
                .map(GateDecision.class::cast)
                .toList());
        // Each was dead-lettered when it arrived; said once more here, not sent twice.
        recovery.refused().stream()
                .filter(r -> r.suspect() != null)
                .forEach(r -> LOG.atWarn().log("verdict read back refused again: {}", r.error()));
        LOG.atInfo()
                .addKeyValue("gates", gatekeeper.gates().size())
                .addKeyValue("verdicts", verdictRecords.size())
                .addKeyValue("refused", recovery.refused().size())
                .log("gates rebuilt from Kafka");
    }

    /**
     * Once the cluster's objects are known: pulls every lever to where the gates say, lets time
     * pass for deadlines, and follows the verdicts topic from {@code ends} (where recovery stopped).
     */
    @Override
    public Future<Void> follow(Map<TopicPartition, Long> ends) {
        startPlanning();
        rollbacks.follow();
        holdReporter.modeChanged(holdPolicy.mode());
        timers.add(vertx.setPeriodic(LIMITS_PERIOD.toMillis(), t -> holdReporter.report(holdPolicy.mode())));
        timers.add(vertx.setPeriodic(settings.tick().toMillis(), t -> {
            gatekeeper.tick();
            scheduleReporter.tick();
            reconciler.tick();
            intake.tick();
            events.tick();
            rollbacks.tick();
            acked.forget(gatekeeper.forgetReleasedBefore(clock.instant().minus(FORGET_AFTER)));
        }));
        timers.add(vertx.setPeriodic(STATUS_PERIOD.toMillis(), t -> {
            statuses.writeAll(gatekeeper.hooks(), gatekeeper.gates(), lag.latest(), holdPolicy.mode());
            metrics.held(gatekeeper.heldByPool());
        }));
        lag.start(() -> gatekeeper.hooks().stream().map(RegisteredHook::name).toList());
        verdicts = KafkaVerdictLog.create(
                vertx, settings.kafka(), settings.verdictsTopic(), "mcdhooks-gatekeeper-" + settings.cluster());
        // Overrides only now: judged before the gates were rebuilt, each would name an unknown gate.
        // Not waited for: without them (no GateOverride CRD yet) gates still open and close.
        overrides
                .start()
                .onFailure(e -> LOG.atError()
                        .setCause(e)
                        .log("cannot watch GateOverrides: overrides wait until the CRD is installed"));
        return verdicts.follow(ends, intake::onRecord);
    }

    /** A rollback decision is on Kafka: its Event, and its pool's pause (a stopped rollback holds it). */
    private void rollbackDecided(GateDecision decision) {
        events.rollback(decision);
        reconciler.decided(decision);
    }

    /** The latest pool rollback of each pool, by pool name, as Kafka has it. */
    public Map<String, GateDecision> rollbacks() {
        return rollbacks.latestByPool();
    }

    /** A gate pod or budget came, went or changed state: the node's levers, and a report if its pod does not hold. */
    private void gateObjectChanged(String node) {
        Map<String, String> notHolding = levers.gatePodsNotHolding();
        events.gatePod(node, notHolding.get(node));
        metrics.gatePodsNotRunning(notHolding.size());
        reconciler.gateObjectChanged(node);
    }

    /** Gate pods that exist but do not hold their node's drain yet (not Running and Ready), by node, with why. */
    public Map<String, String> gatePodsNotHolding() {
        return levers.gatePodsNotHolding();
    }

    /** From here on levers are planned, every one at once now: the gates and the cluster are known. */
    void startPlanning() {
        reconciler.start();
    }

    @Override
    public Future<Void> stop() {
        timers.forEach(vertx::cancelTimer);
        hooks.stop();
        levers.stop();
        holdPolicy.stop();
        lag.stop();
        overrides.stop();
        Future<Void> consumer = verdicts == null ? Future.succeededFuture() : verdicts.close();
        return Future.join(consumer, kube.close()).mapEmpty();
    }

    @Override
    public void onGateRequest(GateRequest request) {
        gatekeeper.onGateRequest(request);
    }

    /** A node changed: its levers (and its pool's pause). */
    @Override
    public void onNode(Node node) {
        events.legacyOverride(
                node.getMetadata().getName(), null, node.getMetadata().getAnnotations());
        scheduleReporter.nodeChanged(node);
        reconciler.nodeChanged(node);
    }

    @Override
    public void onNodeDeleted(Node node) {
        scheduleReporter.nodeDeleted(node);
        reconciler.nodeDeleted(node);
    }

    @Override
    public void onPool(GenericKubernetesResource pool) {
        events.legacyOverride(
                null, pool.getMetadata().getName(), pool.getMetadata().getAnnotations());
        scheduleReporter.poolChanged(pool);
        reconciler.poolChanged(pool);
    }

    /** The admission policy came or went: every lever planned again for the new hold, and said. */
    private void holdChanged(PostUpdateHold before, PostUpdateHold after) {
        holdReporter.modeChanged(after);
        reconciler.everything();
    }

    /** Every decision that changed, as the gate machine makes it: counted, logged, then on to Kafka. */
    private void decided(GateDecision decision) {
        metrics.decision(decision);
        LOG.atInfo()
                .addKeyValue("gate", decision.gateId())
                .addKeyValue("decision", decision.decision())
                .log("{}", decision.summary());
        decisions.accept(decision);
    }
}
