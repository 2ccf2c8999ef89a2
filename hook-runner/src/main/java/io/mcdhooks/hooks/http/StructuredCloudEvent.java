package io.mcdhooks.hooks.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.MessageKind;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * A GateRequest as a CloudEvents 1.0 HTTP structured-mode body ({@value #CONTENT_TYPE}): the same
 * attributes the Kafka binary mode carries in headers, and the request itself under {@code data}.
 */
public final class StructuredCloudEvent {

    public static final String CONTENT_TYPE = "application/cloudevents+json; charset=utf-8";

    private static final ObjectMapper MAPPER = MessageCodec.newObjectMapper();

    private StructuredCloudEvent() {}

    /** The id is derived from gate and attempt, so a receiver can tell a retry of the same request. */
    public static byte[] of(GateRequest request, MessageCodec codec, URI source, OffsetDateTime time) {
        try {
            ObjectNode event = MAPPER.createObjectNode();
            event.put("specversion", "1.0");
            event.put(
                    "id",
                    UUID.nameUUIDFromBytes(
                                    (request.gateId() + "\n" + request.attempt()).getBytes(StandardCharsets.UTF_8))
                            .toString());
            event.put("source", source.toString());
            event.put("type", MessageKind.GATE_REQUEST.cloudEventType());
            event.put("datacontenttype", CloudEventsKafka.CONTENT_TYPE);
            event.put("dataschema", MessageKind.GATE_REQUEST.schemaUri().toString());
            event.put("subject", request.key());
            event.put("time", time.toString());
            event.put(CloudEventsKafka.CLUSTER_EXTENSION, request.cluster());
            event.put(CloudEventsKafka.PARTITION_KEY_EXTENSION, request.key());
            event.set("data", MAPPER.readTree(codec.encode(request)));
            return MAPPER.writeValueAsBytes(event);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the structured CloudEvent", e);
        }
    }
}
