package io.mcdhooks.bridge.gatekeeper;

import io.mcdhooks.bridge.gate.VerdictRecord;
import io.mcdhooks.bridge.metrics.BridgeMetrics;
import io.mcdhooks.bridge.publish.RecordSender;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.DeadLetters;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends refused records of the verdicts topic to the dead-letter topic, unchanged and with why
 * ({@link DeadLetters}), through the bridge's one record sender, and counts them.
 */
final class DeadLetterSink {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterSink.class);

    private final RecordSender sender;
    private final String topic;
    private final BridgeMetrics metrics;
    private long sent;

    DeadLetterSink(RecordSender sender, String topic, BridgeMetrics metrics) {
        this.sender = sender;
        this.topic = topic;
        this.metrics = metrics;
    }

    void refuse(VerdictRecord record, String reason, String error) {
        sent++;
        metrics.deadLetter(reason);
        ConsumerRecord<byte[], byte[]> original =
                new ConsumerRecord<>(record.topic(), record.partition(), record.offset(), record.key(), record.value());
        for (CloudEventsKafka.Header header : record.headers()) {
            original.headers().add(header.key(), header.value());
        }
        sender.send(DeadLetters.of(original, topic, "gatekeeper", reason, error))
                .onFailure(e -> LOG.atError()
                        .addKeyValue("topic", record.topic())
                        .addKeyValue("offset", record.offset())
                        .setCause(e)
                        .log("could not dead-letter a refused record"));
        // Debug only: a flood of garbage must not flood the log; the metric and the topic keep count.
        LOG.atDebug()
                .addKeyValue("topic", record.topic())
                .addKeyValue("partition", record.partition())
                .addKeyValue("offset", record.offset())
                .log("refused: {}", error);
    }

    /** Records refused so far. */
    long sent() {
        return sent;
    }
}
