package io.mcdhooks.sandbox.faults;

import io.mcdhooks.sandbox.faults.History.Produced;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.Topics;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A hook that misbehaves in every way a hook may, over plain Kafka. For each gate request of its
 * stages it sends, in this order: a PASS for an older gate of the same node (its current config)
 * and a PASS for an attempt that was never requested, both of which must change nothing; a FAIL;
 * a late PASS one to three seconds later; and the same PASS again.
 */
final class ChaosHook implements AutoCloseable {

    static final String NAME = "chaos";

    private final String verdictsTopic;
    private final Set<Stage> stages;
    private final Random random;
    private final CloudEventsKafka cloudEvents = new CloudEventsKafka(new MessageCodec());
    private final KafkaProducer<String, byte[]> producer;
    private final ExecutorService loop = Executors.newSingleThreadExecutor(r -> new Thread(r, "chaos-hook"));
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "chaos-hook-timer"));
    private final Set<String> handled = ConcurrentHashMap.newKeySet();
    private final List<Produced> produced = new CopyOnWriteArrayList<>();
    private final AtomicInteger misbehaviours = new AtomicInteger();
    private volatile boolean running = true;

    ChaosHook(String bootstrap, String requestsTopic, String verdictsTopic, Set<Stage> stages, long seed) {
        this.verdictsTopic = verdictsTopic;
        this.stages = stages;
        this.random = new Random(seed);
        this.producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                        120_000,
                        ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG,
                        500),
                new StringSerializer(),
                new ByteArraySerializer());
        loop.submit(() -> {
            try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                    Map.of(
                            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            bootstrap,
                            ConsumerConfig.GROUP_ID_CONFIG,
                            Topics.hookGroup(NAME),
                            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                            "earliest",
                            ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG,
                            500),
                    new StringDeserializer(),
                    new ByteArrayDeserializer())) {
                consumer.subscribe(List.of(requestsTopic));
                while (running) {
                    try {
                        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                            onRequest((GateRequest) cloudEvents
                                    .fromRecord(r.key(), r.headers(), r.value())
                                    .message());
                        }
                    } catch (RuntimeException e) {
                        // the broker may be away; poll again
                    }
                }
            }
            return null;
        });
    }

    private void onRequest(GateRequest request) {
        if (!stages.contains(request.stage()) || !handled.add(request.gateId() + "#" + request.attempt())) {
            return;
        }
        String subject =
                request.node() != null ? request.node().name() : request.pool().name();
        long fail;
        long pass;
        long again;
        synchronized (random) {
            fail = random.nextInt(500);
            pass = fail + 1000 + random.nextInt(2000);
            again = pass + random.nextInt(1000);
        }
        if (request.currentConfig() != null && !request.currentConfig().equals(request.targetConfig())) {
            String oldGate = GateId.of(request.cluster(), request.stage(), subject, request.currentConfig());
            send(new Verdict(
                    request.cluster(),
                    oldGate,
                    request.attempt(),
                    NAME,
                    request.stage(),
                    request.pool().name(),
                    request.node() == null ? null : request.node().name(),
                    request.currentConfig(),
                    Outcome.PASS,
                    "StaleGate",
                    "a PASS for an older gate",
                    null,
                    Instant.now()));
        }
        send(new Verdict(
                request.cluster(),
                request.gateId(),
                request.attempt() + 1,
                NAME,
                request.stage(),
                request.pool().name(),
                request.node() == null ? null : request.node().name(),
                request.targetConfig(),
                Outcome.PASS,
                "UnrequestedAttempt",
                "a PASS for an attempt never requested",
                null,
                Instant.now()));
        timer.schedule(() -> send(verdict(request, Outcome.FAIL, "NotYet")), fail, TimeUnit.MILLISECONDS);
        timer.schedule(() -> send(verdict(request, Outcome.PASS, "LatePass")), pass, TimeUnit.MILLISECONDS);
        timer.schedule(() -> send(verdict(request, Outcome.PASS, "LatePass")), again, TimeUnit.MILLISECONDS);
    }

    private static Verdict verdict(GateRequest request, Outcome outcome, String reason) {
        return Verdict.answering(request, NAME, outcome, reason, NAME + " says " + outcome, null, Instant.now());
    }

    /** Sends and waits for Kafka's acknowledgement, retrying while the broker is away. */
    private void send(Verdict verdict) {
        String id = UUID.randomUUID().toString();
        for (int tries = 0; running && tries < 5; tries++) {
            try {
                producer.send(cloudEvents.toRecord(
                                verdictsTopic,
                                verdict,
                                id,
                                URI.create("/hooks/" + NAME),
                                OffsetDateTime.now(ZoneOffset.UTC),
                                Map.of()))
                        .get(130, TimeUnit.SECONDS);
                produced.add(new Produced(
                        id,
                        NAME,
                        verdict.gateId(),
                        verdict.attempt(),
                        verdict.outcome().name()));
                misbehaviours.incrementAndGet();
                return;
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Verdicts acknowledged by Kafka, with their ids. */
    List<Produced> produced() {
        return List.copyOf(produced);
    }

    /** How many verdicts were sent (stale, unrequested, failing, late, repeated). */
    int sent() {
        return misbehaviours.get();
    }

    @Override
    public void close() {
        running = false;
        timer.shutdownNow();
        loop.shutdown();
        try {
            loop.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(5));
    }
}
