package io.mcdhooks.sandbox.bench;

import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.kafka.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Hooks that pass at once: one consumer per hook in that hook's group, as a shared hook runner
 * has, answering every gate request with PASS through one idempotent producer.
 */
final class InstantHooks implements AutoCloseable {

    private final KafkaProducer<String, byte[]> producer;
    private final List<KafkaFloor.ConsumerLoop> consumers = new ArrayList<>();

    InstantHooks(String bootstrap, List<String> hooks, String requestsTopic, String verdictsTopic) {
        producer = BenchKafka.producer(bootstrap, "bench-instant-hooks");
        for (String hook : hooks) {
            consumers.add(new KafkaFloor.ConsumerLoop(
                    BenchKafka.groupConsumer(bootstrap, Topics.hookGroup(hook)), List.of(requestsTopic), record -> {
                        GateRequest request =
                                (GateRequest) BenchKafka.decode(record.key(), record.headers(), record.value());
                        producer.send(BenchKafka.pass(verdictsTopic, request, hook));
                    }));
        }
        consumers.forEach(c -> c.awaitAssignment(Duration.ofSeconds(60)));
    }

    @Override
    public void close() {
        consumers.forEach(KafkaFloor.ConsumerLoop::close);
        producer.close(Duration.ofSeconds(10));
    }
}
