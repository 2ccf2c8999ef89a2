package io.mcdhooks.hooks.runner;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The cancellation side of a check context: actions registered before a cancel run at the
 * cancel, actions registered after it run at once, and each runs exactly once. Thread-safe: a
 * hook registers from its own threads while the runner cancels from the event loop.
 */
public final class Cancellation {

    private final List<Runnable> actions = new ArrayList<>();
    private boolean cancelled;

    public void onCancel(Runnable action) {
        boolean now;
        synchronized (this) {
            now = cancelled;
            if (!now) {
                actions.add(action);
            }
        }
        if (now) {
            action.run();
        }
    }

    public synchronized boolean isCancelled() {
        return cancelled;
    }

    /** Cancels, running every registered action; an action that throws is reported to {@code failed}. */
    public void cancel(Consumer<RuntimeException> failed) {
        List<Runnable> toRun;
        synchronized (this) {
            cancelled = true;
            toRun = List.copyOf(actions);
            actions.clear();
        }
        for (Runnable action : toRun) {
            try {
                action.run();
            } catch (RuntimeException e) {
                failed.accept(e);
            }
        }
    }
}
