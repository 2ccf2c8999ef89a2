package io.mcdhooks.bridge.publish;

import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.kafka.client.producer.KafkaProducer;
import io.vertx.kafka.client.producer.KafkaProducerRecord;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** {@link RecordSender} over the Vert.x Kafka producer: idempotent, acks from all in-sync replicas. */
public final class KafkaRecordSender implements RecordSender, AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;

    public KafkaRecordSender(Vertx vertx, KafkaSettings settings, String clientId) {
        Map<String, String> config = new HashMap<>(settings.asMap());
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, "0");
        // A send gives up after this; the outbox then retries it, so nothing is dropped.
        config.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        config.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        this.producer = KafkaProducer.create(vertx, config, new ByteArraySerializer(), new ByteArraySerializer());
        // Each send's own future reports its failure to the Outbox, which retries; nothing else to do.
        this.producer.exceptionHandler(e -> {});
    }

    @Override
    public Future<Void> send(ProducerRecord<byte[], byte[]> record) {
        KafkaProducerRecord<byte[], byte[]> out =
                KafkaProducerRecord.create(record.topic(), record.key(), record.value());
        for (Header header : record.headers()) {
            out.addHeader(header.key(), Buffer.buffer(header.value()));
        }
        return producer.send(out).mapEmpty();
    }

    public Future<Void> closeAsync() {
        return producer.close();
    }

    @Override
    public void close() {
        producer.close();
    }
}
