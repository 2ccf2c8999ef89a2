package io.mcdhooks.bridge.gate;

import java.time.Instant;

/**
 * An operator's override as the gatekeeper judges it: the gate it names, what to do (release or
 * block the gate, or stop or resume the pool rollback its failure started), who asked (as the API
 * server vouched for it) and why. Read from a {@code GateOverride} object; a field that is missing
 * makes {@link #of} name it.
 */
public record OverrideRequest(String gateId, Action action, String by, String reason) {

    /** What an override asks, by its {@code spec.action}. */
    public enum Action {
        RELEASE("Release", "release of"),
        BLOCK("Block", "block of"),
        STOP_ROLLBACK("StopRollback", "stop of the rollback of"),
        RESUME_ROLLBACK("ResumeRollback", "resume of the rollback of");

        private final String wire;
        private final String text;

        Action(String wire, String text) {
            this.wire = wire;
            this.text = text;
        }

        /** As {@code spec.action} spells it. */
        public String wire() {
            return wire;
        }

        /** As a status message begins: "release of GATE by WHO". */
        public String text() {
            return text;
        }

        /** Whether it acts on the pool rollback a failed gate started, rather than on the gate. */
        public boolean onRollback() {
            return this == STOP_ROLLBACK || this == RESUME_ROLLBACK;
        }

        static Action ofWire(String wire) {
            for (Action a : values()) {
                if (a.wire.equals(wire)) {
                    return a;
                }
            }
            throw new IllegalArgumentException(
                    "action must be Release, Block, StopRollback or ResumeRollback, not '" + wire + "'");
        }
    }

    /** What became of an override. */
    public enum Outcome {
        /** The gate took it: its decision is on its way to Kafka. */
        APPLIED(true, "applied"),
        /** The gate holds this very override already (seen again, e.g. after a restart). */
        UNCHANGED(true, "already in force"),
        /** No gate of this cluster has that id. */
        UNKNOWN_GATE(false, "names no gate of this cluster"),
        /** The gate is released already: nothing is left to override. */
        NOT_OPEN(false, "names a gate that is released already"),
        /** The gate's failure started no rollback that this override could stop or resume. */
        NO_ROLLBACK(false, "names a gate whose failure started no rollback to stop or resume"),
        /** A stop of a rollback that is refused, advisory or stopped already, or a resume of one not stopped. */
        NOT_STOPPABLE(false, "names a rollback in a state this action does not apply to"),
        /** The rollback's decision or writes are under way: judged again, the override would act on a moving target. */
        BUSY(false, "names a rollback whose decision or writes are under way; create the override again in a moment");

        private final boolean applied;
        private final String text;

        Outcome(boolean applied, String text) {
            this.applied = applied;
            this.text = text;
        }

        public boolean applied() {
            return applied;
        }

        public String text() {
            return text;
        }
    }

    /** An override from its fields; the error names every one that is missing or blank. */
    public static OverrideRequest of(String gateId, String action, String by, String reason) {
        StringBuilder missing = new StringBuilder();
        check(gateId, "gate", missing);
        check(action, "action", missing);
        check(by, "requestedBy", missing);
        check(reason, "reason", missing);
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("the override needs " + missing);
        }
        return new OverrideRequest(gateId, Action.ofWire(action), by, reason);
    }

    /** Whether it releases the gate (or, for {@link Action#BLOCK}, keeps it closed). */
    public boolean release() {
        return action == Action.RELEASE;
    }

    /** "release of GATE by WHO", as statuses and Events say it. */
    public String describe() {
        return action.text() + " " + gateId + " by " + by;
    }

    /** The override as the gate keeps it, stamped with when the gatekeeper read it. Only for release or block. */
    public Gate.Override toOverride(Instant at) {
        if (action.onRollback()) {
            throw new IllegalStateException(action + " acts on a rollback, not on the gate");
        }
        return new Gate.Override(release(), by, reason, at);
    }

    private static void check(String value, String field, StringBuilder missing) {
        if (value == null || value.isBlank()) {
            missing.append(missing.isEmpty() ? "" : ", ").append(field);
        }
    }
}
