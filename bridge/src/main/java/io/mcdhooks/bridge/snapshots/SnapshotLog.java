package io.mcdhooks.bridge.snapshots;

import io.mcdhooks.bridge.rollback.ConfigSnapshot;
import io.mcdhooks.bridge.rollback.SnapshotCodec;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The compacted topic of config snapshots: one record per cluster, pool and rendered config, its
 * value sealed with the cluster's state key in a header; a record with no value (a tombstone) lets
 * one go. One topic serves a fleet: each bridge reads only its cluster's keys.
 */
public final class SnapshotLog {

    /** The header holding a snapshot's seal. */
    public static final String SEAL_HEADER = "mcdhooks_seal";

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotLog.class);
    private static final Duration POLL = Duration.ofMillis(500);
    /** How long a topic that is not in the broker's metadata is waited for. */
    private static final Duration TOPIC_WAIT = Duration.ofSeconds(30);

    private static final Duration RETRY = Duration.ofMillis(200);

    private SnapshotLog() {}

    /** The record that stores {@code sealed} under its snapshot's key. */
    public static ProducerRecord<byte[], byte[]> record(String topic, String key, SnapshotCodec.Sealed sealed) {
        var record = new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), sealed.value());
        record.headers().add(SEAL_HEADER, sealed.seal().getBytes(StandardCharsets.US_ASCII));
        return record;
    }

    /** The tombstone that lets the snapshot under {@code key} go. */
    public static ProducerRecord<byte[], byte[]> tombstone(String topic, String key) {
        return new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), null);
    }

    /**
     * Every snapshot of {@code cluster} the topic holds, by key, from its start to the end it had
     * when the read began. A record this cluster's bridge did not seal is skipped and counted, never
     * read as a snapshot. Blocking: call it from a worker thread.
     */
    public static Map<String, ConfigSnapshot> read(
            KafkaSettings settings, String topic, String cluster, SnapshotCodec codec, Duration timeout) {
        Map<String, Object> config = new HashMap<>(settings.asMap());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "mcdhooks-bridge-snapshots");
        String prefix = cluster + "/";
        Map<String, ConfigSnapshot> snapshots = new HashMap<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = partitions(consumer, topic, TOPIC_WAIT);
            List<TopicPartition> partitions = new ArrayList<>();
            infos.forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            long refused = 0;
            while (!caughtUp(consumer, partitions, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " within " + timeout);
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
                    String key = record.key();
                    if (key == null || !key.startsWith(prefix)) {
                        continue;
                    }
                    if (record.value() == null) {
                        snapshots.remove(key);
                        continue;
                    }
                    var snapshot = codec.decode(key, record.value(), seal(record));
                    if (snapshot.isPresent()) {
                        snapshots.put(key, snapshot.get());
                    } else {
                        refused++;
                    }
                }
            }
            if (refused > 0) {
                LOG.atWarn()
                        .addKeyValue("topic", topic)
                        .addKeyValue("records", refused)
                        .log("skipped snapshot records this cluster's bridge did not seal, or that were altered");
            }
        }
        return snapshots;
    }

    /**
     * The topic's partitions. A topic created a moment ago (MCDHOOKS_CREATE_TOPICS) may not be in
     * the metadata a broker serves yet, and a busy broker may not answer within one ask: asked
     * again for a while before it counts as missing.
     */
    static List<PartitionInfo> partitions(Consumer<?, ?> consumer, String topic, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            try {
                List<PartitionInfo> infos = consumer.partitionsFor(topic, POLL);
                if (infos != null && !infos.isEmpty()) {
                    return infos;
                }
            } catch (TimeoutException e) {
                // No answer within POLL: the same as no topic yet, until the deadline.
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no topic " + topic
                        + ": create it (deploy/base/kafka/topics.yaml) or set MCDHOOKS_CONFIG_SNAPSHOTS_TOPIC");
            }
            // An empty answer comes back at once: ask again shortly, not in a tight loop.
            try {
                Thread.sleep(RETRY.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for topic " + topic, e);
            }
        }
    }

    private static String seal(ConsumerRecord<String, byte[]> record) {
        Header header = record.headers().lastHeader(SEAL_HEADER);
        return header == null ? null : new String(header.value(), StandardCharsets.US_ASCII);
    }

    private static boolean caughtUp(
            KafkaConsumer<?, ?> consumer, List<TopicPartition> partitions, Map<TopicPartition, Long> end) {
        return partitions.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp));
    }
}
