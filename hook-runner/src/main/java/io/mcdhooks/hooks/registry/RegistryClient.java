package io.mcdhooks.hooks.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mcdhooks.hooks.registry.RegistriesConf.Endpoint;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;

/**
 * Reads manifests and config blobs through the OCI distribution API ({@code /v2/<name>/manifests/<ref>},
 * {@code /v2/<name>/blobs/<digest>}), as a container runtime pulls: through the mirrors of the
 * registries configuration, then the source; with the pull secret's credentials for basic auth or
 * the registry's bearer-token challenge; checking every download against its digest; never reading
 * more than a limit.
 *
 * <p>Redirects (blob stores behind a CDN are normal) are followed up to {@value #MAX_REDIRECTS}
 * hops; the {@code Authorization} header goes only to the registry's own origin, and a redirect from
 * https to plain http is refused. Blocking: call it from a worker thread. Thread-safe.
 */
public final class RegistryClient {

    /** The distribution spec's suggested manifest limit; a registry may refuse larger ones too. */
    public static final int MAX_MANIFEST_BYTES = 4 << 20;

    public static final int MAX_CONFIG_BYTES = 4 << 20;
    public static final int MAX_REDIRECTS = 5;

    static final int MAX_TOKEN_BYTES = 1 << 20;
    static final int MAX_ERROR_BYTES = 8 << 10;
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    /** Docker's token spec: a token without {@code expires_in} lives 60 s, and none shorter. */
    static final Duration MIN_TOKEN_LIFE = Duration.ofSeconds(60);

    private static final Duration TOKEN_SLACK = Duration.ofSeconds(10);
    private static final int MAX_CACHED_AUTH = 1024;

    /** A manifest and where it was found; {@code digest} is what was verified or computed. */
    public record Located(Manifest manifest, Digest digest, Endpoint endpoint) {}

    /** An image that exists, with the digest its manifest has there. */
    public record Presence(Digest digest, Endpoint endpoint) {}

    private record Response(int status, HttpHeaders headers, byte[] body, URI uri, boolean sameOrigin) {}

    private record Authorization(String value, Instant expiresAt) {}

    private final HttpClient http;
    private final PullSecret secrets;
    private final RegistriesConf registries;
    private final Clock clock;
    private final ObjectMapper json = new ObjectMapper();
    private final Map<String, Authorization> authorizations = new ConcurrentHashMap<>();

    public RegistryClient(HttpClient http, PullSecret secrets, RegistriesConf registries, Clock clock) {
        this.http = http;
        this.secrets = secrets;
        this.registries = registries;
        this.clock = clock;
    }

