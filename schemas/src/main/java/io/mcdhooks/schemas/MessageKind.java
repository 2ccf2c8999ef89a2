package io.mcdhooks.schemas;

import java.net.URI;
import java.util.Optional;

/** The kinds of message, each with its CloudEvents type, JSON Schema and Java record. */
public enum MessageKind {
    LIFECYCLE_EVENT("LifecycleEvent", "io.mcdhooks.lifecycle.v1", "lifecycle-event.v1.json", LifecycleEvent.class),
    GATE_REQUEST("GateRequest", "io.mcdhooks.gate.request.v1", "gate-request.v1.json", GateRequest.class),
    VERDICT("Verdict", "io.mcdhooks.gate.verdict.v1", "verdict.v1.json", Verdict.class),
    GATE_DECISION("GateDecision", "io.mcdhooks.gate.decision.v1", "gate-decision.v1.json", GateDecision.class);

    /** Where the schemas live: the {@code $id} prefix, served from the classpath's {@code schemas/}. */
    public static final String SCHEMA_BASE = "https://mcdhooks.io/schemas/";

    private final String displayName;
    private final String cloudEventType;
    private final String schemaFile;
    private final Class<? extends Message> javaType;

    MessageKind(String displayName, String cloudEventType, String schemaFile, Class<? extends Message> javaType) {
        this.displayName = displayName;
        this.cloudEventType = cloudEventType;
        this.schemaFile = schemaFile;
        this.javaType = javaType;
    }

    public String displayName() {
        return displayName;
    }

    public String cloudEventType() {
        return cloudEventType;
    }

    public String schemaFile() {
        return schemaFile;
    }

    public URI schemaUri() {
        return URI.create(SCHEMA_BASE + schemaFile);
    }

    public Class<? extends Message> javaType() {
        return javaType;
    }

    public static Optional<MessageKind> forCloudEventType(String type) {
        for (MessageKind kind : values()) {
            if (kind.cloudEventType.equals(type)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return displayName;
    }
}
