package io.mcdhooks.sandbox.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * Writes images into a registry through the distribution API, as a build pipeline would: blobs by
 * monolithic upload ({@code POST} then {@code PUT ?digest=}), then manifests by {@code PUT}. It
 * answers a basic or a bearer challenge with its credentials (for bearer: at the challenge's realm,
 * scope {@code pull,push}).
 */
public final class ImagePusher {

    public static final String OCI_INDEX = "application/vnd.oci.image.index.v1+json";
    public static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    public static final String OCI_CONFIG = "application/vnd.oci.image.config.v1+json";
    public static final String OCI_LAYER = "application/vnd.oci.image.layer.v1.tar+gzip";
    public static final String DOCKER_MANIFEST_LIST = "application/vnd.docker.distribution.manifest.list.v2+json";
    public static final String DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json";
    public static final String DOCKER_CONFIG = "application/vnd.docker.container.image.v1+json";
    public static final String DOCKER_LAYER = "application/vnd.docker.image.rootfs.diff.tar.gzip";

    /** The label a bootable RHCOS/bootc image carries its kernel in. */
    public static final String KERNEL_LABEL = "ostree.linux";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PARAM = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    /** Credentials for the registry (or its token realm). */
    public record Credentials(String username, String password) {
        public Credentials {
            Objects.requireNonNull(username, "username");
            Objects.requireNonNull(password, "password");
        }

        public String basic() {
            return "Basic "
                    + Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
        }
    }

    /** One platform's image of an OS image index. */
    public record Platform(String architecture, String variant) {
        public static Platform of(String architecture) {
            return new Platform(architecture, null);
        }
    }

    private final URI base;
    private final HttpClient http;
    private final Credentials credentials;
    private final Map<String, String> tokens = new LinkedHashMap<>();

