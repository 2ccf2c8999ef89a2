package io.mcdhooks.sandbox.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.WakeupException;

/**
 * Row 1, the floor: a record produced and consumed again, one at a time (closed loop), with the
 * clients' settings the bridge and the hooks use and a gate request's size and key spread. Every
 * latency of the system is at least this.
 */
final class KafkaFloor {

    private KafkaFloor() {}

    static Latency.Stats measure(String bootstrap, int samples, int warmup) {
        String topic = "bench-floor-" + UUID.randomUUID().toString().substring(0, 8);
        BenchKafka.createTopics(bootstrap, List.of(topic), 3);
        Map<String, CompletableFuture<Long>> waiting = new ConcurrentHashMap<>();
        Latency latency = new Latency();
        try (KafkaProducer<String, byte[]> producer = BenchKafka.producer(bootstrap, "bench-floor");
                ConsumerLoop consumer =
                        new ConsumerLoop(BenchKafka.groupConsumer(bootstrap, "bench-floor"), List.of(topic), record -> {
                            long now = System.nanoTime();
                            CompletableFuture<Long> f = waiting.remove(record.key());
                            if (f != null) {
                                f.complete(now);
                            }
                        })) {
            consumer.awaitAssignment(Duration.ofSeconds(60));
            for (int i = 0; i < warmup + samples; i++) {
                String key = "worker-" + i;
                ProducerRecord<String, byte[]> record = BenchKafka.record(
                        topic, BenchKafka.postUpdateRequest("bench", key, "rendered-worker-floor"), "/bench/floor");
                CompletableFuture<Long> received = new CompletableFuture<>();
                waiting.put(key, received);
                long start = System.nanoTime();
                producer.send(record);
                long end = await(received, "the floor's record " + i);
                if (i >= warmup) {
                    latency.record(end - start);
                }
            }
        }
        return latency.stats();
    }

    static long await(CompletableFuture<Long> future, String what) {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + what, e);
        } catch (Exception e) {
            throw new IllegalStateException("timed out waiting for " + what, e);
        }
    }

    /** Polls a consumer on a thread of its own and hands every record to a handler. */
    static final class ConsumerLoop implements AutoCloseable {
        private final KafkaConsumer<String, byte[]> consumer;
        private final Thread thread;
        private final CompletableFuture<Void> assigned = new CompletableFuture<>();
        private volatile boolean running = true;

        ConsumerLoop(
                KafkaConsumer<String, byte[]> consumer,
                List<String> topics,
                Consumer<ConsumerRecord<String, byte[]>> handler) {
            this.consumer = consumer;
            this.thread = new Thread(
                    () -> {
                        try {
                            consumer.subscribe(topics);
                            while (running) {
                                var records = consumer.poll(Duration.ofMillis(100));
                                if (!consumer.assignment().isEmpty()) {
                                    assigned.complete(null);
                                }
                                for (ConsumerRecord<String, byte[]> record : records) {
                                    handler.accept(record);
                                }
                            }
                        } catch (WakeupException e) {
                            // closing
                        } finally {
                            consumer.close(Duration.ofSeconds(5));
                        }
                    },
                    "bench-consumer-" + topics);
            thread.setDaemon(true);
            thread.start();
        }

        void awaitAssignment(Duration limit) {
            try {
                assigned.get(limit.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for a partition assignment", e);
            } catch (Exception e) {
                throw new IllegalStateException("no partition assignment within " + limit, e);
            }
        }

        @Override
        public void close() {
            running = false;
            consumer.wakeup();
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
