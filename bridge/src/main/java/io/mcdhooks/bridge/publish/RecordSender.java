package io.mcdhooks.bridge.publish;

import io.vertx.core.Future;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Sends one record and completes when the broker has acknowledged it. */
@FunctionalInterface
public interface RecordSender {

    Future<Void> send(ProducerRecord<String, byte[]> record);
}
