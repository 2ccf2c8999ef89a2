package io.mcdhooks.bridge.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.path.PathType;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.core.JacksonException;

/**
 * Objects of other projects' CRDs (the Prometheus Operator's, vendored under test resources
 * {@code crds/}, see its README), validated as the API server validates them: against the
 * version's OpenAPI schema with networknt's OpenAPI 3.0 dialect, unknown fields refused as
 * {@code kubectl apply --validate=strict} refuses them (the schema is closed wherever it lists
 * properties and does not keep unknown fields), and {@code metadata} read strictly as fabric8's
 * {@link ObjectMeta}.
 */
final class CrdSchemas {

    /** kind (apiVersion group/version/kind) → the CRD file under test resources crds/. */
    private static final Map<String, String> CRDS = Map.of(
            "monitoring.coreos.com/v1/ServiceMonitor", "crds/monitoring.coreos.com_servicemonitors.yaml",
            "monitoring.coreos.com/v1/PrometheusRule", "crds/monitoring.coreos.com_prometheusrules.yaml");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, Loaded> LOADED = load();

    private record Loaded(Schema schema, boolean namespaced) {}

    private CrdSchemas() {}

    static boolean knows(String kindKey) {
        return CRDS.containsKey(kindKey);
    }

    static boolean namespaced(String kindKey) {
        return LOADED.get(kindKey).namespaced();
    }

    /** What is wrong with {@code tree} as an object of its kind, each as {@code <path>: <problem>}; empty when valid. */
    static List<String> problems(String kindKey, JsonNode tree) {
        Loaded loaded = LOADED.get(kindKey);
        if (loaded == null) {
            throw new IllegalArgumentException("no vendored CRD for " + kindKey);
        }
        List<String> problems = new ArrayList<>();
        try {
            loaded.schema()
                    .validate(JSON.writeValueAsString(tree), InputFormat.JSON)
                    .forEach(e -> problems.add(e.getInstanceLocation() + ": " + e.getMessage()));
            Manifests.strict(tree.path("metadata"), ObjectMeta.class);
        } catch (JacksonException e) {
            problems.add("$.metadata: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return problems;
    }

    private static Map<String, Loaded> load() {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(
                Dialects.getOpenApi30(),
                builder -> builder.schemaRegistryConfig(SchemaRegistryConfig.builder()
                        .locale(Locale.ENGLISH)
                        .pathType(PathType.JSON_PATH)
                        .build()));
        YAMLMapper yaml = new YAMLMapper();
        Map<String, Loaded> loaded = new HashMap<>();
        CRDS.forEach((kindKey, resource) -> {
            try (InputStream in = CrdSchemas.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException(resource + " is missing from the test resources");
                }
                JsonNode crd = yaml.readTree(in);
                String version = kindKey.split("/")[1];
                JsonNode schema = null;
                for (JsonNode v : crd.path("spec").path("versions")) {
                    if (v.path("name").asText().equals(version)) {
                        schema = v.path("schema").path("openAPIV3Schema").deepCopy();
                    }
                }
                if (schema == null) {
                    throw new IllegalStateException(resource + " serves no version " + version);
                }
                ((ObjectNode) schema.path("properties")).putObject("metadata").put("type", "object");
                close(schema);
                loaded.put(
                        kindKey,
                        new Loaded(
                                registry.getSchema(JSON.writeValueAsString(schema), InputFormat.JSON),
                                "Namespaced"
                                        .equals(crd.path("spec").path("scope").asText())));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return Map.copyOf(loaded);
    }

    /** Refuses unknown fields wherever the schema lists the fields and keeps no others. */
    private static void close(JsonNode node) {
        if (node instanceof ObjectNode object) {
            if (object.has("properties")
                    && !object.has("additionalProperties")
                    && !object.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
                object.put("additionalProperties", false);
            }
            for (Iterator<JsonNode> it = object.elements(); it.hasNext(); ) {
                close(it.next());
            }
        } else if (node.isArray()) {
            node.forEach(CrdSchemas::close);
        }
    }
}
