package io.mcdhooks.bridge.gate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mcdhooks.schemas.codec.MessageCodec;
import java.time.Instant;

/**
 * The value of the {@value #ANNOTATION} annotation an operator puts on a gate's Node (its
 * MachineConfigPool for {@code pool-pre-update}):
 * {@code {"gate": "<gate id>", "action": "release"|"block", "by": "...", "reason": "..."}}.
 * The CLI writes it and the gatekeeper reads it, both through this class, so the two cannot drift.
 */
public record OverrideRequest(String gateId, boolean release, String by, String reason) {

    public static final String ANNOTATION = "mcdhooks.io/override";

    private static final ObjectMapper JSON = MessageCodec.newObjectMapper();

    /** Reads an annotation value; the error names each missing or wrong field. */
    public static OverrideRequest parse(String text) {
        JsonNode json;
        try {
            json = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(ANNOTATION + " is not JSON: " + e.getOriginalMessage());
        }
        if (json == null || !json.isObject()) {
            throw new IllegalArgumentException(ANNOTATION + " must be a JSON object");
        }
        StringBuilder missing = new StringBuilder();
        String gate = text(json, "gate", missing);
        String action = text(json, "action", missing);
        String by = text(json, "by", missing);
        String reason = text(json, "reason", missing);
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(ANNOTATION + " needs " + missing);
        }
        if (!"release".equals(action) && !"block".equals(action)) {
            throw new IllegalArgumentException(ANNOTATION + ": action must be release or block, not '" + action + "'");
        }
        return new OverrideRequest(gate, "release".equals(action), by, reason);
    }

    public String toJson() {
        return JSON.createObjectNode()
                .put("gate", gateId)
                .put("action", release ? "release" : "block")
                .put("by", by)
                .put("reason", reason)
                .toString();
    }

    /** The override as the gate keeps it, stamped with when the gatekeeper read it. */
    public Gate.Override toOverride(Instant at) {
        return new Gate.Override(release, by, reason, at);
    }

    private static String text(JsonNode json, String field, StringBuilder missing) {
        JsonNode value = json.get(field);
        if (value == null || !value.isTextual() || value.asText().isBlank()) {
            missing.append(missing.isEmpty() ? "" : ", ").append(field).append(" (a non-empty string)");
            return null;
        }
        return value.asText();
    }
}
