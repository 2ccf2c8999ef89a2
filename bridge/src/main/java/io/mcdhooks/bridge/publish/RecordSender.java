package io.mcdhooks.bridge.publish;

import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Sends one record and completes when the broker has acknowledged it. Keys are bytes, so a record
 * refused by a consumer can be passed on (to the dead-letter topic) exactly as it came.
 */
@FunctionalInterface
public interface RecordSender {

    Future<Void> send(ProducerRecord<byte[], byte[]> record);

    /** {@code record} with its key as UTF-8 bytes, as Kafka's string serializer writes it. */
    static ProducerRecord<byte[], byte[]> withKeyBytes(ProducerRecord<String, byte[]> record) {
        return new ProducerRecord<>(
                record.topic(),
                record.partition(),
                record.timestamp(),
                record.key() == null ? null : record.key().getBytes(StandardCharsets.UTF_8),
                record.value(),
                record.headers());
    }
}
