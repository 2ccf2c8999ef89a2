package io.mcdhooks.hooks.api;

import io.mcdhooks.schemas.GateRequest;
import java.util.concurrent.CompletionStage;

/**
 * A hook: says PASS or FAIL for a gate. Implement this, hand it to the runner, and the runner does
 * the rest (consumer group, filtering by {@link #selector()}, bounded concurrency, deadline,
 * PENDING heartbeats, retries, publishing the verdict, committing offsets).
 *
 * <p>{@link #check} is called on a Vert.x event loop and must not block: return a stage that
 * completes later, and run blocking work through {@link CheckContext#blocking}. A stage that
 * completes exceptionally (or a {@code check} that throws) is a transient error: the runner tries
 * again with back-off until the request's deadline.
 */
public interface Hook {

    /** The gates this hook answers; requests outside it are skipped. */
    GateSelector selector();

    /** Checks one gate and attempt. */
    CompletionStage<CheckResult> check(GateRequest request, CheckContext context);
}
