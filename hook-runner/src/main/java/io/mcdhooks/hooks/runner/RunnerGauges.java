package io.mcdhooks.hooks.runner;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** Live figures of a runner, readable from any thread (for health, metrics and tests). */
public final class RunnerGauges {

    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger maxRunning = new AtomicInteger();
    private final AtomicInteger maxOpen = new AtomicInteger();
    private final AtomicLong pauses = new AtomicLong();
    private final AtomicLong finalVerdicts = new AtomicLong();

    /** Checks running now. */
    public int running() {
        return running.get();
    }

    /** Gates held now: queued, running, or waiting for a re-check. */
    public int open() {
        return open.get();
    }

    /** The most checks ever running at once. */
    public int maxRunning() {
        return maxRunning.get();
    }

    /** The most gates ever held at once. */
    public int maxOpen() {
        return maxOpen.get();
    }

    /** How often the consumer was paused because the runner held its limit of open gates. */
    public long pauses() {
        return pauses.get();
    }

    /** PASS and FAIL verdicts acknowledged by the broker. */
    public long finalVerdicts() {
        return finalVerdicts.get();
    }

    void running(int value) {
        running.set(value);
        maxRunning.accumulateAndGet(value, Math::max);
    }

    void open(int value) {
        open.set(value);
        maxOpen.accumulateAndGet(value, Math::max);
    }

    void paused() {
        pauses.incrementAndGet();
    }

    void finalVerdictSent() {
        finalVerdicts.incrementAndGet();
    }
}
