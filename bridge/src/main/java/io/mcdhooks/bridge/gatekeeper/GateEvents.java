package io.mcdhooks.bridge.gatekeeper;

import io.mcdhooks.bridge.gate.Gate;
import io.mcdhooks.bridge.gate.GatePodHealth;
import io.mcdhooks.bridge.gate.HoldLimits;
import io.mcdhooks.bridge.gate.PoolSchedules;
import io.mcdhooks.bridge.gate.PostUpdateHold;
import io.mcdhooks.bridge.gate.RefusalEvents;
import io.mcdhooks.bridge.gate.WhyHeld;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.Verdict;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records gate decisions as Kubernetes Events on the Node (or the MachineConfigPool for pool
 * gates), naming the hooks that hold it and why, where {@code oc describe} shows them; and refused
 * verdicts as Warning Events. An Event is recorded when what the gate is changes (opened, blocked,
 * released...), not for every verdict that only moves a hook's state: with 20 hooks that would be
 * 20 Events a gate. Confined to the gatekeeper's event loop; writes on its worker pool.
 */
public final class GateEvents {

    /** The annotation overrides used to be, before GateOverride objects. */
    static final String LEGACY_OVERRIDE = "mcdhooks.io/override";

    private static final Logger LOG = LoggerFactory.getLogger(GateEvents.class);

    private final EventWriter writer;
    private final Clock clock;
    /** The last decision of each open gate an Event was recorded for, as "DECISION/released". */
    private final Map<String, String> recorded = new HashMap<>();
    /** Gate pods reported stuck and not running since, by node. */
    private final Map<String, String> gatePodsReported = new HashMap<>();
    /** Per "node/<name>" or "pool/<name>", the ignored override annotation last answered with an Event. */
    private final Map<String, String> warnedLegacy = new HashMap<>();

    private final RefusalEvents refusals = new RefusalEvents();

    GateEvents(EventWriter writer, Clock clock) {
        this.writer = writer;
        this.clock = clock;
    }

    private static String reason(GateDecision decision) {
        return switch (decision.decision()) {
            case OPENED -> "GateOpened";
            case RELEASED -> "GateReleased";
            case BLOCKED -> "GateBlocked";
            case TIMED_OUT -> decision.released() ? "GateTimedOutIgnored" : "GateTimedOut";
            case OVERRIDDEN -> "GateOverridden";
        };
    }

    /** A decision on Kafka: an Event if what the gate is changed. */
    void decided(GateDecision decision) {
        String kind = decision.decision() + "/" + decision.released();
        boolean changed = !kind.equals(recorded.put(decision.gateId(), kind));
        if (decision.released()) {
            recorded.remove(decision.gateId());
        }
        if (!changed) {
            return;
        }
        boolean warning = !decision.released() && decision.decision() != GateDecision.Decision.OPENED;
        String message = decision.stage() + " gate " + decision.gateId() + " (attempt " + decision.attempt() + "): "
                + WhyHeld.of(decision);
        write(
                decision.node(),
                decision.pool(),
                reason(decision),
                warning ? "Warning" : "Normal",
                message,
                decision.decidedAt(),
                decision.gateId());
    }

    /**
     * A gate pod's state, null when it holds (or is gone): a Warning Event {@code GatePodNotRunning}
     * on the Node when it is stuck (an image that cannot be pulled…), once per cause, since until it
     * runs the drain is not held and the pool stays paused.
     */
    void gatePod(String node, String whyNotHolding) {
        if (!GatePodHealth.stuck(whyNotHolding)) {
            if (whyNotHolding == null) {
                gatePodsReported.remove(node);
            }
            return;
        }
        // Once while it stays stuck: the kubelet flips between ErrImagePull and ImagePullBackOff.
        if (gatePodsReported.put(node, whyNotHolding) != null) {
            return;
        }
        write(
                node,
                null,
                "GatePodNotRunning",
                "Warning",
                "the gate pod of " + node + " does not run (" + whyNotHolding + "): a Pending pod is evicted"
                        + " without its budget, so the pool stays paused until it runs",
                clock.instant(),
                node);
    }

    /** How post-update gates hold in {@code pool} now: a Warning Event for anything but the cluster's own hold. */
    void holdMode(String pool, PostUpdateHold mode) {
        boolean warning = mode != PostUpdateHold.ADMISSION;
        String reason = switch (mode) {
            case ADMISSION -> "PostUpdateHoldEnforced";
            case BATCH_PACING -> "PostUpdateHoldFallback";
            case SINGLE_NODE -> "PostUpdateHoldAdvisory";
        };
        write(
                null,
                pool,
                reason,
                warning ? "Warning" : "Normal",
                "post-update gates are " + mode.description(),
                clock.instant(),
                pool);
    }

    /**
     * A pool's schedule opened, closed or cannot be read: a Normal Event for the first two (what
     * a rollout waits for is not a fault), a Warning for the last.
     */
    void schedule(PoolSchedules.Change change) {
        String reason = switch (change.state()) {
            case OPEN, PAUSING -> "UpdateWindowOpened";
            case CLOSED -> "UpdateWindowClosed";
            case INVALID -> "UpdateScheduleInvalid";
        };
        String consequence = switch (change.state()) {
            case OPEN, PAUSING -> ": the pool takes new nodes into an update";
            case CLOSED -> ": nodes already updating finish, no new node starts";
            case INVALID -> ": the pool takes no new node until the annotation is fixed";
        };
        write(
                null,
                change.pool(),
                reason,
                change.state() == PoolSchedules.State.INVALID ? "Warning" : "Normal",
                change.description() + consequence,
                clock.instant(),
                change.pool());
    }