    public ImagePusher(URI base, SSLContext tls, Credentials credentials) {
        this.base = base;
        this.credentials = credentials;
        this.http = HttpClient.newBuilder()
                .sslContext(tls)
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    public static Credentials basic(String username, String password) {
        return new Credentials(username, password);
    }

    /** {@code sha256:<hex>} of {@code content}. */
    public static String digest(byte[] content) {
        try {
            return "sha256:"
                    + HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Uploads a blob; returns its digest. */
    public String pushBlob(String repository, byte[] content) {
        String digest = digest(content);
        HttpResponse<String> started = send(
                repository,
                HttpRequest.newBuilder(api(repository, "/blobs/uploads/")).POST(HttpRequest.BodyPublishers.noBody()));
        expect(started, 202, "start an upload to " + repository);
        String location = started.headers()
                .firstValue("Location")
                .orElseThrow(() -> new IllegalStateException("the registry gave no upload location"));
        URI upload = base.resolve(location);
        String separator = upload.getRawQuery() == null ? "?" : "&";
        URI put = URI.create(upload + separator + "digest=" + URLEncoder.encode(digest, StandardCharsets.UTF_8));
        HttpResponse<String> done = send(
                repository,
                HttpRequest.newBuilder(put)
                        .header("Content-Type", "application/octet-stream")
                        .PUT(HttpRequest.BodyPublishers.ofByteArray(content)));
        expect(done, 201, "upload blob " + digest + " to " + repository);
        return digest;
    }

    /** Puts a manifest under {@code reference} (a tag or its digest); returns its digest. */
    public String pushManifest(String repository, String reference, String mediaType, byte[] manifest) {
        HttpResponse<String> response = send(
                repository,
                HttpRequest.newBuilder(api(repository, "/manifests/" + reference))
                        .header("Content-Type", mediaType)
                        .PUT(HttpRequest.BodyPublishers.ofByteArray(manifest)));
        expect(response, 201, "put manifest " + repository + ":" + reference);
        return digest(manifest);
    }

    /** Deletes a manifest by digest (the registry has deletes enabled). */
    public void deleteManifest(String repository, String digest) {
        HttpResponse<String> response = send(
                repository,
                HttpRequest.newBuilder(api(repository, "/manifests/" + digest)).DELETE());
        expect(response, 202, "delete manifest " + repository + "@" + digest);
    }

    /**
     * Pushes a single-platform image (see {@link #image}) under
     * {@code tag} (or untagged when {@code null}). Returns the manifest's digest.
     */
    public String pushImage(String repository, String tag, Platform platform, Map<String, String> labels) {
        return pushImage(repository, tag, platform, labels, OCI_MANIFEST);
    }

    /** As {@link #pushImage(String, String, Platform, Map)}, in the OCI or the Docker schema 2 format. */
    public String pushImage(
            String repository, String tag, Platform platform, Map<String, String> labels, String manifestType) {
        return push(repository, tag, image(platform, labels, manifestType));
    }

    /**
     * The documents of an image, built without a registry: blobs first, then manifests in the order
     * they must be pushed (an index last). The same inputs give the same bytes, so the same digest.
     */
    public record Built(List<byte[]> blobs, List<Document> manifests, String digest) {}

    /** A manifest to push: its media type and bytes. */
    public record Document(String mediaType, byte[] body) {}

    /** Pushes what {@link #image} or {@link #index} built under {@code tag}; returns its digest. */
    public String push(String repository, String tag, Built built) {
        for (byte[] blob : built.blobs()) {
            pushBlob(repository, blob);
        }
        List<Document> manifests = built.manifests();
        for (int i = 0; i < manifests.size(); i++) {
            Document document = manifests.get(i);
            boolean top = i == manifests.size() - 1;
            pushManifest(
                    repository,
                    top && tag != null ? tag : digest(document.body()),
                    document.mediaType(),
                    document.body());
        }
        return built.digest();
    }

    /** A single-platform image: a config with {@code labels} and one small layer derived from them. */
    public static Built image(Platform platform, Map<String, String> labels, String manifestType) {
        boolean docker = DOCKER_MANIFEST.equals(manifestType);
        byte[] layer = ("layer of " + platform + " " + labels).getBytes(StandardCharsets.UTF_8);
        ObjectNode config = JSON.createObjectNode();
        config.put("architecture", platform.architecture());
        if (platform.variant() != null) {
            config.put("variant", platform.variant());
        }
        config.put("os", "linux");
        ObjectNode labelNode = config.putObject("config").putObject("Labels");
        labels.forEach(labelNode::put);
        ObjectNode rootfs = config.putObject("rootfs");
        rootfs.put("type", "layers");
        rootfs.putArray("diff_ids").add(digest(layer));
        byte[] configBytes = bytes(config);

        ObjectNode manifest = JSON.createObjectNode();
        manifest.put("schemaVersion", 2);
        manifest.put("mediaType", manifestType);
        manifest.set(
                "config", descriptor(docker ? DOCKER_CONFIG : OCI_CONFIG, digest(configBytes), configBytes.length));
        manifest.putArray("layers").add(descriptor(docker ? DOCKER_LAYER : OCI_LAYER, digest(layer), layer.length));
        byte[] manifestBytes = bytes(manifest);
        return new Built(
                List.of(layer, configBytes), List.of(new Document(manifestType, manifestBytes)), digest(manifestBytes));
    }

    /**
     * A bootable OS image for several platforms, each config labelled {@value #KERNEL_LABEL} with its
     * kernel, under an OCI index or a Docker manifest list (with Docker manifests).
     */
    public static Built index(Map<Platform, String> kernels, String indexType) {
        boolean docker = DOCKER_MANIFEST_LIST.equals(indexType);
        String manifestType = docker ? DOCKER_MANIFEST : OCI_MANIFEST;
        ObjectNode index = JSON.createObjectNode();
        index.put("schemaVersion", 2);
        index.put("mediaType", indexType);
        ArrayNode entries = index.putArray("manifests");
        List<byte[]> blobs = new ArrayList<>();
        List<Document> manifests = new ArrayList<>();
        for (Map.Entry<Platform, String> entry : kernels.entrySet()) {
            Map<String, String> labels = new LinkedHashMap<>();
            labels.put(KERNEL_LABEL, entry.getValue());
            labels.put("ostree.bootable", "true");
            Built one = image(entry.getKey(), labels, manifestType);
            blobs.addAll(one.blobs());
            manifests.addAll(one.manifests());
            ObjectNode descriptor = descriptor(
                    manifestType, one.digest(), one.manifests().get(0).body().length);
            ObjectNode platform = descriptor.putObject("platform");
            platform.put("architecture", entry.getKey().architecture());
            platform.put("os", "linux");
            if (entry.getKey().variant() != null) {
                platform.put("variant", entry.getKey().variant());
            }
            entries.add(descriptor);
        }
        byte[] indexBytes = bytes(index);
        manifests.add(new Document(indexType, indexBytes));
        return new Built(blobs, manifests, digest(indexBytes));
    }

    /**
     * Pushes a bootable OS image for several platforms (see {@link #index}) as an OCI index under
     * {@code tag}. Returns the index's digest.
     */
    public String pushOsImage(String repository, String tag, Map<Platform, String> kernels) {
        return pushIndex(repository, tag, kernels, OCI_INDEX);
    }

    /** As {@link #pushOsImage}, as an OCI index or a Docker manifest list. */
    public String pushIndex(String repository, String tag, Map<Platform, String> kernels, String indexType) {
        return push(repository, tag, index(kernels, indexType));
    }

    private static ObjectNode descriptor(String mediaType, String digest, long size) {
        ObjectNode node = JSON.createObjectNode();
        node.put("mediaType", mediaType);
        node.put("digest", digest);
        node.put("size", size);
        return node;
    }

    private URI api(String repository, String path) {
        return base.resolve("/v2/" + repository + path);
    }

    private HttpResponse<String> send(String repository, HttpRequest.Builder request) {
        String token;
        synchronized (tokens) {
            token = tokens.get(repository);
        }
        if (token != null) {
            request.setHeader("Authorization", token);
        }
        HttpResponse<String> response = exchange(request.build());
        if (response.statusCode() != 401) {
            return response;
        }
        String challenge = response.headers().firstValue("WWW-Authenticate").orElse("");
        String authorization = challenge.regionMatches(true, 0, "Bearer", 0, 6)
                ? "Bearer " + token(challenge, repository)
                : credentials.basic();
        synchronized (tokens) {
            tokens.put(repository, authorization);
        }
        return exchange(request.setHeader("Authorization", authorization).build());
    }

    private String token(String challenge, String repository) {
        Map<String, String> params = new LinkedHashMap<>();
        Matcher m = PARAM.matcher(challenge);
        while (m.find()) {
            params.put(m.group(1), m.group(2));
        }
        String scope = "repository:" + repository + ":pull,push";
        URI uri = URI.create(params.get("realm") + "?service="
                + URLEncoder.encode(params.getOrDefault("service", ""), StandardCharsets.UTF_8) + "&scope="
                + URLEncoder.encode(scope, StandardCharsets.UTF_8));
        HttpResponse<String> response = exchange(HttpRequest.newBuilder(uri)
                .header("Authorization", credentials.basic())
                .GET()
                .build());
        expect(response, 200, "get a push token from " + params.get("realm"));
        try {
            JsonNode body = JSON.readTree(response.body());
            return body.hasNonNull("token")
                    ? body.get("token").asText()
                    : body.get("access_token").asText();
        } catch (IOException e) {
            throw new UncheckedIOException("the token server answered no JSON", e);
        }
    }

    private HttpResponse<String> exchange(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void expect(HttpResponse<String> response, int status, String what) {
        if (response.statusCode() != status) {
            throw new IllegalStateException(
                    "cannot " + what + ": HTTP " + response.statusCode() + " " + response.body());
        }
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