    /** The HTTP client this class expects: no redirects of its own (they are followed here), HTTP/1.1. */
    public static HttpClient httpClient(SSLContext tls) {
        return HttpClient.newBuilder()
                .sslContext(tls)
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** The manifest {@code reference} names, from the first endpoint that has it. */
    public Located manifest(ImageReference reference) {
        return firstOf(reference, endpoint -> fetchManifest(endpoint, endpoint.reference()));
    }

    /** A manifest by digest from {@code endpoint} (an index entry, from where the index came). */
    public Located manifest(Endpoint endpoint, Digest digest) {
        ImageReference pinned = endpoint.reference().withDigest(digest);
        return fetchManifest(new Endpoint(pinned, endpoint.insecure(), endpoint.mirror()), pinned);
    }

    /** The image config {@code descriptor} names, from {@code endpoint}, checked against its digest and size. */
    public ImageConfig config(Endpoint endpoint, Descriptor descriptor) {
        String where = "config " + descriptor.digest().shortForm() + " of " + endpoint.reference();
        if (!MediaTypes.CONFIGS.contains(MediaTypes.bare(descriptor.mediaType()))) {
            throw new RegistryException.BadContent(where + " has media type " + descriptor.mediaType()
                    + ", not an image config (" + String.join(" or ", MediaTypes.CONFIGS) + ")");
        }
        if (descriptor.size() > MAX_CONFIG_BYTES) {
            throw new RegistryException.BadContent(
                    where + " is " + descriptor.size() + " bytes, over the limit of " + MAX_CONFIG_BYTES);
        }
        Response response = exchange(endpoint, "GET", "/blobs/" + descriptor.digest(), null, MAX_CONFIG_BYTES, where);
        expectOk(response, where);
        verify(descriptor.digest(), response.body(), where);
        if (response.body().length != descriptor.size()) {
            throw new RegistryException.BadContent(
                    where + " is " + response.body().length + " bytes, but its descriptor says " + descriptor.size());
        }
        return ImageConfig.parse(response.body(), json, where);
    }

    /**
     * Whether the image exists (a manifest {@code HEAD}), with its digest; empty when every endpoint
     * answers 404. A tag is resolved to the digest the registry reports.
     */
    public Optional<Presence> head(ImageReference reference) {
        try {
            return Optional.of(firstOf(reference, this::headOne));
        } catch (RegistryException.NotFound e) {
            return Optional.empty();
        }
    }

    private Presence headOne(Endpoint endpoint) {
        ImageReference reference = endpoint.reference();
        String where = "manifest " + reference + " at " + endpoint.describe();
        Response response = exchange(
                endpoint, "HEAD", "/manifests/" + reference.apiReference(), MediaTypes.MANIFEST_ACCEPT, 0, where);
        expectOk(response, where);
        if (reference.pinned()) {
            return new Presence(reference.digest(), endpoint);
        }
        Optional<String> header = response.headers().firstValue("Docker-Content-Digest");
        if (header.isPresent()) {
            try {
                return new Presence(Digest.parse(header.get().trim()), endpoint);
            } catch (IllegalArgumentException e) {
                throw new RegistryException.BadContent(where + ": Docker-Content-Digest " + e.getMessage());
            }
        }
        // Without the header the digest is the content's: read it once.
        return new Presence(fetchManifest(endpoint, reference).digest(), endpoint);
    }

    private Located fetchManifest(Endpoint endpoint, ImageReference reference) {
        String where = "manifest " + reference + " at " + endpoint.describe();
        Response response = exchange(
                endpoint,
                "GET",
                "/manifests/" + reference.apiReference(),
                MediaTypes.MANIFEST_ACCEPT,
                MAX_MANIFEST_BYTES,
                where);
        expectOk(response, where);
        byte[] body = response.body();
        Digest digest;
        if (reference.pinned()) {
            verify(reference.digest(), body, where);
            digest = reference.digest();
        } else {
            digest = Digest.sha256(body);
            Optional<String> header = response.headers().firstValue("Docker-Content-Digest");
            if (header.isPresent()) {
                Digest said;
                try {
                    said = Digest.parse(header.get().trim());
                } catch (IllegalArgumentException e) {
                    throw new RegistryException.BadContent(where + ": Docker-Content-Digest " + e.getMessage());
                }
                verify(said, body, where);
                digest = said;
            }
        }
        Manifest manifest = Manifest.parse(
                body, response.headers().firstValue("Content-Type").orElse(null), json, where);
        return new Located(manifest, digest, endpoint);
    }

    private static void verify(Digest expected, byte[] body, String where) {
        if (!expected.matches(body)) {
            throw new RegistryException.BadContent(
                    where + " does not match its digest " + expected + ": the content is " + expected.of(body));
        }
    }

    /**
     * Tries each endpoint in order; the first answer wins. When all fail, the most telling failure
     * is thrown, naming every endpoint: unavailable (nothing learned) over access denied over bad
     * content over not found.
     */
    private <T> T firstOf(ImageReference reference, Function<Endpoint, T> read) {
        List<Endpoint> endpoints;
        try {
            endpoints = registries.endpoints(reference);
        } catch (IllegalArgumentException e) {
            throw new RegistryException.BadContent(e.getMessage());
        }
        if (endpoints.isEmpty()) {
            throw new RegistryException.AccessDenied(reference.name()
                    + " is blocked by the registries configuration, with no mirror for a "
                    + (reference.pinned() ? "digest" : "tag") + " reference");
        }
        List<RegistryException> failures = new ArrayList<>();
        for (Endpoint endpoint : endpoints) {
            try {
                return read.apply(endpoint);
            } catch (RegistryException e) {
                failures.add(e);
            }
        }
        if (failures.size() == 1) {
            throw failures.get(0);
        }
        String all = failures.stream().map(Throwable::getMessage).collect(Collectors.joining("; "));
        for (Class<?> kind : List.of(
                RegistryException.Unavailable.class,
                RegistryException.AccessDenied.class,
                RegistryException.BadContent.class)) {
            for (RegistryException failure : failures) {
                if (kind.isInstance(failure)) {
                    throw rethrown(failure, all);
                }
            }
        }
        throw new RegistryException.NotFound(all);
    }

    private static RegistryException rethrown(RegistryException kind, String message) {
        if (kind instanceof RegistryException.Unavailable) {
            return new RegistryException.Unavailable(message, kind.getCause());
        }
        if (kind instanceof RegistryException.AccessDenied) {
            return new RegistryException.AccessDenied(message);
        }
        return new RegistryException.BadContent(message);
    }

    /** One API call with authentication: anonymous or cached first, then answering the registry's challenge once. */
    private Response exchange(
            Endpoint endpoint, String method, String path, String accept, int maxBytes, String where) {
        ImageReference reference = endpoint.reference();
        URI uri = base(endpoint).resolve("/v2/" + reference.repository() + path);
        String key = origin(uri) + " " + reference.repository();
        Authorization cached = authorizations.get(key);
        String authorization = cached != null && clock.instant().isBefore(cached.expiresAt()) ? cached.value() : null;
        Response response = follow(method, uri, accept, authorization, maxBytes, where);
        if (response.status() != 401 || !response.sameOrigin()) {
            return response;
        }
        List<AuthChallenge> challenges = AuthChallenge.parse(response.headers().allValues("WWW-Authenticate"));
        Authorization fresh = authenticate(endpoint, reference.repository(), challenges, where);
        remember(key, fresh);
        response = follow(method, uri, accept, fresh.value(), maxBytes, where);
        if (response.status() == 401 && response.sameOrigin()) {
            authorizations.remove(key);
            throw new RegistryException.AccessDenied(
                    where + ": the registry refused the credentials (HTTP 401" + detail(response) + ")");
        }
        return response;
    }

    private void remember(String key, Authorization authorization) {
        if (authorizations.size() >= MAX_CACHED_AUTH) {
            Instant now = clock.instant();
            authorizations.values().removeIf(a -> !now.isBefore(a.expiresAt()));
            if (authorizations.size() >= MAX_CACHED_AUTH) {
                authorizations.clear();
            }
        }
        authorizations.put(key, authorization);
    }

    private Authorization authenticate(
            Endpoint endpoint, String repository, List<AuthChallenge> challenges, String where) {
        String registry = endpoint.reference().registry();
        Credentials credentials = secrets.lookup(registry, repository).orElse(null);
        for (AuthChallenge challenge : challenges) {
            if (challenge.isBearer()) {
                return token(endpoint, challenge, repository, credentials, where);
            }
        }
        for (AuthChallenge challenge : challenges) {
            if (challenge.isBasic()) {
                if (credentials == null || !credentials.hasPassword()) {
                    throw new RegistryException.AccessDenied(where + ": " + registry
                            + " asks for basic auth, and the pull secrets hold no user and password for "
                            + registry + "/" + repository);
                }
                return new Authorization(credentials.basic(), Instant.MAX);
            }
        }
        throw new RegistryException.AccessDenied(where + ": HTTP 401 without a Basic or Bearer challenge ("
                + String.join(
                        " | ", challenges.stream().map(AuthChallenge::scheme).toList()) + ")");
    }

    /** Docker's token protocol: GET the realm with basic auth, or POST an OAuth2 refresh-token grant. */
    private Authorization token(
            Endpoint endpoint, AuthChallenge challenge, String repository, Credentials credentials, String where) {
        String realm = challenge.param("realm");
        URI realmUri;
        try {
            realmUri = realm == null ? null : URI.create(realm);
        } catch (IllegalArgumentException e) {
            realmUri = null;
        }
        if (realmUri == null || realmUri.getHost() == null) {
            throw new RegistryException.BadContent(
                    where + ": the bearer challenge has no usable realm (" + realm + ")");
        }
        if (!"https".equalsIgnoreCase(realmUri.getScheme()) && !endpoint.insecure()) {
            throw new RegistryException.BadContent(
                    where + ": the token realm " + realm + " is not https; no credentials are sent there");
        }
        String scope =
                challenge.param("scope") != null ? challenge.param("scope") : "repository:" + repository + ":pull";
        String service = challenge.param("service");
        StringBuilder form = new StringBuilder();
        if (service != null) {
            form.append("service=").append(encode(service)).append('&');
        }
        form.append("scope=").append(encode(scope));
        HttpRequest.Builder request = HttpRequest.newBuilder().timeout(REQUEST_TIMEOUT);
        String who;
        if (credentials != null && credentials.hasIdentityToken()) {
            form.append("&grant_type=refresh_token&client_id=mcdhooks&refresh_token=")
                    .append(encode(credentials.identityToken()));
            request.uri(realmUri)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form.toString()));
            who = "the identity token";
        } else {
            request.uri(URI.create(realm + (realm.contains("?") ? "&" : "?") + form))
                    .GET();
            if (credentials != null && credentials.hasPassword()) {
                request.header("Authorization", credentials.basic());
                who = "user " + credentials.username();
            } else {
                who = "an anonymous request";
            }
        }
        String at = "token server " + realmUri.getHost() + " for " + where;
        HttpResponse<InputStream> raw = send(request.build(), at);
        int status = raw.statusCode();
        byte[] body = read(raw, status == 200 ? MAX_TOKEN_BYTES : MAX_ERROR_BYTES, status == 200, at);
        if (status == 401 || status == 403) {
            throw new RegistryException.AccessDenied(
                    at + ": refused " + who + " for scope " + scope + " (HTTP " + status + ")");
        }
        if (status != 200) {
            throw new RegistryException.Unavailable(at + ": HTTP " + status, null);
        }
        JsonNode answer;
        try {
            answer = json.readTree(body);
        } catch (IOException e) {
            throw new RegistryException.BadContent(at + ": the answer is not JSON");
        }
        String token = tokenField(answer, "token");
        if (token == null) {
            token = tokenField(answer, "access_token");
        }
        if (token == null) {
            throw new RegistryException.BadContent(at + ": the answer has no token");
        }
        long seconds =
                Math.max(MIN_TOKEN_LIFE.toSeconds(), answer.path("expires_in").asLong(0));
        return new Authorization(
                "Bearer " + token, clock.instant().plusSeconds(seconds).minus(TOKEN_SLACK));
    }

    private static String tokenField(JsonNode answer, String field) {
        JsonNode value = answer == null ? null : answer.get(field);
        return value != null && value.isTextual() && !value.asText().isBlank() ? value.asText() : null;
    }

    /** Sends, following redirects; {@code Authorization} only to the first request's origin. */
    private Response follow(String method, URI uri, String accept, String authorization, int maxBytes, String where) {
        String origin = origin(uri);
        URI current = uri;
        for (int hop = 0; ; hop++) {
            boolean sameOrigin = origin(current).equals(origin);
            HttpRequest.Builder request = HttpRequest.newBuilder(current)
                    .timeout(REQUEST_TIMEOUT)
                    .method(method, HttpRequest.BodyPublishers.noBody());
            if (accept != null) {
                request.header("Accept", accept);
            }
            if (authorization != null && sameOrigin) {
                request.header("Authorization", authorization);
            }
            HttpResponse<InputStream> response = send(request.build(), where);
            int status = response.statusCode();
            if (status == 301 || status == 302 || status == 303 || status == 307 || status == 308) {
                closeQuietly(response);
                String location = response.headers().firstValue("Location").orElse(null);
                if (location == null) {
                    throw new RegistryException.BadContent(where + ": HTTP " + status + " without a Location");
                }
                URI next;
                try {
                    next = current.resolve(location.trim());
                } catch (IllegalArgumentException e) {
                    throw new RegistryException.BadContent(
                            where + ": a redirect to an unreadable Location " + location);
                }
                if (hop == MAX_REDIRECTS) {
                    throw new RegistryException.BadContent(where + ": more than " + MAX_REDIRECTS + " redirects");
                }
                if ("https".equalsIgnoreCase(current.getScheme()) && !"https".equalsIgnoreCase(next.getScheme())) {
                    throw new RegistryException.BadContent(where + ": refused a redirect from https to "
                            + next.getScheme() + " (" + next.getHost() + ")");
                }
                current = next;
                continue;
            }
            byte[] body;
            if ("HEAD".equals(method)) {
                closeQuietly(response);
                body = new byte[0];
            } else {
                boolean wanted = status == 200;
                body = read(response, wanted ? maxBytes : MAX_ERROR_BYTES, wanted, where);
            }
            return new Response(status, response.headers(), body, current, sameOrigin);
        }
    }

    private HttpResponse<InputStream> send(HttpRequest request, String where) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new RegistryException.Unavailable(
                    where + ": " + request.method() + " " + request.uri().getHost() + ":"
                            + request.uri().getPort() + " failed: " + describe(e),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegistryException.Unavailable(where + ": interrupted", e);
        }
    }

    /** Reads at most {@code max} bytes; over it, a {@code strict} read fails, an error body is cut. */
    private static byte[] read(HttpResponse<InputStream> response, int max, boolean strict, String where) {
        long declared = response.headers().firstValueAsLong("Content-Length").orElse(-1);
        try (InputStream in = response.body()) {
            if (strict && declared > max) {
                throw new RegistryException.BadContent(where + " is " + declared + " bytes, over the limit of " + max);
            }
            byte[] body = in.readNBytes(strict ? max + 1 : max);
            if (strict && body.length > max) {
                throw new RegistryException.BadContent(where + " is over the limit of " + max + " bytes");
            }
            return body;
        } catch (IOException e) {
            throw new RegistryException.Unavailable(where + ": reading the answer failed: " + describe(e), e);
        }
    }

    private static void expectOk(Response response, String where) {
        int status = response.status();
        if (status == 200) {
            return;
        }
        String detail = detail(response);
        String from = response.sameOrigin() ? "" : " from " + response.uri().getHost() + " (redirected)";
        if (status == 401 || status == 403) {
            throw new RegistryException.AccessDenied(where + ": HTTP " + status + from + detail);
        }
        if (status == 404) {
            throw new RegistryException.NotFound(where + ": not found (HTTP 404" + from + detail + ")");
        }
        String retryAfter = response.headers()
                .firstValue("Retry-After")
                .map(v -> ", Retry-After " + v)
                .orElse("");
        throw new RegistryException.Unavailable(where + ": HTTP " + status + from + retryAfter + detail, null);
    }

    /** The registry's error codes ({@code {"errors":[{"code":"MANIFEST_UNKNOWN",...}]}}), if it sent any. */
    private static String detail(Response response) {
        if (response.body().length == 0) {
            return "";
        }
        try {
            JsonNode errors = new ObjectMapper().readTree(response.body()).path("errors");
            List<String> codes = new ArrayList<>();
            errors.forEach(e -> codes.add(e.path("code").asText("?")));
            return codes.isEmpty() ? "" : " " + String.join(",", codes);
        } catch (IOException e) {
            return "";
        }
    }

    private static URI base(Endpoint endpoint) {
        String registry = endpoint.reference().registry();
        // Docker Hub's API lives on its own host.
        String host = ImageReference.DOCKER_HUB.equals(registry) ? "registry-1.docker.io" : registry;
        return URI.create((endpoint.insecure() ? "http" : "https") + "://" + host);
    }

    private static String origin(URI uri) {
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        int port = uri.getPort() >= 0 ? uri.getPort() : "https".equals(scheme) ? 443 : 80;
        return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + port;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static void closeQuietly(HttpResponse<InputStream> response) {
        try {
            response.body().close();
        } catch (IOException e) {
            // a redirect's body is not needed
        }
    }

    /** The exception and, when another, its root cause: {@code ConnectException (ClosedChannelException)}. */
    private static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        if (root != e) {
            text += " (" + root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage())
                    + ")";
        }
        return text;
    }
}
