package io.mcdhooks.bridge.gatekeeper;

import io.mcdhooks.bridge.gate.VerdictRecord;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.kafka.client.consumer.KafkaReadStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link VerdictLog} over the Vert.x Kafka consumer. No consumer group: the gatekeeper assigns
 * itself every partition and seeks to where its read-back stopped, so what it has not decided on
 * is read again after a restart, and nothing is committed.
 */
final class KafkaVerdictLog implements VerdictLog {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaVerdictLog.class);

    private final KafkaReadStream<byte[], byte[]> consumer;
    private final String topic;

    /** Over a consumer of its own. */
    static KafkaVerdictLog create(Vertx vertx, KafkaSettings kafka, String topic, String clientId) {
        Map<String, Object> config = new HashMap<>(kafka.asMap());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaVerdictLog(
                KafkaReadStream.create(vertx, config, new ByteArrayDeserializer(), new ByteArrayDeserializer()), topic);
    }

    /** Over a consumer made elsewhere (Kafka's {@code MockConsumer} in tests). */
    static KafkaVerdictLog over(Vertx vertx, Consumer<byte[], byte[]> consumer, String topic) {
        return new KafkaVerdictLog(KafkaReadStream.create(vertx, consumer), topic);
    }

    private KafkaVerdictLog(KafkaReadStream<byte[], byte[]> consumer, String topic) {
        this.consumer = consumer;
        this.topic = topic;
    }

    @Override
    public Future<Void> follow(Map<TopicPartition, Long> from, Handler<VerdictRecord> handler) {
        consumer.handler(record -> handler.handle(record(record)));
        consumer.exceptionHandler(e -> LOG.atWarn().setCause(e).log("verdict consumer failed; it goes on"));
        return consumer.partitionsFor(topic).compose(infos -> {
            Set<TopicPartition> partitions = new HashSet<>();
            infos.forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
            return consumer.assign(partitions).compose(v -> {
                List<Future<Void>> seeks = new ArrayList<>();
                for (TopicPartition partition : partitions) {
                    Long offset = from.get(partition);
                    if (offset != null) {
                        seeks.add(consumer.seek(partition, offset));
                    }
                }
                return Future.all(seeks).mapEmpty();
            });
        });
    }

    @Override
    public Future<Void> close() {
        return consumer.close();
    }

    static VerdictRecord record(ConsumerRecord<byte[], byte[]> record) {
        List<CloudEventsKafka.Header> headers = new ArrayList<>();
        for (Header header : record.headers()) {
            headers.add(new CloudEventsKafka.Header(header.key(), header.value()));
        }
        return new VerdictRecord(
                record.topic(),
                record.partition(),
                record.offset(),
                record.key(),
                headers,
                record.value(),
                record.timestampType() == TimestampType.LOG_APPEND_TIME
                        ? Instant.ofEpochMilli(record.timestamp())
                        : null);
    }
}
