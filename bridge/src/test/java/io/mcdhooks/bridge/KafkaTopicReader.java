package io.mcdhooks.bridge;

import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.codec.InvalidMessageException;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Follows topics from their beginning and keeps every record read, decoded, for assertions. */
final class KafkaTopicReader implements AutoCloseable {

    /** A record as read: its CloudEvents id and the message. */
    record Read(String topic, String id, Message message) {}

    private final KafkaConsumer<String, byte[]> consumer;
    private final CloudEventsKafka cloudEvents = new CloudEventsKafka(new MessageCodec());
    private final List<Read> read = new ArrayList<>();

    KafkaTopicReader(String bootstrapServers, List<String> topics) {
        consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "test-reader-" + UUID.randomUUID(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new ByteArrayDeserializer());
        consumer.subscribe(topics);
    }

    /** Polls once and returns everything read so far. */
    synchronized List<Read> poll() {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
            try {
                CloudEventsKafka.Received received =
                        cloudEvents.fromRecord(record.key(), record.headers(), record.value());
                read.add(new Read(record.topic(), received.id(), received.message()));
            } catch (InvalidMessageException e) {
                throw new AssertionError("the bridge published an invalid record", e);
            }
        }
        return List.copyOf(read);
    }

    @Override
    public void close() {
        consumer.close();
    }
}
