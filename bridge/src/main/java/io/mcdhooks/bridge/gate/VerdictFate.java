package io.mcdhooks.bridge.gate;

/** What became of a verdict handed to a gate. Low-cardinality: used as a metric tag. */
public enum VerdictFate {
    /** It counts now. */
    ACCEPTED,
    /** The same verdict again, or one older than the hook's latest: changes nothing. */
    DUPLICATE,
    /** Meant for another attempt, stage, subject or target config of this gate. */
    STALE,
    /** From a hook the gate does not wait on. */
    UNKNOWN_HOOK,
    /** The gate was released before it came. */
    CLOSED,
    /** No such gate. */
    UNKNOWN_GATE
}
