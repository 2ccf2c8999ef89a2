package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** client-go's rate-limiting work queue as the drain controller uses it, in simulated time. */
class WorkQueueTest {

    private final SimClock clock = new SimClock(1000, Instant.parse("2026-01-01T00:00:00Z"), 4);

    @AfterEach
    void close() {
        clock.close();
    }

    @Test
    void noMoreThanTheWorkersRunAtOnceAndAKeyRunsOnceAtATime() {
        var running = new AtomicInteger();
        var most = new AtomicInteger();
        var held = new ConcurrentHashMap<String, WorkQueue.Done>();
        var queue = new WorkQueue(clock, 5, (key, done) -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            held.put(key, done);
        });
        for (int i = 0; i < 8; i++) {
            queue.add("node-" + i);
        }
        queue.add("node-0");

        await().atMost(Duration.ofSeconds(5)).until(() -> held.size() == 5);
        assertThat(most.get()).isEqualTo(5);
        // node-0 was added again while it runs: it runs again after it is done, not now
        running.decrementAndGet();
        held.remove("node-0").done();
        await().atMost(Duration.ofSeconds(5)).until(() -> held.containsKey("node-0") || held.size() == 5);
        assertThat(most.get()).isEqualTo(5);
    }

    @Test
    void addRateLimitedBacksOffFrom5MillisecondsDoublingUpTo1000SecondsUntilForgotten() {
        // DefaultTypedControllerRateLimiter's per-item part: 5 ms · 2^failures, at most 1000 s
        var starts = new CopyOnWriteArrayList<Instant>();
        var queue = new WorkQueue(clock, 5, (key, done) -> {
            starts.add(clock.now());
            if (starts.size() <= 19) {
                queue().addRateLimited(key);
            }
            done.done();
        });
        self = queue;
        queue.add("n");

        await().atMost(Duration.ofSeconds(30)).until(() -> starts.size() == 20);
        // A timer never fires early; how late it fires depends on the machine, so only the lower bound
        // is measured, and the delays themselves are checked below.
        for (int i = 0; i < 19; i++) {
            assertThat(Duration.between(starts.get(i), starts.get(i + 1))).isGreaterThanOrEqualTo(WorkQueue.backoff(i));
        }
        assertThat(queue.numRequeues("n")).isEqualTo(19);

        queue.forget("n");
        assertThat(queue.numRequeues("n")).isZero();
    }

    @Test
    void theBackoffDoublesFrom5MillisecondsAndStopsAt1000Seconds() {
        assertThat(WorkQueue.backoff(0)).isEqualTo(Duration.ofMillis(5));
        assertThat(WorkQueue.backoff(12)).isEqualTo(Duration.ofMillis(20_480));
        assertThat(WorkQueue.backoff(13)).isEqualTo(Duration.ofMillis(40_960));
        assertThat(WorkQueue.backoff(17)).isEqualTo(Duration.ofMillis(655_360));
        // 5 ms · 2^18 would be 1311 s: capped
        assertThat(WorkQueue.backoff(18)).isEqualTo(Duration.ofSeconds(1000));
        assertThat(WorkQueue.backoff(100)).isEqualTo(Duration.ofSeconds(1000));
    }

    private WorkQueue self;

    private WorkQueue queue() {
        return self;
    }

    @Test
    void aStoppedQueueDropsWhatWasQueuedAndVoidsWorkInFlight() {
        var seen = new CopyOnWriteArrayList<String>();
        var queue = new WorkQueue(clock, 1, (key, done) -> seen.add(key));
        queue.add("a");
        queue.add("b");
        await().atMost(Duration.ofSeconds(5)).until(() -> seen.equals(List.of("a")));
        int generation = queue.generation();

        queue.stop();
        queue.start();
        queue.add("c");

        await().atMost(Duration.ofSeconds(5)).until(() -> seen.equals(List.of("a", "c")));
        assertThat(queue.generation()).isGreaterThan(generation);
    }
}
