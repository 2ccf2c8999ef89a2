package io.mcdhooks.hooks.api;

import io.vertx.core.Vertx;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;

/** What the runner lends a hook for one check. */
public interface CheckContext {

    /** The runner's Vert.x, for timers and clients; its event loops must not be blocked. */
    Vertx vertx();

    /** Runs blocking work (files, processes, blocking clients) on the runner's worker pool. */
    <T> CompletionStage<T> blocking(Callable<T> work);

    /**
     * Registers what to do when the runner gives up on this check (timeout, shutdown): kill a
     * process, cancel a request. Runs at once if the check is already cancelled.
     */
    void onCancel(Runnable action);

    /** Whether the runner has given up on this check; its result will be ignored. */
    boolean isCancelled();
}
