package io.mcdhooks.bridge.gate;

import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.Decision;
import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateDecision.HookState;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The gate state machine: pure functions from a gate and an input (a verdict, the passing of
 * time, an override) to the gate after it and, when the decision changed, the decision to publish.
 *
 * <p>Rules:
 * <ul>
 * <li>The hooks a gate waits on are snapshotted when it opens; later registrations do not join,
 *     and a hook deleted while the gate waits is still waited on (deleting a hook must not be a
 *     way to open gates: an override is).
 * <li>Per hook the verdict produced last counts, until the gate is released; a FAIL may be
 *     followed by a PASS of the same attempt. Older or repeated verdicts change nothing.
 * <li>Any enforcing FAIL blocks. An enforcing hook without a final verdict past its deadline has
 *     timed out: {@code Fail} holds the gate, {@code Ignore} lets it pass, recorded. All enforcing
 *     hooks passed (or ignored) releases. PENDING pushes a hook's deadline to produce time plus
 *     its timeout, never beyond open time plus timeout plus its maximum extension.
 * <li>Advisory hooks are recorded and reported, and never hold a gate.
 * <li>An override decides alone: release (final) or block (until released by another override).
 * <li>Released is final: the gate is closed.
 * </ul>
 */
public final class GateMachine {

    private GateMachine() {}

    /**
     * What an input changed: the gate after it, what became of a verdict, and the decision to
     * publish if the decision changed ({@code null} if not).
     */
    public record Change(Gate gate, VerdictFate fate, GateDecision decision) {}

    /** Opens a gate for {@code request}, waiting on the registered hooks that apply to it. */
    public static Change open(GateRequest request, List<RegisteredHook> registered, Instant now) {
        Map<String, Gate.Slot> slots = new TreeMap<>();
        for (RegisteredHook hook : registered) {
            if (hook.appliesTo(request)) {
                slots.put(
                        hook.name(),
                        new Gate.Slot(
                                hook.name(),
                                hook.mode(),
                                hook.failurePolicy(),
                                hook.timeout(),
                                hook.maxExtension(),
                                hook.signed(),
                                hook.onPostUpdateFailure().pausesPool(),
                                now.plus(hook.timeout()),
                                null));
            }
        }
        Gate gate = new Gate(request, now, slots, null, false, null);
        return decide(gate, null, now, true);
    }

    /**
     * A gate as its latest published decision describes it: the hooks with their snapshotted
     * settings and deadlines, the override, whether it was released. Replaying the gate's
     * verdicts on top restores the latest verdict of each hook.
     */
    public static Gate restore(GateRequest request, GateDecision latest) {
        Map<String, Gate.Slot> slots = new TreeMap<>();
        for (GateDecision.HookStatus h : latest.hooks()) {
            slots.put(
                    h.hook(),
                    new Gate.Slot(
                            h.hook(),
                            h.mode() == null ? GateDecision.Mode.Enforcing : h.mode(),
                            h.failurePolicy() == null ? FailurePolicy.Fail : h.failurePolicy(),
                            Duration.ofSeconds(h.timeoutSeconds() == null ? 0 : h.timeoutSeconds()),
                            Duration.ofSeconds(h.maxExtensionSeconds() == null ? 0 : h.maxExtensionSeconds()),
                            Boolean.TRUE.equals(h.signed()),
                            Boolean.TRUE.equals(h.pausePool()),
                            h.deadline() == null ? latest.openedAt() : h.deadline(),
                            null));
        }
        Gate.Override override = latest.decision() == Decision.OVERRIDDEN && latest.override() != null
                ? new Gate.Override(
                        latest.released(),
                        latest.override().by(),
                        latest.override().reason(),
                        latest.decidedAt())
                : null;
        Instant opened = latest.openedAt() == null ? latest.decidedAt() : latest.openedAt();
        return new Gate(request, opened, slots, override, latest.released(), latest);
    }

    public static Change onVerdict(Gate gate, Verdict verdict, Instant now) {
        Change accepted = accept(gate, verdict, now);
        if (accepted.fate() != VerdictFate.ACCEPTED) {
            return accepted;
        }
        Change decided = decide(accepted.gate(), null, now, false);
        return new Change(decided.gate(), VerdictFate.ACCEPTED, decided.decision());
    }

    /**
     * Replays verdicts that reached a gate before a restart, then decides once: a decision only
     * if where the verdicts lead differs from the decision the gate was restored from.
     */
    public static Change replay(Gate restored, List<Verdict> verdicts, Instant now) {
        Gate gate = restored;
        for (Verdict verdict : verdicts) {
            gate = accept(gate, verdict, now).gate();
        }
        return decide(gate, null, now, false);
    }

