package io.mcdhooks.bridge.rollback;

import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.RollbackAction;
import io.mcdhooks.schemas.GateDecision.RollbackState;
import io.mcdhooks.schemas.GateDecision.RollbackStep;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a failed post-update gate's rollback is, as its decision on Kafka records it: the {@link
 * RollbackPlan} carried out, only reported, or refused, and why. Pure.
 */
public final class RollbackDecision {

    /** How the hooks that failed the gate, and this bridge, answer a failure. */
    public enum Mode {
        /** A hook's action is RollbackPool and this bridge carries rollbacks out. */
        CARRY_OUT,
        /** A hook's action is RollbackPool, but this bridge does not carry rollbacks out. */
        NOT_ENABLED,
        /** Every rolling-back hook's action is RollbackPoolAdvisory. */
        ADVISORY
    }

    private RollbackDecision() {}

    /**
     * @param from the rendered config whose check failed
     * @param to   the one the node came from, which the pool goes back to
     */
    public static GateDecision.Rollback of(RollbackPlan plan, String from, String to, Mode mode) {
        if (plan instanceof RollbackPlan.Refused refused) {
            return new GateDecision.Rollback(
                    RollbackState.REFUSED,
                    from,
                    to,
                    refused.reason().name(),
                    refused.message() + "; the pool is held paused instead",
                    List.of());
        }
        RollbackPlan.Steps steps = (RollbackPlan.Steps) plan;
        List<RollbackStep> written = steps.steps().stream()
                .map(s -> new RollbackStep(RollbackAction.valueOf(s.action().name()), s.name()))
                .toList();
        String what = written.stream()
                .map(s -> s.action().name().toLowerCase() + " " + s.machineConfig())
                .collect(Collectors.joining(", "));
        return switch (mode) {
            case CARRY_OUT ->
                new GateDecision.Rollback(
                        RollbackState.PLANNED, from, to, null, "the pool goes back to " + to + ": " + what, written);
            case NOT_ENABLED ->
                new GateDecision.Rollback(
                        RollbackState.ADVISORY,
                        from,
                        to,
                        "NotEnabled",
                        "would take the pool back to " + to + " (" + what
                                + "), but this bridge does not carry rollbacks out (MCDHOOKS_ROLLBACK); the pool is"
                                + " held paused instead",
                        written);
            case ADVISORY ->
                new GateDecision.Rollback(
                        RollbackState.ADVISORY,
                        from,
                        to,
                        "Advisory",
                        "would take the pool back to " + to + " (" + what + "); the pool is held paused instead",
                        written);
        };
    }

    /** {@code planned} once its writes are made. */
    public static GateDecision.Rollback applied(GateDecision.Rollback planned) {
        return new GateDecision.Rollback(
                RollbackState.APPLIED,
                planned.from(),
                planned.to(),
                null,
                "the MachineConfigs are back as they were for " + planned.to()
                        + ": the MCO renders it again and moves the pool's nodes back, each through its gates",
                planned.steps());
    }
}
