package io.mcdhooks.schemas.codec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.MessageKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The one codec of the wire contract. Encoding writes the records as JSON; decoding validates
 * against the kind's JSON Schema first, so a bad message is refused with every offending field
 * named, then binds the JSON to the record. Unknown extra fields are tolerated.
 *
 * <p>Thread-safe; build one and share it.
 */
public final class MessageCodec {

    /** Records larger than this are refused before they are parsed. */
    public static final int DEFAULT_MAX_BYTES = 256 * 1024;

    private final ObjectMapper mapper;
    private final SchemaValidator validator;
    private final int maxBytes;

    public MessageCodec() {
        this(DEFAULT_MAX_BYTES);
    }

    public MessageCodec(int maxBytes) {
        this.mapper = newObjectMapper();
        this.validator = new SchemaValidator();
        this.maxBytes = maxBytes;
    }

    /** The mapper this codec uses, configured for the wire contract (ISO dates, no nulls). */
    public static ObjectMapper newObjectMapper() {
        return JsonMapper.builder()
                .addModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .serializationInclusion(JsonInclude.Include.NON_NULL)
                .build();
    }

    public byte[] encode(Message message) {
        try {
            return mapper.writeValueAsBytes(message);
        } catch (JsonProcessingException e) {
            // Records of this module always serialise; anything else is a programming error.
            throw new UncheckedIOException("cannot encode " + message.kind(), e);
        }
    }

    public <T extends Message> T decode(Class<T> type, byte[] json) throws InvalidMessageException {
        return type.cast(decode(kindOf(type), json));
    }

    public Message decode(MessageKind kind, byte[] json) throws InvalidMessageException {
        if (json == null || json.length == 0) {
            throw new InvalidMessageException(kind, RejectReason.MALFORMED_JSON, "the body is empty");
        }
        if (json.length > maxBytes) {
            throw new InvalidMessageException(
                    kind,
                    RejectReason.TOO_LARGE,
                    "the body has " + json.length + " bytes, more than the " + maxBytes + " accepted");
        }
        String text = new String(json, StandardCharsets.UTF_8);
        List<String> problems;
        try {
            problems = validator.validate(kind, text);
        } catch (RuntimeException e) {
            throw new InvalidMessageException(
                    kind, RejectReason.MALFORMED_JSON, List.of("not JSON: " + rootMessage(e)), e);
        }
        if (!problems.isEmpty()) {
            throw new InvalidMessageException(kind, RejectReason.SCHEMA_VIOLATION, problems, null);
        }
        try {
            return mapper.readValue(json, kind.javaType());
        } catch (JsonMappingException e) {
            // The schema passed, but a record's own check did not (e.g. a date Jackson refuses).
            throw new InvalidMessageException(
                    kind, RejectReason.SCHEMA_VIOLATION, List.of(path(e) + ": " + rootMessage(e)), e);
        } catch (IOException e) {
            throw new InvalidMessageException(kind, RejectReason.MALFORMED_JSON, List.of(rootMessage(e)), e);
        }
    }

    private static MessageKind kindOf(Class<? extends Message> type) {
        for (MessageKind kind : MessageKind.values()) {
            if (kind.javaType() == type) {
                return kind;
            }
        }
        throw new IllegalArgumentException(type + " is not a message of the wire contract");
    }

    private static String path(JsonMappingException e) {
        StringBuilder path = new StringBuilder("$");
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                path.append('.').append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
