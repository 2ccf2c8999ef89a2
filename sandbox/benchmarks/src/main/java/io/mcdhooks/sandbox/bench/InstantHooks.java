package io.mcdhooks.sandbox.bench;

import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.kafka.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Hooks that pass at once (or after a fixed time): one consumer per hook in that hook's group, as a
 * shared hook runner has, answering every gate request with PASS through one idempotent producer.
 */
final class InstantHooks implements AutoCloseable {

    private final KafkaProducer<String, byte[]> producer;
    private final List<KafkaFloor.ConsumerLoop> consumers = new ArrayList<>();
    private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-hooks-later");
        t.setDaemon(true);
        return t;
    });

    InstantHooks(String bootstrap, List<String> hooks, String requestsTopic, String verdictsTopic) {
        this(bootstrap, hooks, requestsTopic, verdictsTopic, Duration.ZERO);
    }

    /** Hooks that answer each request {@code after} it was read (wall time). */
    InstantHooks(String bootstrap, List<String> hooks, String requestsTopic, String verdictsTopic, Duration after) {
        producer = BenchKafka.producer(bootstrap, "bench-instant-hooks");
        for (String hook : hooks) {
            consumers.add(new KafkaFloor.ConsumerLoop(
                    BenchKafka.groupConsumer(bootstrap, Topics.hookGroup(hook)), List.of(requestsTopic), record -> {
                        GateRequest request =
                                (GateRequest) BenchKafka.decode(record.key(), record.headers(), record.value());
                        if (after.isZero()) {
                            producer.send(BenchKafka.pass(verdictsTopic, request, hook));
                        } else {
                            later.schedule(
                                    () -> producer.send(BenchKafka.pass(verdictsTopic, request, hook)),
                                    after.toMillis(),
                                    TimeUnit.MILLISECONDS);
                        }
                    }));
        }
        consumers.forEach(c -> c.awaitAssignment(Duration.ofSeconds(60)));
    }

    @Override
    public void close() {
        consumers.forEach(KafkaFloor.ConsumerLoop::close);
        later.shutdownNow();
        producer.close(Duration.ofSeconds(10));
    }
}
