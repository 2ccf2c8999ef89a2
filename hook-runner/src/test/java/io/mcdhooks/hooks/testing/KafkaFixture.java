package io.mcdhooks.hooks.testing;

import static org.awaitility.Awaitility.await;

import io.mcdhooks.hooks.api.Hook;
import io.mcdhooks.hooks.runner.HookRunnerConfig;
import io.mcdhooks.hooks.runner.HookRunnerVerticle;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.vertx.core.Vertx;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One test's Kafka world: its own topics on the shared broker, a producer of GateRequests, a reader
 * of everything on the verdicts and dead-letter topics, and runners deployed on one Vert.x.
 */
public final class KafkaFixture implements AutoCloseable {

    public final String requestsTopic;
    public final String verdictsTopic;
    public final String deadLetterTopic;
    private final KafkaBroker broker;
    private final Vertx vertx = Vertx.vertx();
    private final KafkaProducer<byte[], byte[]> producer;
    private final CloudEventsKafka cloudEvents = new CloudEventsKafka(new MessageCodec());
    private final List<String> deployments = new ArrayList<>();
    private final Reader verdicts;
    private final Reader deadLetters;

    public KafkaFixture(KafkaBroker broker) {
        this.broker = broker;
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        requestsTopic = "requests-" + suffix;
        verdictsTopic = "verdicts-" + suffix;
        deadLetterTopic = "dlq-" + suffix;
        producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ProducerConfig.ACKS_CONFIG,
                        "all"),
                new ByteArraySerializer(),
                new ByteArraySerializer());
        verdicts = new Reader(verdictsTopic);
        deadLetters = new Reader(deadLetterTopic);
    }

    public Vertx vertx() {
        return vertx;
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** The runner's environment for this fixture's topics, fast timings, plus {@code pairs}. */
    public Map<String, String> env(String hookName, String... pairs) {
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers());
        env.put("MCDHOOKS_HOOK_NAME", hookName);
        env.put("MCDHOOKS_GATE_REQUESTS_TOPIC", requestsTopic);
        env.put("MCDHOOKS_VERDICTS_TOPIC", verdictsTopic);
        env.put("MCDHOOKS_DEAD_LETTER_TOPIC", deadLetterTopic);
        env.put("MCDHOOKS_HEARTBEAT_INTERVAL", "300ms");
        env.put("MCDHOOKS_RETRY_BACKOFF", "200ms");
        env.put("MCDHOOKS_RETRY_BACKOFF_MAX", "1s");
        env.put("MCDHOOKS_SHUTDOWN_TIMEOUT", "5s");
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return env;
    }

    public HookRunnerVerticle deploy(Hook hook, HookRunnerConfig config) throws Exception {
        HookRunnerVerticle runner = new HookRunnerVerticle(hook, config);
        deployments.add(vertx.deployVerticle(runner)
                .toCompletionStage()
                .toCompletableFuture()
                .get(60, TimeUnit.SECONDS));
        return runner;
    }

    public void undeployAll() throws Exception {
        for (String id : deployments) {
            vertx.undeploy(id).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        }
        deployments.clear();
    }

    public void createTopic(String topic, int partitions) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    public RecordMetadata publish(GateRequest request) throws Exception {
        ProducerRecord<String, byte[]> record = cloudEvents.toRecord(
                requestsTopic,
                request,
                UUID.randomUUID().toString(),
                URI.create("/clusters/" + request.cluster() + "/bridge"),
                OffsetDateTime.now(),
                Map.of());
        return publishRaw(new ProducerRecord<>(
                requestsTopic, null, record.key().getBytes(StandardCharsets.UTF_8), record.value(), record.headers()));
    }

    public RecordMetadata publishRaw(ProducerRecord<byte[], byte[]> record) throws Exception {
        return producer.send(record).get(30, TimeUnit.SECONDS);
    }

    /** Everything on the verdicts topic so far. */
    public List<ConsumerRecord<byte[], byte[]>> verdictRecords() {
        return verdicts.poll();
    }

    public List<Verdict> verdicts() {
        return verdictRecords().stream().map(this::verdict).toList();
    }

    public List<Verdict> verdictsFor(GateRequest request) {
        return verdicts().stream()
                .filter(v -> v.gateId().equals(request.gateId()))
                .toList();
    }

    public List<Verdict> finalVerdictsFor(GateRequest request) {
        return verdictsFor(request).stream()
                .filter(v -> v.outcome() != Outcome.PENDING)
                .toList();
    }

    public Verdict awaitFinalVerdict(GateRequest request, Duration atMost) {
        await().atMost(atMost).until(() -> !finalVerdictsFor(request).isEmpty());
        return finalVerdictsFor(request).get(0);
    }

    public List<ConsumerRecord<byte[], byte[]>> deadLetters() {
        return deadLetters.poll();
    }

    public Verdict verdict(ConsumerRecord<byte[], byte[]> record) {
        try {
            return (Verdict) cloudEvents
                    .fromRecord(new String(record.key(), StandardCharsets.UTF_8), record.headers(), record.value())
                    .message();
        } catch (Exception e) {
            throw new AssertionError("not a valid verdict on " + record.topic(), e);
        }
    }

    /** The offset the group committed on partition 0 of the requests topic, or -1. */
    public long committed(String group) throws Exception {
        return committed(group, 0);
    }

    public long committed(String group, int partition) throws Exception {
        try (Admin admin = admin()) {
            OffsetAndMetadata offset = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS)
                    .get(new TopicPartition(requestsTopic, partition));
            return offset == null ? -1 : offset.offset();
        }
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    @Override
    public void close() throws Exception {
        try {
            undeployAll();
        } finally {
            verdicts.close();
            deadLetters.close();
            producer.close();
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    /** Reads a topic from the start, every partition, without a group. */
    private final class Reader implements AutoCloseable {
        private final String topic;
        private final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        private KafkaConsumer<byte[], byte[]> consumer;

        private Reader(String topic) {
            this.topic = topic;
        }

        synchronized List<ConsumerRecord<byte[], byte[]>> poll() {
            if (consumer == null) {
                consumer = new KafkaConsumer<>(
                        Map.of(
                                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                broker.bootstrapServers(),
                                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                                "earliest",
                                ConsumerConfig.GROUP_ID_CONFIG,
                                "test-reader-" + UUID.randomUUID(),
                                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                                "false"),
                        new ByteArrayDeserializer(),
                        new ByteArrayDeserializer());
                consumer.subscribe(List.of(topic));
            }
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            return List.copyOf(records);
        }

        @Override
        public synchronized void close() {
            if (consumer != null) {
                consumer.close();
            }
        }
    }
}
