package io.mcdhooks.hooks.runner;

import org.apache.kafka.clients.producer.ProducerRecord;

import io.vertx.core.Future;

/** Where verdicts and dead letters go; a future completes once the broker has the record. */
public interface RecordPublisher {

    Future<Void> send(ProducerRecord<byte[], byte[]> record);

    Future<Void> close();
}
