package io.mcdhooks.sandbox.mco;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Simulated time and the simulator's threads.
 *
 * <p>Simulated time runs {@code scale} times faster than the wall clock, except that it stands
 * still while the simulator is behind (more than {@code maxBacklog} tasks waiting): a timeout of
 * one simulated hour must not fire because the host was slow to carry out the simulated work.
 *
 * <p>Work is keyed (a node name, a pool): tasks with the same key run one at a time in submission
 * order, so one node's MCD, drain controller and MachineConfigNode writes never interleave, while
 * different nodes proceed in parallel on a small fixed pool.
 */
public final class SimClock implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SimClock.class);
    private static final long TICK_NANOS = 1_000_000;

    private final double scale;
    private final Instant simulatedStart;
    private final int maxBacklog;
    private final AtomicLong simulatedNanos = new AtomicLong();
    private final AtomicInteger backlog = new AtomicInteger();
    private final AtomicLong sequence = new AtomicLong();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    private final ExecutorService workers;
    private final Thread driver;
    private final ConcurrentHashMap<String, Serial> serials = new ConcurrentHashMap<>();
    private volatile boolean closed;

    SimClock(double scale, Instant simulatedStart, int threads) {
        this.scale = scale;
        this.simulatedStart = simulatedStart;
        this.maxBacklog = 4 * threads;
        this.workers = Executors.newFixedThreadPool(threads, daemon("mco-sim-worker"));
        this.driver = daemon("mco-sim-clock").newThread(this::drive);
        driver.start();
    }

    /** The simulated wall-clock time. */
    public Instant now() {
        return simulatedStart.plusNanos(simulatedNanos.get());
    }

    public double scale() {
        return scale;
    }

    /** Runs {@code task} under {@code key} now. */
    void run(String key, Runnable task) {
        if (!closed) {
            backlog.incrementAndGet();
            serials.computeIfAbsent(key, Serial::new).add(task);
        }
    }

    /** Runs {@code task} under {@code key} once {@code delay} of simulated time has passed. */
    Timer schedule(String key, Duration delay, Runnable task) {
        var timer = new Timer(simulatedNanos.get() + delay.toNanos(), sequence.incrementAndGet(), key, task);
        synchronized (timers) {
            timers.add(timer);
        }
        return timer;
    }

    private void drive() {
        long last = System.nanoTime();
        while (!closed) {
            long now = System.nanoTime();
            if (backlog.get() <= maxBacklog) {
                simulatedNanos.addAndGet((long) ((now - last) * scale));
            }
            last = now;
            long simNow = simulatedNanos.get();
            while (true) {
                Timer due;
                synchronized (timers) {
                    due = timers.peek();
                    if (due == null || due.due > simNow) {
                        break;
                    }
                    timers.poll();
                }
                if (!due.cancelled) {
                    run(due.key, due.task);
                }
            }
            LockSupport.parkNanos(TICK_NANOS);
        }
    }

    @Override
    public void close() {
        closed = true;
        workers.shutdownNow();
        try {
            driver.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory daemon(String prefix) {
        var n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** A pending timer; cancel() keeps it from running. */
    final class Timer implements Comparable<Timer> {
        private final long due;
        private final long order;
        private final String key;
        private final Runnable task;
        private volatile boolean cancelled;

        private Timer(long due, long order, String key, Runnable task) {
            this.due = due;
            this.order = order;
            this.key = key;
            this.task = task;
        }

        void cancel() {
            cancelled = true;
        }

        /** Simulated time left until it fires (negative when overdue). */
        Duration remaining() {
            return Duration.ofNanos(due - simulatedNanos.get());
        }

        boolean pending() {
            return !cancelled && due > simulatedNanos.get();
        }

        @Override
        public int compareTo(Timer o) {
            int c = Long.compare(due, o.due);
            return c != 0 ? c : Long.compare(order, o.order);
        }
    }

    /** Runs a key's tasks one after another on the shared pool. */
    private final class Serial {
        private final String key;
        private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
        private boolean running;

        Serial(String key) {
            this.key = key;
        }

        synchronized void add(Runnable task) {
            queue.add(task);
            if (!running) {
                running = true;
                submitNext();
            }
        }

        private void submitNext() {
            Runnable next = queue.poll();
            if (next == null) {
                running = false;
                return;
            }
            try {
                workers.execute(() -> {
                    try {
                        next.run();
                    } catch (RuntimeException e) {
                        if (!closed) {
                            LOG.atWarn().addKeyValue("key", key).setCause(e).log("Simulator task failed");
                        }
                    } finally {
                        backlog.decrementAndGet();
                        synchronized (this) {
                            submitNext();
                        }
                    }
                });
            } catch (RejectedExecutionException e) {
                running = false;
                queue.clear();
            }
        }
    }
}
