package io.mcdhooks.hooks.runner;

import io.mcdhooks.schemas.kafka.Partitions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.kafka.client.consumer.KafkaReadStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GateRequests topic through Vert.x's Kafka consumer, offsets committed by hand only. A shared
 * runner subscribes with its hook's consumer group; a node-local runner assigns itself just the
 * partition its node's key hashes to, so it never fetches other nodes' records.
 */
final class KafkaGateRequestLog implements GateRequestLog {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaGateRequestLog.class);

    private final HookRunnerConfig config;
    private final KafkaReadStream<byte[], byte[]> consumer;

    KafkaGateRequestLog(Vertx vertx, HookRunnerConfig config) {
        this.config = config;
        Map<String, Object> settings = new HashMap<>(config.kafka().asMap());
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, config.consumerGroup());
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        settings.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        settings.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "mcdhooks-hook-" + config.hookName());
        this.consumer =
                KafkaReadStream.create(vertx, settings, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Override
    public Future<Void> start(Handler<ConsumerRecord<byte[], byte[]>> records, Handler<Set<TopicPartition>> revoked) {
        consumer.exceptionHandler(e ->
                LOG.atWarn().addKeyValue("hook", config.hookName()).setCause(e).log("Kafka consumer error"));
        consumer.handler(records);
        String topic = config.gateRequestsTopic();
        if (!config.nodeLocal()) {
            consumer.partitionsRevokedHandler(revoked);
            return consumer.subscribe(Set.of(topic));
        }
        return consumer.partitionsFor(topic).compose(partitions -> assignNodePartition(topic, partitions));
    }

    private Future<Void> assignNodePartition(String topic, List<PartitionInfo> partitions) {
        if (partitions.isEmpty()) {
            return Future.failedFuture("topic " + topic + " has no partitions (does it exist?)");
        }
        TopicPartition mine = new TopicPartition(topic, Partitions.forKey(config.nodeName(), partitions.size()));
        LOG.atInfo()
                .addKeyValue("hook", config.hookName())
                .addKeyValue("node", config.nodeName())
                .addKeyValue("topic", topic)
                .addKeyValue("partition", mine.partition())
                .log("node-local: reading only the node's partition");
        return consumer.assign(Set.of(mine));
    }

    @Override
    public void pause() {
        consumer.pause();
    }

    @Override
    public void resume() {
        consumer.resume();
    }

    @Override
    public Future<Void> commit(TopicPartition partition, long nextOffset) {
        return consumer.commit(Map.of(partition, new OffsetAndMetadata(nextOffset)))
                .mapEmpty();
    }

    @Override
    public Future<Void> close() {
        return consumer.close();
    }
}
