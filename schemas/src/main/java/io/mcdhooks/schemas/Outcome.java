package io.mcdhooks.schemas;

/** What a hook says about a gate. */
public enum Outcome {
    /** The gate may open as far as this hook is concerned. */
    PASS,
    /** The gate must stay closed; the same hook may PASS the same attempt later. */
    FAIL,
    /** Still checking: a heartbeat that extends this hook's deadline, within its limit. */
    PENDING
}
