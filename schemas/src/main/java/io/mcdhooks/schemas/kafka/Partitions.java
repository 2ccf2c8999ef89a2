package io.mcdhooks.schemas.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/**
 * The partition a key lands on with Kafka's default partitioner (murmur2 of the key bytes).
 * Producers of this project always key records and never set a partitioner, so a node-local hook
 * can read just the partition that holds its node's records.
 */
public final class Partitions {

    private Partitions() {}

    public static int forKey(String key, int partitionCount) {
        if (partitionCount < 1) {
            throw new IllegalArgumentException("partitionCount must be at least 1, was " + partitionCount);
        }
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitionCount;
    }
}
