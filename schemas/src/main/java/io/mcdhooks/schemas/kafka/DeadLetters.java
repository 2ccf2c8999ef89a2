package io.mcdhooks.schemas.kafka;

import io.mcdhooks.schemas.codec.RejectReason;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * Records a consumer cannot accept go to the dead-letter topic unchanged (key, value and original
 * headers), with headers that say why and where they came from. Nothing is lost, and nothing
 * malformed reaches a gate.
 */
public final class DeadLetters {

    /** The {@link RejectReason}, or {@code PROCESSING_ERROR} for a failure after decoding. */
    public static final String REASON = "mcdhooks.dlq.reason";
    /** The full error text, naming the message kind and field. */
    public static final String ERROR = "mcdhooks.dlq.error";

    public static final String ORIGINAL_TOPIC = "mcdhooks.dlq.topic";
    public static final String ORIGINAL_PARTITION = "mcdhooks.dlq.partition";
    public static final String ORIGINAL_OFFSET = "mcdhooks.dlq.offset";
    /** Who refused it: a component or hook name. */
    public static final String CONSUMER = "mcdhooks.dlq.consumer";

    /** Error texts are cut to this many characters so a dead letter never outgrows its original. */
    static final int MAX_ERROR_CHARS = 4096;

    private DeadLetters() {}

    /** The dead letter for {@code record}, refused by {@code consumer} for {@code reason}. */
    public static ProducerRecord<byte[], byte[]> of(
            ConsumerRecord<byte[], byte[]> record,
            String deadLetterTopic,
            String consumer,
            String reason,
            String error) {
        ProducerRecord<byte[], byte[]> letter =
                new ProducerRecord<>(deadLetterTopic, null, record.key(), record.value(), record.headers());
        Headers headers = letter.headers();
        put(headers, REASON, reason);
        put(headers, ERROR, error.length() > MAX_ERROR_CHARS ? error.substring(0, MAX_ERROR_CHARS) : error);
        put(headers, ORIGINAL_TOPIC, record.topic());
        put(headers, ORIGINAL_PARTITION, Integer.toString(record.partition()));
        put(headers, ORIGINAL_OFFSET, Long.toString(record.offset()));
        put(headers, CONSUMER, consumer);
        return letter;
    }

    private static void put(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
