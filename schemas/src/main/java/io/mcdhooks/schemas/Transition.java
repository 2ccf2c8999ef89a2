package io.mcdhooks.schemas;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** A lifecycle transition the bridge observes on a node or a pool. */
public enum Transition {
    UPDATE_ASSIGNED("update-assigned", Scope.NODE),
    WORKING("working", Scope.NODE),
    DRAIN_REQUESTED("drain-requested", Scope.NODE),
    CORDONED("cordoned", Scope.NODE),
    DRAINED("drained", Scope.NODE),
    APPLIED("applied", Scope.NODE),
    REBOOTING("rebooting", Scope.NODE),
    RESUMED("resumed", Scope.NODE),
    UNCORDON_REQUESTED("uncordon-requested", Scope.NODE),
    UNCORDONED("uncordoned", Scope.NODE),
    DONE("done", Scope.NODE),
    DEGRADED("degraded", Scope.NODE),
    RECOVERED("recovered", Scope.NODE),
    DELETED("deleted", Scope.NODE),
    NEW_TARGET_CONFIG("new-target-config", Scope.POOL),
    PAUSED("paused", Scope.POOL),
    UNPAUSED("unpaused", Scope.POOL),
    UPDATING("updating", Scope.POOL),
    UPDATED("updated", Scope.POOL),
    POOL_DEGRADED("pool-degraded", Scope.POOL);

    /** Whether a transition belongs to a node or a pool. */
    public enum Scope {
        NODE,
        POOL
    }

    private final String wire;
    private final Scope scope;

    Transition(String wire, Scope scope) {
        this.wire = wire;
        this.scope = scope;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    public Scope scope() {
        return scope;
    }

    @JsonCreator
    public static Transition fromWire(String value) {
        for (Transition t : values()) {
            if (t.wire.equals(value)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown transition '" + value + "'");
    }

    @Override
    public String toString() {
        return wire;
    }
}
