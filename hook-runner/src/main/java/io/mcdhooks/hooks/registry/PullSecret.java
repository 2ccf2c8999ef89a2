package io.mcdhooks.hooks.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Credentials by registry, read from pull secrets in the {@code .dockerconfigjson} format (the
 * {@code config.json} of Docker and Podman): {@code {"auths": {"<registry>[/<path>]": {"auth":
 * base64(user:password)}}}}, or {@code username}/{@code password}, or {@code identitytoken}.
 *
 * <p>A key may name a registry ({@code quay.io}, {@code registry.example:5000}, {@code
 * https://index.docker.io/v1/}) or a repository or namespace in it ({@code quay.io/org}); the most
 * specific key that covers a repository wins, as in containers-auth.json(5). Several files are merged;
 * for the same key the first file wins.
 */
public final class PullSecret {

    private static final PullSecret NONE = new PullSecret(Map.of());

    private final Map<String, Credentials> byKey;

    private PullSecret(Map<String, Credentials> byKey) {
        this.byKey = Map.copyOf(byKey);
    }

    public static PullSecret none() {
        return NONE;
    }

    /** Reads and merges {@code files}; throws {@link IllegalArgumentException} naming the file and key. */
    public static PullSecret read(List<Path> files, ObjectMapper json) {
        Map<String, Credentials> merged = new LinkedHashMap<>();
        for (Path file : files) {
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (IOException e) {
                throw new IllegalArgumentException(file + " cannot be read: " + e.getMessage(), e);
            }
            parse(bytes, file.toString(), json).byKey.forEach(merged::putIfAbsent);
        }
        return new PullSecret(merged);
    }

    static PullSecret parse(byte[] bytes, String source, ObjectMapper json) {
        JsonNode root;
        try {
            root = json.readTree(bytes);
        } catch (IOException e) {
            throw new IllegalArgumentException(source + " is not JSON: " + firstLine(e.getMessage()), e);
        }
        if (root == null || !root.isObject() || !root.path("auths").isObject()) {
            throw new IllegalArgumentException(
                    source
                            + " has no \"auths\" object: expected a .dockerconfigjson ({\"auths\": {\"registry\": {\"auth\": ...}}})");
        }
        Map<String, Credentials> byKey = new LinkedHashMap<>();
        root.get("auths").fields().forEachRemaining(entry -> {
            String key = normalize(entry.getKey());
            Credentials credentials = credentials(entry.getValue(), source + " auths[\"" + entry.getKey() + "\"]");
            if (credentials != null) {
                byKey.putIfAbsent(key, credentials);
            }
        });
        return new PullSecret(byKey);
    }

    /** The credentials for {@code repository} in {@code registry}, most specific key first. */
    public Optional<Credentials> lookup(String registry, String repository) {
        String host = canonicalHost(registry);
        String path = repository;
        while (true) {
            Credentials found = byKey.get(host + "/" + path);
            if (found != null) {
                return Optional.of(found);
            }
            int slash = path.lastIndexOf('/');
            if (slash < 0) {
                break;
            }
            path = path.substring(0, slash);
        }
        return Optional.ofNullable(byKey.get(host));
    }

    public boolean isEmpty() {
        return byKey.isEmpty();
    }

    private static Credentials credentials(JsonNode node, String where) {
        if (!node.isObject()) {
            throw new IllegalArgumentException(where + " is not an object");
        }
        String identityToken = text(node, "identitytoken");
        String username = text(node, "username");
        String password = text(node, "password");
        String auth = text(node, "auth");
        if (auth != null) {
            String decoded;
            try {
                decoded = new String(Base64.getDecoder().decode(auth.trim()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ".auth is not base64", e);
            }
            int colon = decoded.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException(where + ".auth does not decode to user:password");
            }
            username = decoded.substring(0, colon);
            password = decoded.substring(colon + 1);
        }
        if (identityToken == null && (username == null || password == null)) {
            return null; // e.g. an entry with only an email: no credentials for that registry
        }
        return new Credentials(username, password, identityToken);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() || value.asText().isEmpty() ? null : value.asText();
    }

    /** {@code https://index.docker.io/v1/} → {@code docker.io}; {@code https://quay.io/} → {@code quay.io}. */
    static String normalize(String key) {
        String k = key.trim();
        int scheme = k.indexOf("://");
        if (scheme >= 0) {
            k = k.substring(scheme + 3);
        }
        while (k.endsWith("/")) {
            k = k.substring(0, k.length() - 1);
        }
        if (k.endsWith("/v1") || k.endsWith("/v2")) {
            k = k.substring(0, k.length() - 3);
        }
        int slash = k.indexOf('/');
        String host = slash < 0 ? k : k.substring(0, slash);
        return canonicalHost(host) + (slash < 0 ? "" : k.substring(slash));
    }

    /** Docker Hub's aliases are one registry. */
    static String canonicalHost(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return switch (h) {
            case "index.docker.io", "registry-1.docker.io", "registry.hub.docker.com" -> ImageReference.DOCKER_HUB;
            default -> h;
        };
    }

    private static String firstLine(String text) {
        return text == null ? "unreadable" : text.lines().findFirst().orElse("");
    }

    @Override
    public String toString() {
        return "PullSecret" + byKey.keySet();
    }
}
