package io.mcdhooks.bridge.publish;

import org.apache.kafka.clients.producer.ProducerRecord;

import io.vertx.core.Future;

/** Sends one record and completes when the broker has acknowledged it. */
@FunctionalInterface
public interface RecordSender {

    Future<Void> send(ProducerRecord<String, byte[]> record);
}
