package io.mcdhooks.bridge.metrics;

import io.mcdhooks.bridge.gate.Gate;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateDecision.HookState;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * What the gates not yet released amount to now, for gauges an alert can compare with the MCO's
 * limits: how many there are per stage, pool and last decision, how long the oldest of each stage
 * and pool has been open, and how many wait on each enforcing hook. Pure.
 *
 * @param open    (stage, pool, decision) → gates not released whose last decision is that
 * @param oldest  (stage, pool) → the age of the oldest of them
 * @param waiting hook → gates not released that still need its verdict (none yet, pending, or timed
 *                out under {@code failurePolicy: Fail}, where a late pass still releases)
 */
public record GateGauges(Map<Key, Long> open, Map<StagePool, Duration> oldest, Map<String, Long> waiting) {

    /** A stage and pool. */
    public record StagePool(String stage, String pool) {}

    /** A stage, pool and decision. */
    public record Key(String stage, String pool, String decision) {}

    public GateGauges {
        open = Map.copyOf(open);
        oldest = Map.copyOf(oldest);
        waiting = Map.copyOf(waiting);
    }

    public static GateGauges of(Collection<Gate> gates, Instant now) {
        Map<Key, Long> open = new HashMap<>();
        Map<StagePool, Duration> oldest = new HashMap<>();
        Map<String, Long> waiting = new HashMap<>();
        for (Gate gate : gates) {
            GateDecision last = gate.last();
            if (gate.released() || last == null) {
                continue;
            }
            String stage = gate.request().stage().wire();
            String pool = gate.request().pool().name();
            open.merge(new Key(stage, pool, last.decision().name()), 1L, Long::sum);
            Duration age = gate.openedAt() == null ? Duration.ZERO : Duration.between(gate.openedAt(), now);
            oldest.merge(new StagePool(stage, pool), age.isNegative() ? Duration.ZERO : age, GateGauges::longer);
            for (GateDecision.HookStatus hook : last.hooks()) {
                if (hook.mode() == GateDecision.Mode.Enforcing && waitedOn(hook)) {
                    waiting.merge(hook.hook(), 1L, Long::sum);
                }
            }
        }
        return new GateGauges(open, oldest, waiting);
    }

    private static boolean waitedOn(GateDecision.HookStatus hook) {
        return hook.state() == HookState.MISSING
                || hook.state() == HookState.PENDING
                || (hook.state() == HookState.TIMED_OUT && hook.failurePolicy() != FailurePolicy.Ignore);
    }

    private static Duration longer(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
