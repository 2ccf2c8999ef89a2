package io.mcdhooks.hooks.runner;

import io.mcdhooks.hooks.api.CheckResult;
import java.time.Instant;

/** What the runner does next with an open gate, as decided by {@link GateCheck}. */
sealed interface FollowUp {

    /** Publish the verdict of this result; once the broker has it, the gate is done and its offset committed. */
    record Finish(CheckResult result) implements FollowUp {}

    /** Publish this FAIL, keep the gate open (offset uncommitted) and check again at {@code at}. */
    record Recheck(CheckResult result, Instant at) implements FollowUp {}

    /** A transient error: no verdict; run the check again at {@code at}, heartbeats continuing. */
    record Retry(Instant at, String error) implements FollowUp {}

    /** A PASS inside its soak: no verdict yet, heartbeats say how far it is; run the check again at {@code at}. */
    record Soak(Instant at) implements FollowUp {}
}
