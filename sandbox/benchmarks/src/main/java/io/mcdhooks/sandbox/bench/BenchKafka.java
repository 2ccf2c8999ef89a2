package io.mcdhooks.sandbox.bench;

import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.codec.InvalidMessageException;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Kafka clients with the settings the bridge and the hook runner use: producers idempotent with
 * {@code acks=all} and {@code linger.ms=0} (the bridge's {@code KafkaRecordSender}, the runner's
 * {@code KafkaRecordPublisher}); consumers in a group, manual commits, client defaults otherwise
 * (the runner's {@code KafkaGateRequestLog}).
 */
final class BenchKafka {

    static final CloudEventsKafka CLOUD_EVENTS = new CloudEventsKafka(new MessageCodec());

    private BenchKafka() {}

    static KafkaProducer<String, byte[]> producer(String bootstrap, String clientId) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        config.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }

    static KafkaConsumer<String, byte[]> groupConsumer(String bootstrap, String group) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
    }

    /** A consumer without a group, for reading topics by assignment. */
    static KafkaConsumer<String, byte[]> reader(String bootstrap) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
    }

    static void createTopics(String bootstrap, List<String> topics, int partitions) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(topics.stream()
                            .map(t -> new NewTopic(t, partitions, (short) 1))
                            .toList())
                    .all()
                    .get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted creating topics", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot create topics " + topics, e);
        }
    }

    /** A post-update gate request of the size the bridge publishes. */
    static GateRequest postUpdateRequest(String cluster, String node, String target) {
        Instant now = Instant.now();
        return new GateRequest(
                cluster,
                GateId.of(cluster, Stage.POST_UPDATE, node, target),
                1,
                Stage.POST_UPDATE,
                new GateRequest.PoolFacts("worker", "10%", 5000),
                new GateRequest.NodeFacts(
                        node,
                        "us-east-2a",
                        Map.of(
                                "kubernetes.io/hostname",
                                node,
                                "node-role.kubernetes.io/worker",
                                "",
                                "topology.kubernetes.io/zone",
                                "us-east-2a")),
                "rendered-worker-0123456789abcdef0123456789abcdef",
                target,
                new GateRequest.TargetFacts(
                        "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:0000",
                        "realtime",
                        List.of(),
                        List.of("systemd.unified_cgroup_hierarchy=1"),
                        null),
                now,
                now.plus(Duration.ofMinutes(30)));
    }

    static ProducerRecord<String, byte[]> record(String topic, Message message, String source) {
        return CLOUD_EVENTS.toRecord(
                topic,
                message,
                UUID.randomUUID().toString(),
                URI.create(source),
                OffsetDateTime.now(ZoneOffset.UTC),
                Map.of());
    }

    /** The message a record carries; the harness reads only what the system wrote, so anything else is a bug. */
    static Message decode(String key, Headers headers, byte[] value) {
        try {
            return CLOUD_EVENTS.fromRecord(key, headers, value).message();
        } catch (InvalidMessageException e) {
            throw new IllegalStateException("unreadable record: " + e.getMessage(), e);
        }
    }

    static ProducerRecord<String, byte[]> pass(String topic, GateRequest request, String hook) {
        Verdict verdict = Verdict.answering(request, hook, Outcome.PASS, "ChecksPassed", null, null, Instant.now());
        return record(topic, verdict, "/hooks/" + hook);
    }
}
