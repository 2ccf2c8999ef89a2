package io.mcdhooks.hooks.runner;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.kafka.client.producer.KafkaWriteStream;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Verdicts and dead letters through an idempotent producer that waits for every in-sync replica. */
final class KafkaRecordPublisher implements RecordPublisher {

    private final KafkaWriteStream<byte[], byte[]> producer;

    KafkaRecordPublisher(Vertx vertx, HookRunnerConfig config) {
        Map<String, Object> settings = new HashMap<>(config.kafka().asMap());
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        settings.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "mcdhooks-hook-" + config.hookName());
        this.producer = KafkaWriteStream.create(vertx, settings, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public Future<Void> send(ProducerRecord<byte[], byte[]> record) {
        return producer.send(record).mapEmpty();
    }

    @Override
    public Future<Void> close() {
        return producer.flush().eventually(producer::close);
    }
}
