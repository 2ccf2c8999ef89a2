package io.mcdhooks.hooks.runner;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/** Where the runner reads GateRequests from: the small part of a Kafka consumer it uses. */
public interface GateRequestLog {

    /** Starts delivering records to {@code records}; {@code revoked} hears of partitions lost. */
    Future<Void> start(Handler<ConsumerRecord<byte[], byte[]>> records, Handler<Set<TopicPartition>> revoked);

    void pause();

    void resume();

    /** Commits {@code nextOffset} (a processed record's offset + 1) for {@code partition}. */
    Future<Void> commit(TopicPartition partition, long nextOffset);

    Future<Void> close();
}
