package io.mcdhooks.hooks.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.mcdhooks.hooks.api.CheckContext;
import io.vertx.core.Vertx;

/** A check context without a runner: blocking work on a thread pool, cancellation by hand. */
public final class DirectCheckContext implements CheckContext, AutoCloseable {

    private final Vertx vertx;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Runnable> onCancel = new ArrayList<>();
    private boolean cancelled;

    public DirectCheckContext(Vertx vertx) {
        this.vertx = vertx;
    }

    @Override
    public Vertx vertx() {
        return vertx;
    }

    @Override
    public <T> CompletionStage<T> blocking(Callable<T> work) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return work.call();
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, executor);
    }

    @Override
    public void onCancel(Runnable action) {
        boolean now;
        synchronized (this) {
            now = cancelled;
            if (!now) {
                onCancel.add(action);
            }
        }
        if (now) {
            action.run();
        }
    }

    @Override
    public synchronized boolean isCancelled() {
        return cancelled;
    }

    public void cancel() {
        List<Runnable> actions;
        synchronized (this) {
            cancelled = true;
            actions = List.copyOf(onCancel);
        }
        actions.forEach(Runnable::run);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
