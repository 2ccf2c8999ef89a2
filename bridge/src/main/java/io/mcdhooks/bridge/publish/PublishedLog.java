package io.mcdhooks.bridge.publish;

import io.mcdhooks.bridge.gate.VerdictRecord;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.codec.InvalidMessageException;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.sign.StateSeal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads back what this cluster's bridge published, so that after a restart it knows what is
 * already on Kafka. Reads each partition from {@code lookback} ago up to the end it had when the
 * read began; other clusters' messages (one Kafka can serve a fleet) are skipped. What it reads
 * is on Kafka, not proven: a verdict read back is judged by the same screen as a live one.
 *
 * <p>Blocking: call it from a worker thread.
 */
public final class PublishedLog {

    private static final Logger LOG = LoggerFactory.getLogger(PublishedLog.class);
    private static final Duration POLL = Duration.ofMillis(500);

    private PublishedLog() {}

    /**
     * A message read back, with the record it came in as it came, headers and all: a verdict
     * read back is screened again, its signature included, like one arriving live.
     */
    public record Recovered(Message message, VerdictRecord record) {}

    /**
     * Hands every message of {@code cluster} found in {@code topics} to {@code sink}, in log order
     * per partition, and returns where the read stopped: the end offset of every partition.
     *
     * @param cluster only this cluster's messages; {@code null} for every cluster's
     * @param seal    this cluster's state seal: lifecycle events, requests and decisions without it
     *                are skipped (not this bridge's); {@code null} to read them all (the CLI)
     */
    public static Map<TopicPartition, Long> read(
            KafkaSettings settings,
            List<String> topics,
            String cluster,
            StateSeal seal,
            Duration lookback,
            Duration timeout,
            CloudEventsKafka cloudEvents,
            Clock clock,
            Consumer<Recovered> sink) {
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
            long unreadable = 0;
            long unsealed = 0;
            while (!caughtUp(consumer, partitions, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read back " + topics + " within " + timeout);
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
                    try {
                        CloudEventsKafka.Received received =
                                cloudEvents.fromRecord(record.key(), record.headers(), record.value());
                        Message message = received.message();
                        if (cluster != null && !cluster.equals(message.cluster())) {
                            continue;
                        }
                        if (seal != null && !sealed(seal, received, record)) {
                            unsealed++;
                            continue;
                        }
                        sink.accept(new Recovered(message, raw(record)));
                    } catch (InvalidMessageException e) {
                        // Refused when it came (the dead-letter topic has it): one line for all below.
                        unreadable++;
                        LOG.atDebug()
                                .addKeyValue("topic", record.topic())
                                .addKeyValue("partition", record.partition())
                                .addKeyValue("offset", record.offset())
                                .log("skipping unreadable record: {}", e.getMessage());
                    }
                }
            }
            if (unsealed > 0) {
                LOG.atWarn()
                        .log(
                                "ignored {} records of {} in this cluster's name without its seal: not written by its bridge",
                                unsealed,
                                topics);
            }
            if (unreadable > 0) {
                LOG.atWarn().log("skipped {} unreadable records of {}", unreadable, topics);
            }
            return end;
        }
    }

    /** Verdicts are the hooks' (the verdict screen judges them); everything else must be this bridge's. */
    private static boolean sealed(
            StateSeal seal, CloudEventsKafka.Received received, ConsumerRecord<String, byte[]> record) {
        if (received.message() instanceof Verdict) {
            return true;
        }
        return seal.verifies(
                received.message().cluster(),
                received.message().kind().cloudEventType(),
                received.id(),
                record.value(),
                CloudEventsKafka.header(record.headers(), "ce_" + StateSeal.EXTENSION));
    }

    private static VerdictRecord raw(ConsumerRecord<String, byte[]> record) {
        List<CloudEventsKafka.Header> headers = new ArrayList<>();
        for (Header header : record.headers()) {
            headers.add(new CloudEventsKafka.Header(header.key(), header.value()));
        }
        byte[] key = record.key() == null ? null : record.key().getBytes(StandardCharsets.UTF_8);
        return new VerdictRecord(
                record.topic(),
                record.partition(),
                record.offset(),
                key,
                headers,
                record.value(),
                record.timestampType() == TimestampType.LOG_APPEND_TIME
                        ? Instant.ofEpochMilli(record.timestamp())
                        : null);
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
