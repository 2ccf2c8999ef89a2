package io.mcdhooks.bridge.publish;

import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.codec.InvalidMessageException;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads back what this cluster's bridge published, so that after a restart it knows what is
 * already on Kafka. Reads each partition from {@code lookback} ago up to the end it had when the
 * read began; other clusters' messages (one Kafka can serve a fleet) are skipped.
 *
 * <p>Blocking: call it from a worker thread.
 */
public final class PublishedLog {

    private static final Logger LOG = LoggerFactory.getLogger(PublishedLog.class);
    private static final Duration POLL = Duration.ofMillis(500);

    private PublishedLog() {}

    /**
     * Hands every message of {@code cluster} found in {@code topics} to {@code sink}, in log order
     * per partition, and returns where the read stopped: the end offset of every partition.
     *
     * @param cluster only this cluster's messages; {@code null} for every cluster's
     */
    public static Map<TopicPartition, Long> read(
            KafkaSettings settings,
            List<String> topics,
            String cluster,
            Duration lookback,
            Duration timeout,
            CloudEventsKafka cloudEvents,
            Clock clock,
            Consumer<Message> sink) {
        Map<String, Object> config = new HashMap<>(settings.asMap());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "mcdhooks-bridge-recovery");
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
                if (infos != null) {
                    infos.forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
                }
            }
            if (partitions.isEmpty()) {
                return Map.of();
            }
            consumer.assign(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            long since = clock.millis() - lookback.toMillis();
            Map<TopicPartition, Long> query = new HashMap<>();
            partitions.forEach(tp -> query.put(tp, since));
            Map<TopicPartition, OffsetAndTimestamp> start = consumer.offsetsForTimes(query, timeout);
            for (TopicPartition tp : partitions) {
                OffsetAndTimestamp from = start.get(tp);
                consumer.seek(tp, from == null ? end.get(tp) : from.offset());
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!caughtUp(consumer, partitions, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read back " + topics + " within " + timeout);
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
                    try {
                        Message message = cloudEvents
                                .fromRecord(record.key(), record.headers(), record.value())
                                .message();
                        if (cluster == null || cluster.equals(message.cluster())) {
                            sink.accept(message);
                        }
                    } catch (InvalidMessageException e) {
                        LOG.atWarn()
                                .addKeyValue("topic", record.topic())
                                .addKeyValue("partition", record.partition())
                                .addKeyValue("offset", record.offset())
                                .log("skipping unreadable record: {}", e.getMessage());
                    }
                }
            }
            return end;
        }
    }

    private static boolean caughtUp(
            KafkaConsumer<?, ?> consumer, List<TopicPartition> partitions, Map<TopicPartition, Long> end) {
        for (TopicPartition tp : partitions) {
            if (consumer.position(tp) < end.get(tp)) {
                return false;
            }
        }
        return true;
    }
}
