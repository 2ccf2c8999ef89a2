package io.mcdhooks.schemas;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The three moments a gate can hold an update. */
public enum Stage {
    /** A pool has a new target config and no node has moved; keyed by pool. */
    POOL_PRE_UPDATE("pool-pre-update"),
    /** A node is about to be drained and updated. */
    PRE_UPDATE("pre-update"),
    /** A node rebooted into the new config and is not yet re-admitted. */
    POST_UPDATE("post-update");

    private final String wire;

    Stage(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    /** Whether gates of this stage concern one node (rather than a whole pool). */
    public boolean perNode() {
        return this != POOL_PRE_UPDATE;
    }

    @JsonCreator
    public static Stage fromWire(String value) {
        for (Stage s : values()) {
            if (s.wire.equals(value)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown stage '" + value + "'");
    }

    @Override
    public String toString() {
        return wire;
    }
}
