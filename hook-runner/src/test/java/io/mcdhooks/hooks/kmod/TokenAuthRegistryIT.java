package io.mcdhooks.hooks.kmod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.registry.TokenServer;
import io.mcdhooks.hooks.testing.Kmod;
import io.mcdhooks.sandbox.registry.ForkedRegistry;
import io.mcdhooks.sandbox.registry.ImagePusher;
import io.mcdhooks.sandbox.registry.ImagePusher.Platform;
import io.mcdhooks.sandbox.registry.RegistryTls;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kmod hook against a real registry that works as the big public ones do: token auth (the
 * registry answers 401 with a {@code Bearer realm=...,service=...,scope=...} challenge, a token
 * server of the test hands out JWTs the registry verifies) and blobs served from another host (the
 * registry's {@code redirect} storage middleware answers 307 to a blob store, as a CDN or S3 would).
 */
class TokenAuthRegistryIT {

    private static final String USER = "ci-robot";
    private static final String PASSWORD = "token-pw";
    private static final String KERNEL = "5.14.0-427.13.1.el9_4.x86_64";

    private static TokenServer tokens;
    private static BlobStore blobs;
    private static ForkedRegistry registry;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        assumeTrue(ForkedRegistry.installed(), ForkedRegistry.MISSING);
        RegistryTls tls = RegistryTls.generate(dir.resolve("tls"));
        tokens = new TokenServer(tls.serverContext(), tls.caKey(), tls.caCertificate(), USER, PASSWORD);
        blobs = new BlobStore(tls);
        registry = ForkedRegistry.start(
                new ForkedRegistry.Options(
                        new ForkedRegistry.Token(tokens.realm(), TokenServer.SERVICE, TokenServer.ISSUER),
                        blobs.base()),
                tls);
        blobs.root = registry.storageRoot();
    }

    @AfterAll
    static void stop() {
        if (registry != null) {
            registry.close();
        }
        if (blobs != null) {
            blobs.close();
        }
        if (tokens != null) {
            tokens.close();
        }
    }

    @Test
    void getsATokenForEachRepositoryKeepsItAndFetchesBlobsFromAnotherHostWithoutCredentials(@TempDir Path dir)
            throws Exception {
        // Given an OS image and its module image, pushed with a push token
        ImagePusher pusher =
                new ImagePusher(registry.baseUri(), registry.tls().clientContext(), ImagePusher.basic(USER, PASSWORD));
        String index = pusher.pushOsImage("os/rhcos", "4.16", Map.of(Platform.of("amd64"), KERNEL));
        String module = pusher.pushImage("kmods/nvidia", KERNEL, Platform.of("amd64"), Map.of());
        int pushTokens = tokens.requests().size();
        RegistryKernelModuleHook hook = hook(dir);
        GateRequest request = Kmod.gate(registry.host() + "/os/rhcos:4.16", "default", null, null);

        // When the gate is checked twice
        CheckResult first = hook.assess(request, () -> false);
        CheckResult second = hook.assess(request, () -> false);

        // Then both pass, naming the resolved digests
        assertThat(first.outcome()).as(first.message()).isEqualTo(Outcome.PASS);
        assertThat(first.message()).contains("nvidia:" + KERNEL + "@" + module).contains("resolved to " + index);
        assertThat(second.outcome()).isEqualTo(Outcome.PASS);
        // one pull token per repository, asked with the pull secret's user, kept for the second check
        String basic =
                "Basic " + Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        List<TokenServer.Request> pulls =
                tokens.requests().subList(pushTokens, tokens.requests().size());
        assertThat(pulls)
                .extracting(TokenServer.Request::scope)
                .containsExactlyInAnyOrder("repository:os/rhcos:pull", "repository:kmods/nvidia:pull");
        assertThat(pulls).allSatisfy(r -> assertThat(r.authorization()).isEqualTo(basic));
        // the config blob came from the blob store, which never saw an Authorization header
        assertThat(blobs.seen).isNotEmpty().allSatisfy(seen -> assertThat(seen).endsWith("auth=none"));
    }

    private RegistryKernelModuleHook hook(Path dir) throws Exception {
        Path modules = Files.writeString(
                dir.resolve("modules.yaml"),
                Kmod.module("gpu", "nvidia", registry.host() + "/kmods/nvidia:${KERNEL_FULL_VERSION}"));
        Path secret = Files.writeString(
                dir.resolve("config.json"),
                "{\"auths\":{\"" + registry.host() + "\":{\"username\":\"" + USER + "\",\"password\":\"" + PASSWORD
                        + "\"}}}");
        return RegistryKernelModuleHook.create(
                GateSelector.stages(Stage.POOL_PRE_UPDATE),
                new RegistryModuleSettings(
                        modules,
                        List.of(secret),
                        registry.tls().caFile(),
                        null,
                        List.of("amd64"),
                        Map.of(),
                        Duration.ofMinutes(1)));
    }

    /**
     * The host blobs are redirected to: serves the registry's storage files by their path, as an
     * object store would, on {@code localhost} (the registry is {@code 127.0.0.1}: another origin).
     */
    static final class BlobStore implements AutoCloseable {
        final List<String> seen = new CopyOnWriteArrayList<>();
        volatile Path root;
        private final HttpsServer server;

        BlobStore(RegistryTls tls) throws IOException {
            server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.setHttpsConfigurator(new HttpsConfigurator(tls.serverContext()));
            server.createContext("/", this::handle);
            server.start();
        }

        URI base() {
            return URI.create("https://localhost:" + server.getAddress().getPort() + "/");
        }

        private void handle(HttpExchange exchange) throws IOException {
            String path = exchange.getRequestURI().getPath();
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            seen.add(path + " auth=" + (auth == null ? "none" : auth));
            Path file = root.resolve(path.substring(1)).normalize();
            if (!file.startsWith(root) || !Files.isRegularFile(file)) {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            byte[] body = Files.readAllBytes(file);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