    /** Takes a verdict into the gate's hooks, without deciding. */
    private static Change accept(Gate gate, Verdict verdict, Instant now) {
        GateRequest request = gate.request();
        if (verdict.attempt() != request.attempt()
                || verdict.stage() != request.stage()
                || !verdict.targetConfig().equals(request.targetConfig())
                || !verdict.pool().equals(request.pool().name())
                || !Objects.equals(
                        verdict.node(),
                        request.node() == null ? null : request.node().name())) {
            return new Change(gate, VerdictFate.STALE, null);
        }
        Gate.Slot slot = gate.hooks().get(verdict.hook());
        if (slot == null) {
            return new Change(gate, VerdictFate.UNKNOWN_HOOK, null);
        }
        if (gate.released()) {
            return new Change(gate, VerdictFate.CLOSED, null);
        }
        if (slot.latest() != null && !verdict.producedAt().isAfter(slot.latest().producedAt())) {
            return new Change(gate, VerdictFate.DUPLICATE, null);
        }
        Instant deadline = slot.deadline();
        if (verdict.outcome() == Outcome.PENDING) {
            // A heartbeat from the future must not buy time: count it from no later than now.
            Instant beat = verdict.producedAt().isAfter(now) ? now : verdict.producedAt();
            Instant cap = gate.openedAt().plus(slot.timeout()).plus(slot.maxExtension());
            Instant wanted = beat.plus(slot.timeout());
            deadline = latest(deadline, wanted.isAfter(cap) ? cap : wanted);
        }
        Map<String, Gate.Slot> slots = new TreeMap<>(gate.hooks());
        slots.put(slot.hook(), slot.withVerdict(verdict, deadline));
        return new Change(gate.with(slots, gate.override(), gate.released(), gate.last()), VerdictFate.ACCEPTED, null);
    }

    /** Time passed: deadlines may have come. */
    public static Change onTick(Gate gate, Instant now) {
        return decide(gate, null, now, false);
    }

    public static Change onOverride(Gate gate, Gate.Override override, Instant now) {
        if (gate.released()) {
            return new Change(gate, null, null);
        }
        return decide(gate.with(gate.hooks(), override, false, gate.last()), null, now, false);
    }

    /** The decision the gate stands at now, whether or not it changed. */
    public static GateDecision evaluate(Gate gate, Instant now) {
        List<GateDecision.HookStatus> statuses = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        List<String> timedOutHeld = new ArrayList<>();
        List<String> timedOutIgnored = new ArrayList<>();
        List<String> waiting = new ArrayList<>();
        for (Gate.Slot slot : gate.hooks().values()) {
            HookState state = stateOf(slot, now);
            statuses.add(status(slot, state));
            if (!slot.enforcing()) {
                continue;
            }
            switch (state) {
                case FAIL -> failed.add(slot.hook());
                case TIMED_OUT ->
                    (slot.failurePolicy() == FailurePolicy.Fail ? timedOutHeld : timedOutIgnored).add(slot.hook());
                case MISSING, PENDING -> waiting.add(slot.hook());
                case PASS -> {}
            }
        }
        Decision decision;
        boolean released;
        List<String> blocking = new ArrayList<>();
        Gate.Override override = gate.override();
        if (gate.released() && gate.last() != null) {
            return gate.last();
        } else if (override != null) {
            decision = Decision.OVERRIDDEN;
            released = override.release();
        } else if (!failed.isEmpty()) {
            decision = Decision.BLOCKED;
            released = false;
            blocking.addAll(failed);
            blocking.addAll(timedOutHeld);
        } else if (!timedOutHeld.isEmpty()) {
            decision = Decision.TIMED_OUT;
            released = false;
            blocking.addAll(timedOutHeld);
        } else if (waiting.isEmpty()) {
            decision = timedOutIgnored.isEmpty() ? Decision.RELEASED : Decision.TIMED_OUT;
            released = true;
        } else {
            decision = Decision.OPENED;
            released = false;
            blocking.addAll(waiting);
        }
        GateRequest r = gate.request();
        String advisory = Enforcement.advisory(r);
        GateDecision.OperatorOverride operator =
                override == null ? null : new GateDecision.OperatorOverride(override.by(), override.reason());
        return new GateDecision(
                r.cluster(),
                r.gateId(),
                r.attempt(),
                r.stage(),
                r.pool().name(),
                r.node() == null ? null : r.node().name(),
                r.targetConfig(),
                decision,
                released,
                statuses,
                blocking,
                WhyHeld.summary(
                        decision,
                        released,
                        statuses,
                        blocking,
                        operator,
                        r.pool().name(),
                        advisory),
                operator,
                gate.openedAt(),
                now,
                advisory,
                null);
    }

    private static Change decide(Gate gate, VerdictFate fate, Instant now, boolean opening) {
        GateDecision decision = evaluate(gate, now);
        GateDecision last = gate.last();
        boolean changed = opening
                || last == null
                || last.decision() != decision.decision()
                || last.released() != decision.released()
                || !last.blockingHooks().equals(decision.blockingHooks());
        if (!changed) {
            return new Change(gate, fate, null);
        }
        Gate next = gate.with(gate.hooks(), gate.override(), decision.released(), decision);
        return new Change(next, fate, decision);
    }

    static HookState stateOf(Gate.Slot slot, Instant now) {
        if (slot.timedOut(now)) {
            return HookState.TIMED_OUT;
        }
        if (slot.latest() == null) {
            return HookState.MISSING;
        }
        return switch (slot.latest().outcome()) {
            case PASS -> HookState.PASS;
            case FAIL -> HookState.FAIL;
            case PENDING -> HookState.PENDING;
        };
    }

    private static GateDecision.HookStatus status(Gate.Slot slot, HookState state) {
        Verdict v = slot.latest();
        return new GateDecision.HookStatus(
                slot.hook(),
                state,
                slot.mode(),
                v == null ? null : v.reason(),
                v == null ? null : v.message(),
                v == null ? null : v.producedAt(),
                slot.failurePolicy(),
                seconds(slot.timeout()),
                seconds(slot.maxExtension()),
                slot.deadline(),
                slot.signed(),
                slot.pausePoolOnFailure());
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Integer seconds(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toSeconds());
    }
}
