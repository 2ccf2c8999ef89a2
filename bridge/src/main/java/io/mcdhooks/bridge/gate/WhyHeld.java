package io.mcdhooks.bridge.gate;

import io.mcdhooks.bridge.lag.LagStatus;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.Decision;
import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateDecision.HookState;
import io.mcdhooks.schemas.GateDecision.HookStatus;
import io.mcdhooks.schemas.GateDecision.Mode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Why a gate holds (or why it let go), in one line for people: {@code blocked by kmod-check: FAIL
 * ModulesMissing}, {@code waiting on node-check: PENDING Probing}, {@code released by operator
 * alice: INC-4711}. Where the lag of the hooks a gate waits on is known, each such hook says how
 * it is doing: {@code waiting on kmod-check: MISSING, hook STALLED, lag 12 for 4 m}.
 *
 * <p>A hold on the master pool says what it does to cluster upgrades ({@link Enforcement#MASTER_HOLD}).
 * A gate no lever can hold on this cluster ({@link GateDecision#advisory()}) adds why:
 * {@code blocked by node-check: FAIL Broken (advisory, holds nothing: the master pool …)}.
 *
 * <p>The one formatter of that line: the gate machine writes it into every decision's summary (and
 * so into logs, Events and {@code mcdhooks tail}); the status page and {@code mcdhooks status}
 * add the lag they know of.
 */
public final class WhyHeld {

    private WhyHeld() {}

    /** The line of a decision, as its summary says it. */
    public static String of(GateDecision decision) {
        return of(decision, Map.of(), Instant.EPOCH);
    }

    /** The line of a decision, each hook it waits on with its lag state where {@code lag} knows it. */
    public static String of(GateDecision decision, Map<String, LagStatus> lag, Instant now) {
        return line(
                decision.decision(),
                decision.released(),
                decision.hooks(),
                decision.blockingHooks(),
                decision.override(),
                decision.pool(),
                decision.advisory(),
                lag,
                now);
    }

    /** The summary of a decision being made: its parts, before it is one. */
    static String summary(
            Decision decision,
            boolean released,
            List<HookStatus> hooks,
            List<String> blocking,
            GateDecision.OperatorOverride override,
            String pool,
            String advisory) {
        return line(decision, released, hooks, blocking, override, pool, advisory, Map.of(), Instant.EPOCH);
    }

    private static String line(
            Decision decision,
            boolean released,
            List<HookStatus> hooks,
            List<String> blocking,
            GateDecision.OperatorOverride override,
            String pool,
            String advisory,
            Map<String, LagStatus> lag,
            Instant now) {
        String line = switch (decision) {
            case OVERRIDDEN ->
                (released ? "released" : "blocked") + " by operator "
                        + (override == null ? "?" : override.by() + ": " + override.reason());
            case RELEASED -> hooks.isEmpty() ? "no hooks to wait on" : "every required hook passed";
            case TIMED_OUT ->
                released
                        ? "passed; timed out and ignored: " + String.join(", ", ignored(hooks))
                        : "timed out waiting on " + describe(hooks, blocking, lag, now);
            case BLOCKED -> "blocked by " + describe(hooks, blocking, lag, now);
            case OPENED -> "waiting on " + describe(hooks, blocking, lag, now);
        };
        if (released) {
            return line;
        }
        // A gate no lever holds says so wherever its line is shown, or a block would look like a hold.
        if (advisory != null) {
            return line + " (advisory, holds nothing: " + advisory + ")";
        }
        return McoApi.requiredPool(pool) ? line + " (" + Enforcement.MASTER_HOLD + ")" : line;
    }

    /** Enforcing hooks that timed out and whose policy let the gate pass. */
    private static List<String> ignored(List<HookStatus> hooks) {
        List<String> names = new ArrayList<>();
        for (HookStatus h : hooks) {
            if (h.mode() != Mode.Advisory
                    && h.state() == HookState.TIMED_OUT
                    && h.failurePolicy() == FailurePolicy.Ignore) {
                names.add(h.hook());
            }
        }
        return names;
    }

    private static String describe(
            List<HookStatus> hooks, List<String> blocking, Map<String, LagStatus> lag, Instant now) {
        List<String> parts = new ArrayList<>();
        for (String name : blocking) {
            HookStatus h = status(hooks, name);
            HookState state = h == null ? HookState.MISSING : h.state();
            LagStatus hookLag = lag.get(name);
            boolean waiting = state == HookState.MISSING || state == HookState.PENDING || state == HookState.TIMED_OUT;
            if (waiting && hookLag != null) {
                parts.add(name + ": " + state + ", hook " + hookLag.describe(now));
            } else {
                boolean reason = h != null && h.reason() != null && state != HookState.TIMED_OUT;
                parts.add(name + ": " + state + (reason ? " " + h.reason() : ""));
            }
        }
        return String.join("; ", parts);
    }

    private static HookStatus status(List<HookStatus> hooks, String name) {
        for (HookStatus h : hooks) {
            if (h.hook().equals(name)) {
                return h;
            }
        }
        return null;
    }
}
