package io.mcdhooks.hooks.kmod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads KMM {@code Module} resources as {@code oc get module -o yaml} prints them: one or more YAML
 * (or JSON) documents, each a {@code Module} of {@code kmm.sigs.x-k8s.io} or a {@code List} of them.
 * Checks what KMM's webhook checks of the kernel mappings (at least one; exactly one of {@code
 * literal} and {@code regexp}; a regexp that compiles; an image from the mapping or the module),
 * and that every image template uses only KMM's variables. Everything else of the resource (build,
 * sign, modprobe, selector, ...) is ignored.
 */
public final class KmmModules {

    public static final String API_GROUP = "kmm.sigs.x-k8s.io";

    private KmmModules() {}

    /** Reads {@code file}; throws {@link IllegalArgumentException} naming the file, the module and the mapping. */
    public static List<KmmModule> read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + " cannot be read: " + e.getMessage(), e);
        }
        return parse(text, file.toString());
    }

    static List<KmmModule> parse(String text, String source) {
        List<KmmModule> modules = new ArrayList<>();
        YAMLMapper yaml = new YAMLMapper();
        try (MappingIterator<JsonNode> documents =
                yaml.readerFor(JsonNode.class).readValues(text)) {
            int n = 0;
            while (documents.hasNextValue()) {
                JsonNode document = documents.nextValue();
                n++;
                if (document == null || document.isNull() || document.isEmpty()) {
                    continue;
                }
                resource(document, source + " document " + n, modules);
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof IllegalArgumentException) {
                throw (IllegalArgumentException) e;
            }
            throw new IllegalArgumentException(source + " is not YAML: " + e.getMessage(), e);
        }
        if (modules.isEmpty()) {
            throw new IllegalArgumentException(source + " holds no Module of " + API_GROUP);
        }
        Set<String> ids = new HashSet<>();
        for (KmmModule module : modules) {
            if (!ids.add(module.id())) {
                throw new IllegalArgumentException(source + " has Module " + module.id() + " twice");
            }
        }
        return modules;
    }

    private static void resource(JsonNode node, String where, List<KmmModule> into) {
        String kind = node.path("kind").asText("");
        if (kind.equals("List") || kind.equals("ModuleList")) {
            JsonNode items = node.path("items");
            for (int i = 0; i < items.size(); i++) {
                resource(items.get(i), where + " items[" + i + "]", into);
            }
            return;
        }
        String apiVersion = node.path("apiVersion").asText("");
        if (!kind.equals("Module") || !apiVersion.startsWith(API_GROUP + "/")) {
            throw new IllegalArgumentException(where + " is " + kind + " of " + apiVersion + ", not a Module of "
                    + API_GROUP + " (e.g. " + API_GROUP + "/v1beta1)");
        }
        into.add(module(node, where));
    }

    private static KmmModule module(JsonNode node, String where) {
        String name = node.path("metadata").path("name").asText(null);
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(where + ": the Module has no metadata.name");
        }
        String namespace = node.path("metadata").path("namespace").asText(null);
        String at = where + " (Module " + (namespace == null ? "" : namespace + "/") + name + ")";
        JsonNode container = node.path("spec").path("moduleLoader").path("container");
        String defaultImage = text(container, "containerImage");
        JsonNode entries = container.path("kernelMappings");
        if (!entries.isArray() || entries.isEmpty()) {
            throw new IllegalArgumentException(at + " has no spec.moduleLoader.container.kernelMappings");
        }
        List<KernelMapping> mappings = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            String mappingAt = at + " kernelMappings[" + i + "]";
            JsonNode entry = entries.get(i);
            String literal = text(entry, "literal");
            String regexp = text(entry, "regexp");
            String image = text(entry, "containerImage");
            if ((literal == null) == (regexp == null)) {
                throw new IllegalArgumentException(mappingAt + " must have exactly one of literal and regexp");
            }
            if (image == null && defaultImage == null) {
                throw new IllegalArgumentException(
                        mappingAt + " has no containerImage, and the module none to fall back on");
            }
            try {
                KmmTemplate.validate(image != null ? image : defaultImage);
                mappings.add(
                        literal != null ? KernelMapping.literal(literal, image) : KernelMapping.regexp(regexp, image));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(mappingAt + ": " + e.getMessage(), e);
            }
        }
        return new KmmModule(name, namespace, defaultImage, mappings);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() || value.asText().isBlank() ? null : value.asText();
    }
}
