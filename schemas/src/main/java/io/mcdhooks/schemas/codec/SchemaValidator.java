package io.mcdhooks.schemas.codec;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;
import io.mcdhooks.schemas.MessageKind;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Validates JSON text against the message kinds' JSON Schemas (draft 2020-12), which are the
 * source of truth of the wire contract. Schemas load from the classpath: their {@code $id}s,
 * {@value MessageKind#SCHEMA_BASE}..., map to {@code classpath:schemas/}.
 */
public final class SchemaValidator {

    private final Map<MessageKind, Schema> schemas = new EnumMap<>(MessageKind.class);

    public SchemaValidator() {
        SchemaRegistryConfig config = SchemaRegistryConfig.builder()
                .formatAssertionsEnabled(true)
                .locale(Locale.ENGLISH)
                .pathType(PathType.JSON_PATH)
                .build();
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(
                SpecificationVersion.DRAFT_2020_12,
                builder -> builder.schemaRegistryConfig(config)
                        .schemaIdResolvers(ids -> ids.mapPrefix(MessageKind.SCHEMA_BASE, "classpath:schemas/")));
        for (MessageKind kind : MessageKind.values()) {
            Schema schema =
                    registry.getSchema(SchemaLocation.of(kind.schemaUri().toString()));
            schema.initializeValidators();
            schemas.put(kind, schema);
        }
    }

    /** The problems found, each as {@code <json path>: <what is wrong>}; empty when valid. */
    public List<String> validate(MessageKind kind, String json) {
        List<Error> errors = schemas.get(kind).validate(json, InputFormat.JSON);
        return errors.stream().map(SchemaValidator::describe).toList();
    }

    private static String describe(Error error) {
        String location = error.getInstanceLocation().toString();
        String message = error.getMessage();
        return message.startsWith(location) ? message : location + ": " + message;
    }
}
