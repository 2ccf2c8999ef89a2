package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.mcdhooks.bridge.gate.Gate;
import io.mcdhooks.bridge.gate.OverrideRequest;
import io.mcdhooks.bridge.gate.RegisteredHook;
import io.mcdhooks.bridge.rollback.ConfigSnapshot;
import io.mcdhooks.bridge.rollback.RollbackDecision;
import io.mcdhooks.bridge.rollback.RollbackPlan;
import io.mcdhooks.bridge.rollback.SnapshotTaker;
import io.mcdhooks.bridge.rollback.SourceConfig;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.RollbackState;
import io.mcdhooks.schemas.Stage;
import io.vertx.core.Future;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a failed post-update gate of a hook whose action is RollbackPool (or its advisory form)
 * with a pool rollback ({@link RollbackPlan}), once per pool and failing config whatever number of
 * nodes fail it, across restarts and lease handovers. Write-ahead: the rollback is on Kafka, as the
 * failed gate's decision with its {@code rollback} PLANNED, before the first MachineConfig is
 * written, and APPLIED once the last is; a new leader that reads back PLANNED without APPLIED
 * writes them again (the writes make the snapshot's state, whatever was there). An operator's
 * override stops a rollback (STOPPED: nothing more is written, and the pool is held paused while it
 * targets either config) or resumes it (PLANNED again, its writes made again). Confined to the
 * gatekeeper's event loop.
 */
final class PoolRollbacks {

    private static final Logger LOG = LoggerFactory.getLogger(PoolRollbacks.class);
    /** How long after a refused write a rollback's writes are tried again. */
    private static final Duration RETRY = Duration.ofSeconds(30);
    /** The reason of a rollback an operator stopped. */
    static final String STOPPED_BY_OPERATOR = "StoppedByOperator";

    /** Writes a rollback's MachineConfigs back as {@code previous} has them ({@link MachineConfigWrites}). */
    @FunctionalInterface
    interface Writes {
        Future<Void> write(List<GateDecision.RollbackStep> steps, ConfigSnapshot previous);
    }

    /** What the coordinator reads of the cluster and of the gatekeeper. */
    record Sources(
            Supplier<Collection<RegisteredHook>> hooks,
            Function<String, Gate> gates,
            BiFunction<String, String, Optional<ConfigSnapshot>> snapshots,
            Function<String, GenericKubernetesResource> machineConfigs) {}

    private final boolean carriesOut;
    private final Sources sources;
    private final Function<GateDecision, Future<Void>> publish;
    private final Writes writes;
    private final Consumer<GateDecision> announce;
    private final Clock clock;
    /** The latest rollback decision on Kafka of each pool and failing config, as "pool/config". */
    private final Map<String, GateDecision> rollbacks = new HashMap<>();
    /** Rollback decisions on their way to Kafka: nothing is written for them before they are on it. */
    private final Set<String> publishing = new HashSet<>();
    /** Rollbacks whose writes are under way. */
    private final Set<String> writing = new HashSet<>();
    /** When a rollback whose writes failed is tried again. */
    private final Map<String, Instant> retryAt = new HashMap<>();
    /** Failed post-update gates read back, judged once the cluster is known ({@link #follow}). */
    private final List<GateDecision> readBackFailures = new ArrayList<>();

    private boolean following;

    /**
     * @param carriesOut MCDHOOKS_ROLLBACK: whether rollbacks are carried out, or only reported
     * @param publish    publishes a decision; completes once Kafka acknowledged it
     * @param announce   hears each rollback decision once it is on Kafka (the Events)
     */
    PoolRollbacks(
            boolean carriesOut,
            Sources sources,
            Function<GateDecision, Future<Void>> publish,
            Writes writes,
            Consumer<GateDecision> announce,
            Clock clock) {
        this.carriesOut = carriesOut;
        this.sources = sources;
        this.publish = publish;
        this.writes = writes;
        this.announce = announce;
        this.clock = clock;
    }

    /**
     * The rollbacks read back: the latest of each pool and failing config; and the gates whose
     * latest decision read back is a failure, for {@link #follow} to start a rollback the last
     * leader may have died before recording.
     */
    void recover(List<GateDecision> decisions) {
        Map<String, GateDecision> latestByGate = new HashMap<>();
        for (GateDecision d : decisions) {
            if (d.rollback() != null) {
                rollbacks.merge(key(d), d, PoolRollbacks::later);
            }
            latestByGate.merge(d.gateId() + "#" + d.attempt(), d, PoolRollbacks::later);
        }
        latestByGate.values().stream().filter(PoolRollbacks::failedAfterUpdate).forEach(readBackFailures::add);
    }

    /**
     * The cluster is known: a failure read back whose rollback never reached Kafka (the leader died
     * between the two) starts it now; a rollback read back as planned, and not applied, is carried
     * out again.
     */
    void follow() {
        following = true;
        List<GateDecision> failures = List.copyOf(readBackFailures);
        readBackFailures.clear();
        for (GateDecision failure : failures) {
            Gate gate = sources.gates().apply(failure.gateId());
            // Only a gate still open: one released or forgotten since has nothing left to roll back.
            if (gate != null && !gate.released()) {
                decided(failure);
            }
        }
        Instant now = clock.instant();
        rollbacks.values().stream()
                .filter(d -> d.rollback().state() == RollbackState.PLANNED)
                .filter(d -> !publishing.contains(key(d)))
                .filter(d -> !now.isBefore(retryAt.getOrDefault(key(d), Instant.MIN)))
                .toList()
                .forEach(this::carryOut);
    }

    /** Lets time pass: a rollback whose writes failed is tried again. */
    void tick() {
        if (following) {
            follow();
        }
    }

    /** A decision on Kafka: a rollback if it is a failed post-update gate of a rolling-back hook. */
    void decided(GateDecision decision) {
        if (!failedAfterUpdate(decision)
                || decision.rollback() != null
                || rollbacks.containsKey(key(decision))
                || publishing.contains(key(decision))) {
            return;
        }
        Set<RegisteredHook.PostUpdateFailure> actions = new HashSet<>();
        for (RegisteredHook hook : sources.hooks().get()) {
            if (decision.blockingHooks().contains(hook.name())
                    && hook.onPostUpdateFailure().rollsBack()) {
                actions.add(hook.onPostUpdateFailure());
            }
        }
        if (actions.isEmpty()) {
            return;
        }
        RollbackDecision.Mode mode = !actions.contains(RegisteredHook.PostUpdateFailure.RollbackPool)
                ? RollbackDecision.Mode.ADVISORY
                : carriesOut ? RollbackDecision.Mode.CARRY_OUT : RollbackDecision.Mode.NOT_ENABLED;
        Gate gate = sources.gates().apply(decision.gateId());
        String from = decision.targetConfig();
        String to = gate == null ? null : gate.request().currentConfig();
        GateDecision.Rollback rollback = RollbackDecision.of(plan(decision.pool(), from, to), from, to, mode);
        record(decision.withRollback(rollback, clock.instant()));
    }

    private RollbackPlan plan(String pool, String from, String to) {
        if (to == null || to.equals(from)) {
            return new RollbackPlan.Refused(
                    RollbackPlan.Reason.NoSnapshot, "the config the node came from before " + from + " is not known");
        }
        ConfigSnapshot previous = sources.snapshots().apply(pool, to).orElse(null);
        // What the failing config was made of: recorded when the pool first targeted it
        List<String> failingSources = sources.snapshots()
                .apply(pool, from)
                .map(s -> s.sources().stream().map(SourceConfig::name).toList())
                .orElse(List.of());
        Set<String> names = new LinkedHashSet<>(failingSources);
        if (previous != null) {
            previous.sources().forEach(s -> names.add(s.name()));
        }
        Map<String, SourceConfig> current = new HashMap<>();
        for (String name : names) {
            GenericKubernetesResource mc = sources.machineConfigs().apply(name);
            if (mc != null) {
                current.put(name, SnapshotTaker.source(mc));
            }
        }
        if (previous != null && failingSources.isEmpty()) {
            return new RollbackPlan.Refused(
                    RollbackPlan.Reason.NoSnapshot, "no snapshot of what " + from + " was made of was recorded");
        }
        return RollbackPlan.of(previous, from, failingSources, current);
    }

    /** Publishes {@code decision}; once on Kafka, says so in an Event, and carries it out if planned. */
    private void record(GateDecision decision) {
        String key = key(decision);
        publishing.add(key);
        GateDecision.Rollback rollback = decision.rollback();
        LOG.atInfo()
                .addKeyValue("gate", decision.gateId())
                .addKeyValue("rollback", rollback.state())
                .log("{}", rollback.message());
        publish.apply(decision).onSuccess(v -> {
            publishing.remove(key);
            rollbacks.put(key, decision);
            announce.accept(decision);
            if (rollback.state() == RollbackState.PLANNED && following) {
                carryOut(decision);
            }
        });
    }

    private void carryOut(GateDecision planned) {
        String key = key(planned);
        if (!writing.add(key)) {
            return;
        }
        GateDecision.Rollback rollback = planned.rollback();
        Optional<ConfigSnapshot> previous = sources.snapshots().apply(planned.pool(), rollback.to());
        if (previous.isEmpty()) {
            // Planned from this snapshot, it was let go since: nothing to write back from.
            writing.remove(key);
            record(planned.withRollback(
                    new GateDecision.Rollback(
                            RollbackState.REFUSED,
                            rollback.from(),
                            rollback.to(),
                            RollbackPlan.Reason.NoSnapshot.name(),
                            "the snapshot of " + rollback.to() + " is gone; the pool is held paused instead",
                            List.of()),
                    clock.instant()));
            return;
        }
        writes.write(rollback.steps(), previous.get()).onComplete(done -> {
            writing.remove(key);
            if (done.succeeded()) {
                retryAt.remove(key);
                record(planned.withRollback(RollbackDecision.applied(rollback), clock.instant()));
            } else {
                // Tried again later: the decision stays PLANNED, the pool held paused meanwhile.
                retryAt.put(key, clock.instant().plus(RETRY));
                LOG.atError()
                        .addKeyValue("gate", planned.gateId())
                        .setCause(done.cause())
                        .log(
                                "cannot write a rollback's MachineConfigs ({})",
                                done.cause().getClass().getSimpleName());
            }
        });
    }

    /**
     * An operator's StopRollback or ResumeRollback of the rollback that {@code request}'s gate (or
     * another node's gate of the same pool and config) started. The new state is on Kafka before
     * anything follows from it: a resume's writes, a stop's pause.
     */
    OverrideRequest.Outcome onOverride(OverrideRequest request) {
        String key = rollbackKey(request.gateId());
        if (key != null && (publishing.contains(key) || writing.contains(key))) {
            return OverrideRequest.Outcome.BUSY;
        }
        GateDecision latest = key == null ? null : rollbacks.get(key);
        if (latest == null) {
            return OverrideRequest.Outcome.NO_ROLLBACK;
        }
        GateDecision.Rollback rollback = latest.rollback();
        RollbackState state = rollback.state();
        boolean stop = request.action() == OverrideRequest.Action.STOP_ROLLBACK;
        if (state == RollbackState.REFUSED || state == RollbackState.ADVISORY) {
            return OverrideRequest.Outcome.NOT_STOPPABLE;
        }
        if (stop == (state == RollbackState.STOPPED)) {
            return OverrideRequest.Outcome.UNCHANGED;
        }
        if (!stop && !carriesOut) {
            return OverrideRequest.Outcome.NOT_STOPPABLE;
        }
        String by = request.by() + " (" + request.reason() + ")";
        GateDecision.Rollback next = stop
                ? new GateDecision.Rollback(
                        RollbackState.STOPPED,
                        rollback.from(),
                        rollback.to(),
                        STOPPED_BY_OPERATOR,
                        "stopped by " + by
                                + (state == RollbackState.APPLIED
                                        ? ": the MachineConfigs stay as restored, and the pool is held paused where it is"
                                        : ": nothing was written, and the pool is held paused on " + rollback.from()),
                        rollback.steps())
                : new GateDecision.Rollback(
                        RollbackState.PLANNED,
                        rollback.from(),
                        rollback.to(),
                        null,
                        "resumed by " + by + ": the pool goes back to " + rollback.to(),
                        rollback.steps());
        retryAt.remove(key);
        LOG.atWarn()
                .addKeyValue("gate", request.gateId())
                .addKeyValue("by", request.by())
                .log("operator override: {} ({})", request.action().wire(), request.reason());
        record(latest.withRollback(next, clock.instant()));
        return OverrideRequest.Outcome.APPLIED;
    }

    /**
     * Whether a stopped rollback holds {@code pool} paused: while the pool targets the config that
     * failed or the one it was going back to. Once it targets another (an administrator fixed the
     * change forward), the stop holds nothing more.
     */
    boolean holdsPaused(String pool, String targetConfig) {
        return targetConfig != null
                && rollbacks.values().stream()
                        .filter(d -> d.pool().equals(pool) && d.rollback().state() == RollbackState.STOPPED)
                        .anyMatch(d -> targetConfig.equals(d.rollback().from())
                                || targetConfig.equals(d.rollback().to()));
    }

    /** The latest rollback decision on Kafka of each pool, by pool name. */
    Map<String, GateDecision> latestByPool() {
        Map<String, GateDecision> latest = new TreeMap<>();
        for (GateDecision d : rollbacks.values()) {
            latest.merge(d.pool(), d, (a, b) -> b.decidedAt().isBefore(a.decidedAt()) ? a : b);
        }
        return latest;
    }

    /**
     * The key of the rollback the failure of gate {@code gateId} started, or would start (that of
     * any node's post-update gate of the same pool and config); {@code null} if not such a gate.
     */
    private String rollbackKey(String gateId) {
        for (GateDecision d : rollbacks.values()) {
            if (d.gateId().equals(gateId)) {
                return key(d);
            }
        }
        Gate gate = sources.gates().apply(gateId);
        if (gate == null || gate.request().stage() != Stage.POST_UPDATE) {
            return null;
        }
        return gate.request().pool().name() + "/" + gate.request().targetConfig();
    }

    /** A post-update gate that failed and holds: blocked, or timed out with failurePolicy Fail. */
    private static boolean failedAfterUpdate(GateDecision decision) {
        return decision.stage() == Stage.POST_UPDATE
                && !decision.released()
                && (decision.decision() == GateDecision.Decision.BLOCKED
                        || decision.decision() == GateDecision.Decision.TIMED_OUT);
    }

    private static GateDecision later(GateDecision a, GateDecision b) {
        return b.decidedAt().isBefore(a.decidedAt()) ? a : b;
    }

    private static String key(GateDecision decision) {
        return decision.pool() + "/" + decision.targetConfig();
    }
}
