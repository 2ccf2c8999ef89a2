package io.mcdhooks.hooks.runner;

import io.mcdhooks.hooks.api.Decision;
import java.time.Instant;

/** What the runner does next with an open gate, as decided by {@link GateCheck}. */
sealed interface Step {

    /** Publish this verdict; once the broker has it, the gate is done and its offset committed. */
    record Finish(Decision verdict) implements Step {}

    /** Publish this FAIL, keep the gate open (offset uncommitted) and check again at {@code at}. */
    record Recheck(Decision verdict, Instant at) implements Step {}

    /** A transient error: no verdict; run the check again at {@code at}, heartbeats continuing. */
    record Retry(Instant at, String error) implements Step {}
}