    /** A held node nears the MCD's limit on what the hold stops (10 min uncordon, 1 h drain). */
    void nearLimit(HoldLimits.Near near) {
        String reason = near.limit().equals(HoldLimits.UNCORDON) ? "HoldNearUncordonLimit" : "HoldNearDrainLimit";
        String what = near.limit().equals(HoldLimits.UNCORDON)
                ? "the MCD reports FailedToUncordon and the node Degraded (it recovers once released)"
                : "the MCD reports FailedToDrain and the node Degraded (it recovers once released)";
        write(
                near.node(),
                near.pool(),
                reason,
                "Warning",
                "gate " + near.gateId() + " has held this node for "
                        + near.held().toSeconds() + " s; in "
                        + Math.max(0, near.left().toSeconds()) + " s " + what
                        + ". Fix what the hook reports, or override the gate.",
                clock.instant(),
                near.gateId());
    }

    /**
     * A post-update hold was moved off the MCD's uncordon handshake ({@code LeverPlan.handsOver}):
     * Normal, as the hold itself goes on; the gate's own decision says why it holds.
     */
    void handedOver(NodeView node, String pool, Gate gate, Duration held) {
        write(
                node.name(),
                pool,
                "HoldHandedOver",
                "Normal",
                "gate " + gate.id() + " held this node at the MCD's uncordon for " + held.toSeconds()
                        + " s, each refused try keeping one of the drain controller's workers busy: handed over to"
                        + " a cordon of the gatekeeper's once the MCD is done, the pool paused until then. The node"
                        + " stays out until the gate is released.",
                clock.instant(),
                gate.id());
    }

    /** A rollback decision on Kafka: an Event on the pool, a Warning where the pool is held instead. */
    void rollback(GateDecision decision) {
        GateDecision.Rollback rollback = decision.rollback();
        String state = rollback.state().name();
        boolean held = rollback.state() == GateDecision.RollbackState.REFUSED
                || rollback.state() == GateDecision.RollbackState.ADVISORY
                || rollback.state() == GateDecision.RollbackState.STOPPED;
        writer.write(
                null,
                decision.pool(),
                "Rollback" + state.charAt(0) + state.substring(1).toLowerCase(),
                held ? "Warning" : "Normal",
                "post-update gate " + decision.gateId() + " failed (" + String.join(", ", decision.blockingHooks())
                        + "): " + rollback.message(),
                decision.decidedAt(),
                decision.gateId(),
                1);
    }

    /**
     * Overrides by annotation are gone (anyone who could annotate a Node could release any gate):
     * one found on a Node or pool changes nothing, and is answered once per value with a Warning
     * Event on that object saying what to use instead.
     */
    void legacyOverride(String node, String pool, Map<String, String> annotations) {
        String value = annotations == null ? null : annotations.get(LEGACY_OVERRIDE);
        String object = node != null ? "node/" + node : "pool/" + pool;
        if (value == null) {
            warnedLegacy.remove(object);
            return;
        }
        if (value.equals(warnedLegacy.put(object, value))) {
            return;
        }
        LOG.atWarn().addKeyValue("object", object).log("ignoring the {} annotation", LEGACY_OVERRIDE);
        write(
                node,
                pool,
                "OverrideAnnotationIgnored",
                "Warning",
                "the " + LEGACY_OVERRIDE + " annotation is ignored: create a GateOverride in the gatekeeper's"
                        + " namespace instead (mcdhooks override --gate ... --release|--block --reason ...)",
                clock.instant(),
                object);
    }

    /**
     * A verdict refused for its signature or age, as a Warning Event on the gate's Node or pool:
     * at most one per hook and reason a minute ({@link RefusalEvents}), counting the others.
     */
    void refused(Verdict verdict, String reason) {
        RefusalEvents.Due due = refusals.refused(verdict, reason, clock.instant());
        if (due != null) {
            record(due);
        }
    }

    /** Lets time pass: the Events counting refusals of the last interval are written. */
    void tick() {
        refusals.due(clock.instant()).forEach(this::record);
    }

    private void record(RefusalEvents.Due due) {
        Verdict verdict = due.verdict();
        String what = due.count() == 1
                ? "a " + verdict.outcome() + " verdict claiming to be from " + verdict.hook()
                : due.count() + " verdicts claiming to be from " + verdict.hook() + " (the latest a "
                        + verdict.outcome() + ")";
        writer.write(
                verdict.node(),
                verdict.pool(),
                "VerdictRejected",
                "Warning",
                what + " on gate " + verdict.gateId() + " refused: " + due.reason(),
                clock.instant(),
                verdict.gateId(),
                due.count());
    }

    private void write(String node, String pool, String reason, String type, String message, Instant at, String gate) {
        writer.write(node, pool, reason, type, message, at, gate, 1);
    }
}
