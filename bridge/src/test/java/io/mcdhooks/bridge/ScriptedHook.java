package io.mcdhooks.bridge;

import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.Topics;
import io.mcdhooks.schemas.sign.VerdictSignatures;
import java.net.URI;
import java.security.PrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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
 * A hook played by the test: it reads gate requests from Kafka like any hook and answers each as
 * the test's script says (or not at all), publishing real verdicts to the verdicts topic.
 */
final class ScriptedHook implements AutoCloseable {

    private final String name;
    private final String verdictsTopic;
    private final CloudEventsKafka cloudEvents = new CloudEventsKafka(new MessageCodec());
    private final KafkaProducer<String, byte[]> producer;
    private final List<GateRequest> seen = new CopyOnWriteArrayList<>();
    private final ExecutorService loop = Executors.newSingleThreadExecutor();
    private volatile Function<GateRequest, Optional<Outcome>> script;
    private volatile boolean running = true;
    private volatile PrivateKey signingKey;
    private volatile String keyId;

    ScriptedHook(
            String name,
            String bootstrap,
            String requestsTopic,
            String verdictsTopic,
            Function<GateRequest, Optional<Outcome>> script) {
        this.name = name;
        this.verdictsTopic = verdictsTopic;
        this.script = script;
        this.producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(),
                new ByteArraySerializer());
        loop.submit(() -> {
            try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                    Map.of(
                            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            bootstrap,
                            // The hook's own group, as a real runner has: its lag is what operators watch.
                            ConsumerConfig.GROUP_ID_CONFIG,
                            Topics.hookGroup(name),
                            ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG,
                            200,
                            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                            "earliest"),
                    new StringDeserializer(),
                    new ByteArrayDeserializer())) {
                consumer.subscribe(List.of(requestsTopic));
                while (running) {
                    for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                        GateRequest request = (GateRequest) cloudEvents
                                .fromRecord(record.key(), record.headers(), record.value())
                                .message();
                        seen.add(request);
                        this.script.apply(request).ifPresent(outcome -> answer(request, outcome));
                    }
                }
            }
            return null;
        });
    }

    /** Signs every verdict from now on with {@code key}, known to the gatekeeper as {@code id}. */
    void signWith(PrivateKey key, String id) {
        this.signingKey = key;
        this.keyId = id;
    }

    /** Changes how future requests are answered. */
    void script(Function<GateRequest, Optional<Outcome>> newScript) {
        this.script = newScript;
    }

    List<GateRequest> seen() {
        return List.copyOf(seen);
    }

    /** Publishes a verdict on {@code request} now. */
    void answer(GateRequest request, Outcome outcome) {
        Verdict verdict = Verdict.answering(
                request,
                name,
                outcome,
                outcome == Outcome.PASS ? "ChecksPassed" : outcome == Outcome.FAIL ? "ChecksFailed" : "StillChecking",
                name + " says " + outcome,
                null,
                Instant.now());
        try {
            Map<String, String> extensions = signingKey == null
                    ? Map.of()
                    : Map.of(CloudEventsKafka.JWS_EXTENSION, VerdictSignatures.sign(verdict, signingKey, keyId));
            producer.send(cloudEvents.toRecord(
                            verdictsTopic,
                            verdict,
                            UUID.randomUUID().toString(),
                            URI.create("/hooks/" + name),
                            OffsetDateTime.now(ZoneOffset.UTC),
                            extensions))
                    .get();
        } catch (Exception e) {
            throw new IllegalStateException("could not publish a verdict", e);
        }
    }

    /** Stops consuming, as a hook that crashed: its consumer leaves the group. */
    void stopConsuming() throws InterruptedException {
        running = false;
        loop.shutdown();
        loop.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        stopConsuming();
        producer.close();
    }
}
