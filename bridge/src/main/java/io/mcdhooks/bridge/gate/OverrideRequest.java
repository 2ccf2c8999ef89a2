package io.mcdhooks.bridge.gate;

import java.time.Instant;

/**
 * An operator's override as the gatekeeper judges it: the gate it names, release or block, who
 * asked (as the API server vouched for it) and why. Read from a {@code GateOverride} object; a
 * field that is missing makes {@link #of} name it.
 */
public record OverrideRequest(String gateId, boolean release, String by, String reason) {

    /** What became of an override. */
    public enum Outcome {
        /** The gate took it: its decision is on its way to Kafka. */
        APPLIED(true, "applied"),
        /** The gate holds this very override already (seen again, e.g. after a restart). */
        UNCHANGED(true, "already in force"),
        /** No gate of this cluster has that id. */
        UNKNOWN_GATE(false, "names no gate of this cluster"),
        /** The gate is released already: nothing is left to override. */
        NOT_OPEN(false, "names a gate that is released already");

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
        if (!"Release".equals(action) && !"Block".equals(action)) {
            throw new IllegalArgumentException("action must be Release or Block, not '" + action + "'");
        }
        return new OverrideRequest(gateId, "Release".equals(action), by, reason);
    }

    /** The override as the gate keeps it, stamped with when the gatekeeper read it. */
    public Gate.Override toOverride(Instant at) {
        return new Gate.Override(release, by, reason, at);
    }

    private static void check(String value, String field, StringBuilder missing) {
        if (value == null || value.isBlank()) {
            missing.append(missing.isEmpty() ? "" : ", ").append(field);
        }
    }
}
