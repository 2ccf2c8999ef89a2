package io.mcdhooks.hooks.registry;

import io.mcdhooks.hooks.registry.FakeRegistry.Answer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A bootable OS image as JSON, served by a {@link FakeRegistry}: an OCI index over platforms, each
 * platform's manifest and its config with labels. The documents are well-formed unless a test breaks
 * one on purpose with {@link FakeRegistry#on}.
 */
public final class FakeImage {

    public final String repository;
    public final String indexJson;
    public final Digest index;
    public final Map<String, Digest> manifests;
    public final Map<String, Digest> configs;
    public final Map<String, String> manifestJson;
    public final Map<String, String> configJson;

    private FakeImage(
            String repository,
            String indexJson,
            Map<String, Digest> manifests,
            Map<String, Digest> configs,
            Map<String, String> manifestJson,
            Map<String, String> configJson) {
        this.repository = repository;
        this.indexJson = indexJson;
        this.index = digest(indexJson);
        this.manifests = manifests;
        this.configs = configs;
        this.manifestJson = manifestJson;
        this.configJson = configJson;
    }

    /** An image whose config for each architecture carries {@code labels.get(arch)}. */
    public static FakeImage of(String repository, Map<String, Map<String, String>> labelsByArch) {
        Map<String, String> configJson = labelsByArch.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> config(e.getKey(), e.getValue())));
        Map<String, Digest> configs =
                configJson.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> digest(e.getValue())));
        Map<String, String> manifestJson = configJson.keySet().stream()
                .collect(Collectors.toMap(a -> a, a -> manifest(configs.get(a), configJson.get(a))));
        Map<String, Digest> manifests = manifestJson.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> digest(e.getValue())));
        String entries = manifestJson.keySet().stream()
                .sorted()
                .map(a -> "{\"mediaType\":\"" + MediaTypes.OCI_MANIFEST + "\",\"digest\":\"" + manifests.get(a)
                        + "\",\"size\":" + bytes(manifestJson.get(a)).length
                        + ",\"platform\":{\"os\":\"linux\",\"architecture\":\"" + a + "\"}}")
                .collect(Collectors.joining(","));
        String index =
                "{\"schemaVersion\":2,\"mediaType\":\"" + MediaTypes.OCI_INDEX + "\",\"manifests\":[" + entries + "]}";
        return new FakeImage(repository, index, manifests, configs, manifestJson, configJson);
    }

    /** Serves the index under {@code tag} and by digest, and every manifest and config. */
    public FakeImage servedBy(FakeRegistry registry, String tag) {
        String base = "/v2/" + repository;
        Answer indexAnswer =
                Answer.json(200, MediaTypes.OCI_INDEX, indexJson).with("Docker-Content-Digest", index.toString());
        registry.on("GET", base + "/manifests/" + tag, indexAnswer);
        registry.on("GET", base + "/manifests/" + index, indexAnswer);
        manifestJson.forEach((arch, json) -> registry.on(
                "GET", base + "/manifests/" + manifests.get(arch), Answer.json(200, MediaTypes.OCI_MANIFEST, json)));
        configJson.forEach((arch, json) -> registry.on(
                "GET", base + "/blobs/" + configs.get(arch), Answer.bytes("application/octet-stream", bytes(json))));
        return this;
    }

    public static String config(String arch, Map<String, String> labels) {
        String labelJson = labels.entrySet().stream()
                .map(e -> "\"" + e.getKey() + "\":\"" + e.getValue() + "\"")
                .collect(Collectors.joining(","));
        return "{\"architecture\":\"" + arch + "\",\"os\":\"linux\",\"config\":{\"Labels\":{" + labelJson
                + "}},\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[]}}";
    }

    public static String manifest(Digest config, String configJson) {
        return "{\"schemaVersion\":2,\"mediaType\":\"" + MediaTypes.OCI_MANIFEST + "\",\"config\":{\"mediaType\":\""
                + MediaTypes.OCI_CONFIG + "\",\"digest\":\"" + config + "\",\"size\":" + bytes(configJson).length
                + "},\"layers\":[]}";
    }

    public static Digest digest(String json) {
        return Digest.sha256(bytes(json));
    }

    public static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
