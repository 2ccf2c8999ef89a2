package io.mcdhooks.bridge.gate;

import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * One record of the verdicts topic as the gatekeeper took it, in none of a client's types: where
 * it came from, and its key, headers and value as they came (a refused record goes to the
 * dead-letter topic unchanged).
 *
 * @param key      the record key, or {@code null}
 * @param value    the record value, or {@code null}
 * @param loggedAt when the broker appended it, if the topic stamps records so
 *                 ({@code message.timestamp.type=LogAppendTime}, which no producer can set);
 *                 {@code null} otherwise
 */
public record VerdictRecord(
        String topic,
        int partition,
        long offset,
        byte[] key,
        List<CloudEventsKafka.Header> headers,
        byte[] value,
        Instant loggedAt) {

    public VerdictRecord {
        headers = List.copyOf(headers);
    }

    /** A record of a topic whose timestamps its producers set. */
    public VerdictRecord(
            String topic, int partition, long offset, byte[] key, List<CloudEventsKafka.Header> headers, byte[] value) {
        this(topic, partition, offset, key, headers, value, null);
    }

    /** The key as text, as the codec compares it with the message's key. */
    public String keyText() {
        return key == null ? null : new String(key, StandardCharsets.UTF_8);
    }
}
