package io.mcdhooks.hooks.runner;

import io.vertx.core.Future;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Where verdicts and dead letters go; a future completes once the broker has the record. */
public interface RecordPublisher {

    Future<Void> send(ProducerRecord<byte[], byte[]> record);

    Future<Void> close();
}
