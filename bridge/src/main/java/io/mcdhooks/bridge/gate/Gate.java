package io.mcdhooks.bridge.gate;

import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateDecision.Mode;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One gate: the request that opened it, the hooks it waits on (snapshotted when it opened, in
 * name order), an operator override if any, and the last decision it made known.
 *
 * @param released whether it has been released: a released gate is closed and stays so
 * @param last     the last decision published, to publish only changes
 */
public record Gate(
        GateRequest request,
        Instant openedAt,
        Map<String, Slot> hooks,
        Override override,
        boolean released,
        GateDecision last) {

    public Gate {
        hooks = Collections.unmodifiableMap(new TreeMap<>(hooks));
    }

    public String id() {
        return request.gateId();
    }

    /** Hooks of this gate whose failure should pause the pool (HoldAndPausePool). */
    public Set<String> pauseOnFailure() {
        return hooks.values().stream()
                .filter(Slot::pausePoolOnFailure)
                .map(Slot::hook)
                .collect(Collectors.toUnmodifiableSet());
    }

    Gate with(Map<String, Slot> newHooks, Override newOverride, boolean newReleased, GateDecision newLast) {
        return new Gate(request, openedAt, newHooks, newOverride, newReleased, newLast);
    }

    /**
     * A hook's place in the gate: its snapshotted settings and the verdict that counts now.
     *
     * @param deadline when the wait for it ends, heartbeats included
     * @param latest   its latest verdict, or {@code null}
     */
    public record Slot(
            String hook,
            Mode mode,
            FailurePolicy failurePolicy,
            Duration timeout,
            Duration maxExtension,
            boolean signed,
            boolean pausePoolOnFailure,
            Instant deadline,
            Verdict latest) {

        public boolean enforcing() {
            return mode == Mode.Enforcing;
        }

        /** No final verdict, and its deadline has passed. */
        public boolean timedOut(Instant now) {
            boolean undecided = latest == null || latest.outcome() == Outcome.PENDING;
            return undecided && now.isAfter(deadline);
        }

        Slot withVerdict(Verdict verdict, Instant newDeadline) {
            return new Slot(
                    hook, mode, failurePolicy, timeout, maxExtension, signed, pausePoolOnFailure, newDeadline, verdict);
        }
    }

    /** An operator's decision on a gate: release it, or keep it closed whatever the hooks say. */
    public record Override(boolean release, String by, String reason, Instant at) {}
}
