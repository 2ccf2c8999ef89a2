package io.mcdhooks.schemas;

import java.time.Instant;
import java.util.List;

/**
 * What the gatekeeper concluded about a gate and what it did.
 *
 * @param released      whether the node or pool may now progress
 * @param hooks         every hook the gate waited on, with the verdict that counted
 * @param blockingHooks the hooks that keep the gate closed
 * @param summary       one line for humans
 * @param override      who overrode the gate and why, for {@link Decision#OVERRIDDEN}
 * @param openedAt      when the gate opened
 * @param advisory      why no lever on this cluster can hold the node or pool at this stage, when none can: the
 *                      gate is published and decided, but a block holds nothing; null when a lever enforces it
 */
public record GateDecision(
        String cluster,
        String gateId,
        int attempt,
        Stage stage,
        String pool,
        String node,
        String targetConfig,
        Decision decision,
        boolean released,
        List<HookStatus> hooks,
        List<String> blockingHooks,
        String summary,
        OperatorOverride override,
        Instant openedAt,
        Instant decidedAt,
        String advisory,
        Rollback rollback)
        implements Message {

    private static final String KIND = "GateDecision";

    public GateDecision {
        Require.text(cluster, KIND, "cluster");
        Require.text(gateId, KIND, "gateId");
        Require.attempt(attempt, KIND);
        Require.present(stage, KIND, "stage");
        Require.text(pool, KIND, "pool");
        Require.text(targetConfig, KIND, "targetConfig");
        Require.present(decision, KIND, "decision");
        Require.present(decidedAt, KIND, "decidedAt");
        hooks = Require.list(hooks);
        blockingHooks = Require.list(blockingHooks);
        if (stage.perNode()) {
            Require.text(node, KIND, "node");
        }
        if (decision == Decision.OVERRIDDEN) {
            Require.present(override, KIND, "override");
        }
    }

    /** A decision of a gate a lever enforces and no rollback: what v1 carried before {@code advisory}. */
    public GateDecision(
            String cluster,
            String gateId,
            int attempt,
            Stage stage,
            String pool,
            String node,
            String targetConfig,
            Decision decision,
            boolean released,
            List<HookStatus> hooks,
            List<String> blockingHooks,
            String summary,
            OperatorOverride override,
            Instant openedAt,
            Instant decidedAt) {
        this(
                cluster,
                gateId,
                attempt,
                stage,
                pool,
                node,
                targetConfig,
                decision,
                released,
                hooks,
                blockingHooks,
                summary,
                override,
                openedAt,
                decidedAt,
                null,
                null);
    }

    /** This decision again, at {@code at}, recording {@code rollback}. */
    public GateDecision withRollback(Rollback rollback, Instant at) {
        return new GateDecision(
                cluster,
                gateId,
                attempt,
                stage,
                pool,
                node,
                targetConfig,
                decision,
                released,
                hooks,
                blockingHooks,
                summary,
                override,
                openedAt,
                at,
                advisory,
                rollback);
    }

    @Override
    public String key() {
        return node != null ? node : pool;
    }

    @Override
    public MessageKind kind() {
        return MessageKind.GATE_DECISION;
    }

    /** What the gatekeeper concluded. */
    public enum Decision {
        /** The gate opened and waits on the hooks listed. */
        OPENED,
        /** Every required hook passed. */
        RELEASED,
        /** A required hook failed. */
        BLOCKED,
        /** A required hook did not answer in time; {@code released} says what its policy did. */
        TIMED_OUT,
        /** An operator decided; see {@code override}. */
        OVERRIDDEN
    }

    /** A hook's standing in the gate. */
    public enum HookState {
        PASS,
        FAIL,
        PENDING,
        MISSING,
        TIMED_OUT
    }

    /** Whether a hook's verdicts can hold a gate. */
    public enum Mode {
        Enforcing,
        Advisory
    }

    /** What a timeout of a hook does. */
    public enum FailurePolicy {
        Fail,
        Ignore
    }

    /**
     * One hook's standing: its latest outcome and why, and the settings the gate snapshotted for
     * it when it opened.
     */
    public record HookStatus(
            String hook,
            HookState state,
            Mode mode,
            String reason,
            String message,
            Instant at,
            FailurePolicy failurePolicy,
            Integer timeoutSeconds,
            Integer maxExtensionSeconds,
            Instant deadline,
            Boolean signed,
            Boolean pausePool) {
        public HookStatus {
            Require.text(hook, KIND, "hooks[].hook");
            Require.present(state, KIND, "hooks[].state");
        }
    }

    /** Where a pool rollback started by this gate's failure stands. */
    public enum RollbackState {
        /** Its writes are about to be made. */
        PLANNED,
        /** Its writes are made: the MCO takes the pool back. */
        APPLIED,
        /** Not done; the pool is held as HoldAndPausePool holds it. */
        REFUSED,
        /** What it would do, not done. */
        ADVISORY,
        /** An operator stopped it: nothing more is written, and its pool is held paused. */
        STOPPED
    }

    /** What a rollback writes to one MachineConfig. */
    public enum RollbackAction {
        RESTORE,
        RECREATE,
        DELETE
    }

    /** One MachineConfig a rollback writes back. */
    public record RollbackStep(RollbackAction action, String machineConfig) {
        public RollbackStep {
            Require.present(action, KIND, "rollback.steps[].action");
            Require.text(machineConfig, KIND, "rollback.steps[].machineConfig");
        }
    }

    /**
     * A pool rollback this gate's failure started, or why not.
     *
     * @param from the rendered config whose check failed
     * @param to   the rendered config the pool goes back to
     */
    public record Rollback(
            RollbackState state, String from, String to, String reason, String message, List<RollbackStep> steps) {
        public Rollback {
            Require.present(state, KIND, "rollback.state");
            Require.text(from, KIND, "rollback.from");
            steps = Require.list(steps);
        }
    }

    /** An operator's decision. */
    public record OperatorOverride(String by, String reason) {
        public OperatorOverride {
            Require.text(by, KIND, "override.by");
            Require.text(reason, KIND, "override.reason");
        }
    }
}
