package io.mcdhooks.schemas.kafka;

import io.cloudevents.CloudEvent;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.core.message.Encoding;
import io.cloudevents.core.message.MessageReader;
import io.cloudevents.kafka.KafkaMessageFactory;
import io.cloudevents.rw.CloudEventRWException;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.MessageKind;
import io.mcdhooks.schemas.codec.InvalidMessageException;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.codec.RejectReason;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Messages as CloudEvents 1.0 in Kafka binary content mode: attributes in {@code ce_*} headers,
 * {@code content-type: application/json}, the JSON body as the record value, and the record key
 * the node name (or the pool name for pool-wide messages), also carried as the CloudEvents
 * {@code partitionkey} extension. The {@code cluster} extension names the cluster.
 */
public final class CloudEventsKafka {

    public static final String CONTENT_TYPE = "application/json";
    /** CloudEvents extension naming the cluster (header {@code ce_cluster}). */
    public static final String CLUSTER_EXTENSION = "cluster";
    /** The CloudEvents partitioning extension (header {@code ce_partitionkey}). */
    public static final String PARTITION_KEY_EXTENSION = "partitionkey";
    /** A detached JWS over a verdict (header {@code ce_jws}); verified where a hook requires it. */
    public static final String JWS_EXTENSION = "jws";

    private final MessageCodec codec;

    public CloudEventsKafka(MessageCodec codec) {
        this.codec = Objects.requireNonNull(codec);
    }

    /**
     * The record for {@code message} on {@code topic}.
     *
     * @param id         the CloudEvents id; producers make it deterministic where a replay must
     *                   be recognisable as the same event
     * @param source     who produced it, e.g. {@code /clusters/prod-1/bridge}
     * @param extensions further extension attributes (e.g. {@link #JWS_EXTENSION}); may be empty
     */
    public ProducerRecord<String, byte[]> toRecord(
            String topic, Message message, String id, URI source, OffsetDateTime time, Map<String, String> extensions) {
        CloudEventBuilder builder = CloudEventBuilder.v1()
                .withId(id)
                .withSource(source)
                .withType(message.kind().cloudEventType())
                .withDataSchema(message.kind().schemaUri())
                .withDataContentType(CONTENT_TYPE)
                .withSubject(message.key())
                .withTime(time)
                .withExtension(CLUSTER_EXTENSION, message.cluster())
                .withExtension(PARTITION_KEY_EXTENSION, message.key())
                .withData(codec.encode(message));
        extensions.forEach(builder::withExtension);
        return KafkaMessageFactory.<String>createWriter(topic, message.key()).writeBinary(builder.build());
    }

    /** A record header as a consumer received it; {@code value} may be {@code null}. */
    public record Header(String key, byte[] value) {}

    /**
     * {@link #fromRecord(String, Headers, byte[])} for a record held without Kafka's types, its
     * headers in the order they came.
     */
    public Received fromRecord(String key, List<Header> headers, byte[] value) throws InvalidMessageException {
        RecordHeaders kafkaHeaders = new RecordHeaders();
        headers.forEach(h -> kafkaHeaders.add(h.key(), h.value()));
        return fromRecord(key, kafkaHeaders, value);
    }

    /**
     * Reads a record back. Refuses, with a reason and the offending part named: records that are
     * not binary-mode CloudEvents or lack the {@code ce_cluster} header, unknown types (including unknown schema versions), non-JSON
     * content, bodies that break the schema, and records whose key or {@code cluster} header
     * disagree with the body.
     *
     * @param key the record key, or {@code null} to skip that check
     */
    public Received fromRecord(String key, Headers headers, byte[] value) throws InvalidMessageException {
        CloudEvent event = readEvent(headers, value);
        MessageKind kind = MessageKind.forCloudEventType(event.getType())
                .orElseThrow(() -> new InvalidMessageException(
                        null,
                        RejectReason.UNKNOWN_TYPE,
                        "CloudEvents type '" + event.getType() + "' is not one of " + knownTypes()));
        String contentType = event.getDataContentType();
        if (contentType != null && !contentType.startsWith(CONTENT_TYPE)) {
            throw new InvalidMessageException(
                    kind,
                    RejectReason.UNSUPPORTED_CONTENT_TYPE,
                    "content-type '" + contentType + "' is not " + CONTENT_TYPE);
        }
        byte[] body = event.getData() == null ? null : event.getData().toBytes();
        Message message = codec.decode(kind, body);
        Object cluster = event.getExtension(CLUSTER_EXTENSION);
        if (cluster == null) {
            // Required: consumers filter a fleet's records by it before reading bodies.
            throw new InvalidMessageException(
                    kind, RejectReason.NOT_A_CLOUDEVENT, "no ce_" + CLUSTER_EXTENSION + " header naming the cluster");
        }
        if (!cluster.toString().equals(message.cluster())) {
            throw new InvalidMessageException(
                    kind,
                    RejectReason.INCONSISTENT,
                    "header ce_" + CLUSTER_EXTENSION + "='" + cluster + "' but $.cluster='" + message.cluster() + "'");
        }
        if (key != null && !key.equals(message.key())) {
            throw new InvalidMessageException(
                    kind,
                    RejectReason.INCONSISTENT,
                    "record key '" + key + "' but the message is about '" + message.key() + "'");
        }
        Object jws = event.getExtension(JWS_EXTENSION);
        return new Received(
                message, event.getId(), event.getSource(), event.getTime(), jws == null ? null : jws.toString());
    }

    private static CloudEvent readEvent(Headers headers, byte[] value) throws InvalidMessageException {
        try {
            MessageReader reader = KafkaMessageFactory.createReader(headers, value);
            if (reader.getEncoding() != Encoding.BINARY) {
                throw new InvalidMessageException(
                        null,
                        RejectReason.NOT_A_CLOUDEVENT,
                        "no CloudEvents binary-mode headers (ce_specversion, ce_id, ce_source, ce_type)");
            }
            return reader.toEvent();
        } catch (CloudEventRWException | IllegalStateException | IllegalArgumentException e) {
            // The SDK reports a missing or malformed attribute in any of these ways.
            throw new InvalidMessageException(
                    null, RejectReason.NOT_A_CLOUDEVENT, List.of("CloudEvents headers: " + e.getMessage()), e);
        }
    }

    private static List<String> knownTypes() {
        return Arrays.stream(MessageKind.values())
                .map(MessageKind::cloudEventType)
                .toList();
    }

    /** A record read back: the message and the CloudEvents attributes that matter downstream. */
    public record Received(Message message, String id, URI source, OffsetDateTime time, String jws) {}

    /** Header value as text, for diagnostics; {@code null} when absent. */
    public static String header(Headers headers, String name) {
        var header = headers.lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
