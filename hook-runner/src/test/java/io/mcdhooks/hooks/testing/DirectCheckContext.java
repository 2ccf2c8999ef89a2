package io.mcdhooks.hooks.testing;

import io.mcdhooks.hooks.api.CheckContext;
import io.mcdhooks.hooks.runner.Cancellation;
import io.vertx.core.Vertx;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** A check context without a runner: blocking work on a thread pool, cancellation by hand. */
public final class DirectCheckContext implements CheckContext, AutoCloseable {

    private final Vertx vertx;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Cancellation cancellation = new Cancellation();

    public DirectCheckContext(Vertx vertx) {
        this.vertx = vertx;
    }

    @Override
    public Vertx vertx() {
        return vertx;
    }

    @Override
    public <T> CompletionStage<T> blocking(Callable<T> work) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return work.call();
                    } catch (Exception e) {
                        throw new CompletionException(e);
                    }
                },
                executor);
    }

    @Override
    public void onCancel(Runnable action) {
        cancellation.onCancel(action);
    }

    @Override
    public boolean isCancelled() {
        return cancellation.isCancelled();
    }

    public void cancel() {
        cancellation.cancel(e -> {
            throw e;
        });
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
