package io.mcdhooks.hooks.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A manifest as read from a registry: an index over platforms, or one image. */
public sealed interface Manifest {

    String mediaType();

    /** An OCI image index or a Docker manifest list. */
    record Index(String mediaType, List<Descriptor> manifests) implements Manifest {
        public Index {
            manifests = List.copyOf(manifests);
        }

        /**
         * The first entry for {@code linux/<architecture>}, as container runtimes choose; an {@code
         * arm64} entry with or without variant {@code v8} both match {@code arm64}.
         */
        public Optional<Descriptor> platform(String architecture) {
            return manifests.stream()
                    .filter(d -> d.platform() != null
                            && "linux".equals(d.platform().os())
                            && architecture.equals(d.platform().architecture()))
                    .findFirst();
        }
    }

    /** An OCI image manifest or a Docker schema 2 manifest. */
    record Image(String mediaType, Descriptor config, List<Descriptor> layers) implements Manifest {
        public Image {
            layers = List.copyOf(layers);
        }
    }

    /**
     * Reads a manifest. The media type is the response's {@code Content-Type} when that is one this
     * client asked for, else the body's {@code mediaType}; when both name a manifest type they must
     * agree. Throws {@link RegistryException.BadContent} naming what is wrong.
     */
    static Manifest parse(byte[] body, String contentType, ObjectMapper json, String where) {
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (IOException e) {
            throw new RegistryException.BadContent(where + " is not JSON: " + firstLine(e.getMessage()));
        }
        if (root == null || !root.isObject()) {
            throw new RegistryException.BadContent(where + " is not a JSON object");
        }
        String header = MediaTypes.bare(contentType);
        String declared = root.hasNonNull("mediaType") ? root.get("mediaType").asText() : null;
        String type;
        if (header != null && MediaTypes.MANIFESTS.contains(header)) {
            if (declared != null && !declared.equals(header)) {
                throw new RegistryException.BadContent(
                        where + " is served as " + header + " but says it is " + declared);
            }
            type = header;
        } else if (declared != null) {
            type = declared;
        } else if (root.has("manifests")) {
            type = MediaTypes.OCI_INDEX; // OCI lets an index leave out its media type
        } else if (root.has("config")) {
            type = MediaTypes.OCI_MANIFEST;
        } else {
            type = header;
        }
        if (!MediaTypes.MANIFESTS.contains(type)) {
            throw new RegistryException.BadContent(
                    where + " has media type " + type + ", not one of " + MediaTypes.MANIFESTS
                            + (type != null && type.contains("manifest.v1") ? " (schema 1 is not read)" : ""));
        }
        if (root.path("schemaVersion").asInt(-1) != 2) {
            throw new RegistryException.BadContent(
                    where + " has schemaVersion " + root.get("schemaVersion") + ", expected 2");
        }
        if (MediaTypes.isIndex(type)) {
            JsonNode entries = root.get("manifests");
            if (entries == null || !entries.isArray()) {
                throw new RegistryException.BadContent(where + " is an index without a manifests array");
            }
            List<Descriptor> manifests = new ArrayList<>();
            for (int i = 0; i < entries.size(); i++) {
                manifests.add(descriptor(entries.get(i), where + " manifests[" + i + "]", true));
            }
            return new Index(type, manifests);
        }
        JsonNode layers = root.path("layers");
        List<Descriptor> parsedLayers = new ArrayList<>();
        if (layers.isArray()) {
            for (int i = 0; i < layers.size(); i++) {
                parsedLayers.add(descriptor(layers.get(i), where + " layers[" + i + "]", false));
            }
        }
        return new Image(type, descriptor(root.get("config"), where + " config", false), parsedLayers);
    }

    private static Descriptor descriptor(JsonNode node, String where, boolean withPlatform) {
        if (node == null || !node.isObject()) {
            throw new RegistryException.BadContent(where + " is missing or not an object");
        }
        String mediaType = node.path("mediaType").asText(null);
        if (mediaType == null || mediaType.isBlank()) {
            throw new RegistryException.BadContent(where + " has no mediaType");
        }
        Digest digest;
        try {
            digest = Digest.parse(node.path("digest").asText(null));
        } catch (IllegalArgumentException e) {
            throw new RegistryException.BadContent(where + ": " + e.getMessage());
        }
        JsonNode size = node.get("size");
        if (size == null || !size.canConvertToLong() || size.asLong() < 0) {
            throw new RegistryException.BadContent(where + " has no valid size");
        }
        Platform platform = null;
        JsonNode p = node.get("platform");
        if (withPlatform && p != null && p.isObject()) {
            platform = new Platform(
                    p.path("os").asText(null),
                    p.path("architecture").asText(null),
                    p.path("variant").asText(null));
        }
        return new Descriptor(mediaType, digest, size.asLong(), platform);
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "unreadable";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
