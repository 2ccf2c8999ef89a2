package io.mcdhooks.hooks.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** What this client reads of an image's config blob: its platform and its labels. */
public record ImageConfig(String os, String architecture, String variant, Map<String, String> labels) {

    public ImageConfig {
        labels = Map.copyOf(labels);
    }

    static ImageConfig parse(byte[] body, ObjectMapper json, String where) {
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (IOException e) {
            throw new RegistryException.BadContent(where + " is not JSON");
        }
        if (root == null || !root.isObject()) {
            throw new RegistryException.BadContent(where + " is not a JSON object");
        }
        Map<String, String> labels = new LinkedHashMap<>();
        JsonNode node = root.path("config").path("Labels");
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> {
                if (e.getValue().isTextual()) {
                    labels.put(e.getKey(), e.getValue().asText());
                }
            });
        } else if (!node.isMissingNode() && !node.isNull()) {
            throw new RegistryException.BadContent(where + " has config.Labels that is not an object");
        }
        return new ImageConfig(
                root.path("os").asText(null),
                root.path("architecture").asText(null),
                root.path("variant").asText(null),
                labels);
    }
}
