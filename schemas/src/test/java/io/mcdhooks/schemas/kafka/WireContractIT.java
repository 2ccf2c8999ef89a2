package io.mcdhooks.schemas.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.kafka.junit.KafkaBrokerExtension;
import io.mcdhooks.schemas.Examples;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.codec.InvalidMessageException;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.codec.RejectReason;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every message kind through a real broker: headers on the wire, and back equal. */
@ExtendWith(KafkaBrokerExtension.class)
class WireContractIT {

    private final MessageCodec codec = new MessageCodec();
    private final CloudEventsKafka cloudEvents = new CloudEventsKafka(codec);

    @Test
    void everyExampleMessageCrossesTheBrokerWithItsCloudEventsHeadersAndComesBackEqual(KafkaBroker broker)
            throws Exception {
        // Given every example message, sent as a CloudEvent to its own topic
        String topic = "wire-contract-" + UUID.randomUUID();
        List<Message> sent = new ArrayList<>();
        try (KafkaProducer<String, byte[]> producer = producer(broker)) {
            for (Path file : Examples.in("examples").toList()) {
                Message message = codec.decode(Examples.kindOf(file), Examples.read(file));
                sent.add(message);
                producer.send(cloudEvents.toRecord(
                                topic,
                                message,
                                "id-" + sent.size(),
                                URI.create("/clusters/" + message.cluster() + "/test"),
                                OffsetDateTime.parse("2026-11-30T10:00:00Z"),
                                Map.of()))
                        .get();
            }
        }

        // When they are read back from the broker
        List<ConsumerRecord<String, byte[]>> records = readAll(broker, topic, sent.size());

        // Then each carries its CloudEvents headers and key, and decodes to what was sent
        for (int i = 0; i < sent.size(); i++) {
            Message expected = sent.get(i);
            ConsumerRecord<String, byte[]> record = records.get(i);
            assertThat(record.key()).isEqualTo(expected.key());
            assertThat(header(record, "ce_specversion")).isEqualTo("1.0");
            assertThat(header(record, "ce_type")).isEqualTo(expected.kind().cloudEventType());
            assertThat(header(record, "ce_id")).isEqualTo("id-" + (i + 1));
            assertThat(header(record, "ce_source")).isEqualTo("/clusters/" + expected.cluster() + "/test");
            assertThat(header(record, "ce_time")).isNotNull();
            assertThat(header(record, "ce_cluster")).isEqualTo(expected.cluster());
            assertThat(header(record, "ce_partitionkey")).isEqualTo(expected.key());
            assertThat(header(record, "ce_subject")).isEqualTo(expected.key());
            assertThat(header(record, "content-type")).isEqualTo("application/json");
            assertThat(cloudEvents
                            .fromRecord(record.key(), record.headers(), record.value())
                            .message())
                    .isEqualTo(expected);
        }
    }

    @Test
    void aMalformedMessageFromTheBrokerIsRejectedNamingTheField(KafkaBroker broker) throws Exception {
        // Given a verdict whose outcome is not one the contract knows, sent with valid headers
        String topic = "wire-contract-bad-" + UUID.randomUUID();
        Path file = Examples.in("examples")
                .filter(p -> p.getFileName().toString().equals("verdict.v1.pass.json"))
                .findFirst()
                .orElseThrow();
        Message verdict = codec.decode(Examples.kindOf(file), Examples.read(file));
        ProducerRecord<String, byte[]> good =
                cloudEvents.toRecord(topic, verdict, "id-x", URI.create("/t"), OffsetDateTime.now(), Map.of());
        byte[] tampered = new String(good.value(), StandardCharsets.UTF_8)
                .replace("\"PASS\"", "\"OK\"")
                .getBytes(StandardCharsets.UTF_8);
        try (KafkaProducer<String, byte[]> producer = producer(broker)) {
            producer.send(new ProducerRecord<>(topic, null, good.key(), tampered, good.headers()))
                    .get();
        }

        // When it is read back
        ConsumerRecord<String, byte[]> record = readAll(broker, topic, 1).get(0);

        // Then it is refused, naming the kind and the field
        assertThatThrownBy(() -> cloudEvents.fromRecord(record.key(), record.headers(), record.value()))
                .isInstanceOfSatisfying(InvalidMessageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(RejectReason.SCHEMA_VIOLATION);
                    assertThat(e.getMessage()).startsWith("invalid Verdict").contains("$.outcome");
                });
    }

    private static KafkaProducer<String, byte[]> producer(KafkaBroker broker) {
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        true),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    private static List<ConsumerRecord<String, byte[]>> readAll(KafkaBroker broker, String topic, int expected) {
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "wire-contract-" + UUID.randomUUID(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return records.size() >= expected;
            });
        }
        return records;
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        return CloudEventsKafka.header(record.headers(), name);
    }
}
