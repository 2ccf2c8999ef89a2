package io.mcdhooks.sandbox.mco;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * client-go's rate-limiting work queue with a fixed number of workers, in simulated time: a key is
 * queued at most once and handled by at most one worker at a time (a key added while it is being
 * handled runs again afterwards); {@link #addAfter} delays an add, keeping the earliest;
 * {@link #addRateLimited} delays it by the per-item exponential backoff of
 * {@code DefaultTypedControllerRateLimiter} (5 ms·2ⁿ up to 1000 s; its 10 qps bucket is not
 * modelled) until {@link #forget}.
 *
 * <p>A handler holds its worker until it calls the {@link Done} it is given, possibly much later
 * in simulated time: a controller that blocks in a call (a drain helper run, a cordon retried for
 * two and a half minutes) keeps its worker busy meanwhile, as in the MCC.
 */
final class WorkQueue {

    /** Releases the worker; {@code error} decides nothing here, the handler requeues itself. */
    interface Done {
        void done();
    }

    private static final Duration BASE = Duration.ofMillis(5);
    private static final Duration MAX = Duration.ofSeconds(1000);

    private final SimClock clock;
    private final int workers;
    private final BiConsumer<String, Done> handler;
    private final ArrayDeque<String> queue = new ArrayDeque<>();
    private final Set<String> dirty = new HashSet<>();
    private final Set<String> processing = new HashSet<>();
    private final Map<String, SimClock.Timer> delayed = new HashMap<>();
    private final Map<String, Integer> failures = new HashMap<>();
    private int busy;
    private int generation;
    private boolean running = true;

    WorkQueue(SimClock clock, int workers, BiConsumer<String, Done> handler) {
        this.clock = clock;
        this.workers = workers;
        this.handler = handler;
    }

    synchronized void add(String key) {
        if (dirty.add(key) && !processing.contains(key)) {
            queue.add(key);
            dispatch();
        }
    }

    synchronized void addAfter(String key, Duration delay) {
        if (delay.isZero() || delay.isNegative()) {
            add(key);
            return;
        }
        SimClock.Timer pending = delayed.get(key);
        if (pending != null && pending.pending() && pending.remaining().compareTo(delay) <= 0) {
            return;
        }
        if (pending != null) {
            pending.cancel();
        }
        int gen = generation;
        delayed.put(key, clock.schedule("queue/" + key, delay, () -> {
            synchronized (this) {
                if (gen == generation) {
                    delayed.remove(key);
                    add(key);
                }
            }
        }));
    }

    synchronized void addRateLimited(String key) {
        addAfter(key, backoff(failures.merge(key, 1, Integer::sum) - 1));
    }

    /** The delay after {@code requeues} earlier rate-limited adds of a key: 5 ms·2ⁿ, at most 1000 s. */
    static Duration backoff(int requeues) {
        Duration delay = requeues >= 40 ? MAX : BASE.multipliedBy(1L << requeues);
        return delay.compareTo(MAX) > 0 ? MAX : delay;
    }

    synchronized void forget(String key) {
        failures.remove(key);
    }

    synchronized int numRequeues(String key) {
        return failures.getOrDefault(key, 0);
    }

    /** Stops the workers and drops everything queued (the process died); work in flight is void. */
    synchronized void stop() {
        running = false;
        generation++;
        queue.clear();
        dirty.clear();
        processing.clear();
        delayed.values().forEach(SimClock.Timer::cancel);
        delayed.clear();
        failures.clear();
        busy = 0;
    }

    /** Starts the workers again, empty. */
    synchronized void start() {
        running = true;
        dispatch();
    }

    /** The generation of the queue's life: a handler started in an older one is void. */
    synchronized int generation() {
        return generation;
    }

    private void dispatch() {
        while (running && busy < workers && !queue.isEmpty()) {
            String key = queue.poll();
            dirty.remove(key);
            processing.add(key);
            busy++;
            int gen = generation;
            clock.run("node/" + key, () -> handler.accept(key, () -> finished(key, gen)));
        }
    }

    private synchronized void finished(String key, int gen) {
        if (gen != generation) {
            return;
        }
        processing.remove(key);
        busy--;
        if (dirty.contains(key)) {
            queue.add(key);
        }
        dispatch();
    }
}
