package io.mcdhooks.bridge.publish;

import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.sign.StateSeal;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes messages in order per record key and never drops one: a failed send is retried with
 * back-off, and later messages for the same key wait behind it, so a broker outage delays the
 * stream but neither loses nor reorders it. While anything has failed since the last success the
 * outbox reports itself unhealthy.
 *
 * <p>Confined to one Vert.x context: call it only from there.
 */
public final class Outbox {

    private static final Logger LOG = LoggerFactory.getLogger(Outbox.class);
    private static final Duration FIRST_RETRY = Duration.ofMillis(200);
    private static final Duration LAST_RETRY = Duration.ofSeconds(10);

    private final Vertx vertx;
    private final RecordSender sender;
    private final CloudEventsKafka cloudEvents;
    private final Map<Class<? extends Message>, String> topics;
    private final URI source;
    private final StateSeal seal;
    private final Consumer<String> onFailure;
    private final Map<String, ArrayDeque<Pending>> queues = new HashMap<>();
    private int pending;
    private boolean healthy = true;
    private long published;

    /**
     * @param topics the topic of each message type this outbox publishes
     * @param source the CloudEvents source of everything it publishes
     * @param seal   seals every record with this cluster's state key: a restart trusts only sealed ones
     * @param onFailure told the topic of every send that failed (and will be retried)
     */
    public Outbox(
            Vertx vertx,
            RecordSender sender,
            CloudEventsKafka cloudEvents,
            Map<Class<? extends Message>, String> topics,
            URI source,
            StateSeal seal,
            Consumer<String> onFailure) {
        this.seal = seal;
        this.onFailure = onFailure;
        this.vertx = vertx;
        this.sender = sender;
        this.cloudEvents = cloudEvents;
        this.topics = Map.copyOf(topics);
        this.source = source;
    }

    /** A record waiting to be sent, and who waits for its acknowledgement. */
    private record Pending(ProducerRecord<byte[], byte[]> record, Promise<Void> acknowledged) {}

    /**
     * Queues {@code outgoing} behind the messages of its key. The future completes once the broker
     * has acknowledged it; it never fails, since a failed send is retried until it succeeds.
     */
    public Future<Void> publish(Outgoing outgoing) {
        Message message = outgoing.message();
        String topic = topics.get(message.getClass());
        if (topic == null) {
            throw new IllegalArgumentException("no topic for " + message.kind());
        }
        ProducerRecord<String, byte[]> record = cloudEvents.toRecord(
                topic, message, outgoing.id(), source, outgoing.time().atOffset(ZoneOffset.UTC), Map.of());
        String stamp = seal.seal(message.cluster(), message.kind().cloudEventType(), outgoing.id(), record.value());
        record.headers().add("ce_" + StateSeal.EXTENSION, stamp.getBytes(StandardCharsets.US_ASCII));
        String queueKey = topic + '\u0000' + record.key();
        ArrayDeque<Pending> queue = queues.computeIfAbsent(queueKey, k -> new ArrayDeque<>());
        Promise<Void> acknowledged = Promise.promise();
        queue.addLast(new Pending(RecordSender.withKeyBytes(record), acknowledged));
        pending++;
        if (queue.size() == 1) {
            sendHead(queueKey, queue, FIRST_RETRY);
        }
        return acknowledged.future();
    }

    /** Messages handed in and not yet acknowledged by the broker. */
    public int pending() {
        return pending;
    }

    /** Messages acknowledged since start. */
    public long published() {
        return published;
    }

    /** False from a failed send until the next acknowledged one. */
    public boolean healthy() {
        return healthy;
    }

    private void sendHead(String queueKey, ArrayDeque<Pending> queue, Duration backoff) {
        ProducerRecord<byte[], byte[]> head = queue.peekFirst().record();
        sender.send(head).onComplete(result -> {
            if (result.succeeded()) {
                healthy = true;
                published++;
                pending--;
                Pending sent = queue.pollFirst();
                boolean more = !queue.isEmpty();
                if (!more) {
                    queues.remove(queueKey);
                }
                // Acknowledged before the next send: that one's future may be complete by the time
                // it is listened to (a busy machine), and its listeners must not hear it first.
                sent.acknowledged().complete();
                if (more) {
                    sendHead(queueKey, queue, FIRST_RETRY);
                }
            } else {
                healthy = false;
                onFailure.accept(head.topic());
                LOG.atWarn()
                        .addKeyValue("topic", head.topic())
                        .addKeyValue("key", queueKey.substring(head.topic().length() + 1))
                        .setCause(result.cause())
                        .log("publish failed; retrying in {} ms", backoff.toMillis());
                Duration next =
                        backoff.multipliedBy(2).compareTo(LAST_RETRY) > 0 ? LAST_RETRY : backoff.multipliedBy(2);
                vertx.setTimer(backoff.toMillis(), t -> sendHead(queueKey, queue, next));
            }
        });
    }
}
