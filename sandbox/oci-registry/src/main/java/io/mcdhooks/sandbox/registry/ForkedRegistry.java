package io.mcdhooks.sandbox.registry;

import at.favre.lib.crypto.bcrypt.BCrypt;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Debian's {@code docker-registry} (the CNCF distribution registry 2.8) as a child process on a
 * free loopback port, with TLS from a throw-away CA and either htpasswd (basic) or token (bearer)
 * auth. Its data and log live in a temporary directory; the log is kept while the process runs and
 * can be read by a failing test.
 *
 * <p>A Go binary does not notice its parent dying, so it runs under a small {@code sh} wrapper that
 * watches its own standard input: when this JVM exits, even by SIGKILL, the pipe closes and the
 * wrapper kills the registry.
 */
public final class ForkedRegistry implements AutoCloseable {

    /** Where to look for the binary; {@value #BINARY_PROPERTY} overrides. */
    public static final String DEFAULT_BINARY = "/usr/bin/docker-registry";

    public static final String BINARY_PROPERTY = "mcdhooks.registry.binary";

    /** What to tell someone without the binary. */
    public static final String MISSING =
            "docker-registry is not installed: Debian's package docker-registry (apt-get install docker-registry)"
                    + " provides the real OCI registry this needs";

    private static final Logger LOG = LoggerFactory.getLogger(ForkedRegistry.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final String WATCHDOG =
            "exec 3<&0; \"$0\" serve \"$1\" & pid=$!; " + "(cat <&3 >/dev/null; kill $pid 2>/dev/null) & wait $pid";

    /** How clients authenticate. */
    public sealed interface Auth {}

    /** Basic auth against an htpasswd file holding one user. */
    public record Htpasswd(String username, String password) implements Auth {
        public Htpasswd {
            Objects.requireNonNull(username, "username");
            Objects.requireNonNull(password, "password");
        }
    }

    /**
     * Token auth: the registry challenges with {@code Bearer realm=...,service=...} and accepts JWTs
     * from {@code issuer} signed with a key whose certificate chain ends in the registry's CA.
     */
    public record Token(URI realm, String service, String issuer) implements Auth {}

    /**
     * @param auth            how clients authenticate
     * @param redirectBaseUrl when set, blob downloads answer 307 to this base URL plus the blob's
     *                        storage path (the registry's {@code redirect} storage middleware), as
     *                        registries behind a CDN or object store do
     */
    public record Options(Auth auth, URI redirectBaseUrl) {
        public Options {
            Objects.requireNonNull(auth, "auth");
        }

        public static Options basic(String username, String password) {
            return new Options(new Htpasswd(username, password), null);
        }
    }

    private final Path dir;
    private final RegistryTls tls;
    private final Options options;
    private final int port;
    private final Thread shutdownHook;
    private Process process;

    private ForkedRegistry(Path dir, RegistryTls tls, Options options) {
        this.dir = dir;
        this.tls = tls;
        this.options = options;
        this.port = freePort();
        this.shutdownHook = new Thread(this::destroyProcess, "forked-registry-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** The binary if it is installed. */
    public static Optional<Path> binary() {
        Path binary = Path.of(System.getProperty(BINARY_PROPERTY, DEFAULT_BINARY));
        if (Files.isExecutable(binary)) {
            return Optional.of(binary);
        }
        String path = System.getenv().getOrDefault("PATH", "");
        for (String entry : path.split(File.pathSeparator)) {
            Path candidate = Path.of(entry.isEmpty() ? "." : entry, "docker-registry");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    public static boolean installed() {
        return binary().isPresent();
    }

    /** Starts a registry with its own CA; returns once it answers {@code /v2/}. */
    public static ForkedRegistry start(Options options) {
        Path dir = tempDir();
        return start(options, RegistryTls.generate(dir.resolve("tls")), dir);
    }

    /** Starts a registry with the certificate of {@code tls} (e.g. shared with a token server of the test). */
    public static ForkedRegistry start(Options options, RegistryTls tls) {
        return start(options, tls, tempDir());
    }

    private static ForkedRegistry start(Options options, RegistryTls tls, Path dir) {
        Path binary = binary().orElseThrow(() -> new IllegalStateException(MISSING));
        ForkedRegistry registry = new ForkedRegistry(dir, tls, options);
        try {
            registry.launch(binary);
        } catch (RuntimeException e) {
            registry.close();
            throw e;
        }
        return registry;
    }

    /** {@code 127.0.0.1:<port>}: the registry's host as image references name it. */
    public String host() {
        return "127.0.0.1:" + port;
    }

    /** The same registry under another host name, {@code localhost:<port>} (the certificate covers both). */
    public String otherHost() {
        return "localhost:" + port;
    }

    public int port() {
        return port;
    }

    public URI baseUri() {
        return URI.create("https://" + host());
    }

    public RegistryTls tls() {
        return tls;
    }

    public Options options() {
        return options;
    }

    /** Where blobs are stored, as the redirect middleware's paths name them. */
    public Path storageRoot() {
        return dir.resolve("data");
    }

    public Path logFile() {
        return dir.resolve("registry.log");
    }

    /** A client that pushes images with the registry's credentials (basic auth only). */
    public ImagePusher pusher() {
        if (!(options.auth() instanceof Htpasswd basic)) {
            throw new IllegalStateException("this registry uses token auth: give the pusher a token source");
        }
        return new ImagePusher(baseUri(), tls.clientContext(), ImagePusher.basic(basic.username(), basic.password()));
    }

    /** The wrapper's and the registry's process ids (for tests that check nothing is left). */
    public synchronized List<Long> processIds() {
        if (process == null) {
            return List.of();
        }
        return Stream.concat(Stream.of(process.toHandle()), process.descendants())
                .map(ProcessHandle::pid)
                .toList();
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    private void launch(Path binary) {
        Path config = writeConfig();
        try {
            process = new ProcessBuilder(List.of("/bin/sh", "-c", WATCHDOG, binary.toString(), config.toString()))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + binary, e);
        }
        awaitReady();
        LOG.info(
                "registry ready at {} ({}; log: {})",
                baseUri(),
                options.auth().getClass().getSimpleName(),
                logFile());
    }

    private Path writeConfig() {
        StringBuilder yaml = new StringBuilder();
        yaml.append("version: 0.1\n")
                .append("log:\n  level: info\n  fields:\n    service: mcdhooks-test-registry\n")
                .append("storage:\n  filesystem:\n    rootdirectory: ")
                .append(storageRoot())
                .append("\n  delete:\n    enabled: true\n")
                .append("  maintenance:\n    uploadpurging:\n      enabled: false\n")
                .append("http:\n  addr: 127.0.0.1:")
                .append(port)
                .append("\n  secret: ")
                .append(UUID.randomUUID())
                .append("\n  tls:\n    certificate: ")
                .append(tls.certificateFile())
                .append("\n    key: ")
                .append(tls.keyFile())
                .append('\n');
        if (options.auth() instanceof Htpasswd basic) {
            Path htpasswd = dir.resolve("htpasswd");
            // Cost 6 keeps each login cheap; the registry accepts any bcrypt cost from 4.
            String hash = BCrypt.withDefaults().hashToString(6, basic.password().toCharArray());
            write(htpasswd, basic.username() + ":" + hash + "\n");
            yaml.append("auth:\n  htpasswd:\n    realm: mcdhooks-test\n    path: ")
                    .append(htpasswd)
                    .append('\n');
        } else if (options.auth() instanceof Token token) {
            yaml.append("auth:\n  token:\n    realm: ")
                    .append(token.realm())
                    .append("\n    service: ")
                    .append(token.service())
                    .append("\n    issuer: ")
                    .append(token.issuer())
                    .append("\n    rootcertbundle: ")
                    .append(tls.caFile())
                    .append('\n');
        }
        if (options.redirectBaseUrl() != null) {
            yaml.append("middleware:\n  storage:\n    - name: redirect\n      options:\n        baseurl: ")
                    .append(options.redirectBaseUrl())
                    .append('\n');
        }
        Path file = dir.resolve("config.yml");
        write(file, yaml.toString());
        return file;
    }

    private void awaitReady() {
        HttpClient client = HttpClient.newBuilder()
                .sslContext(tls.clientContext())
                .connectTimeout(Duration.ofSeconds(2))
                .build();
        HttpRequest probe = HttpRequest.newBuilder(baseUri().resolve("/v2/"))
                .timeout(Duration.ofSeconds(2))
                .build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            try {
                // Any answer (401 with auth) means it serves the API.
                client.send(probe, HttpResponse.BodyHandlers.discarding());
                return;
            } catch (IOException e) {
                if (!process.isAlive()) {
                    throw new IllegalStateException(
                            "docker-registry exited with code " + process.exitValue() + ":\n" + tail());
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("docker-registry did not answer on " + baseUri() + " within "
                            + START_TIMEOUT + ":\n" + tail());
                }
                pause();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the registry", e);
            }
        }
    }

    /** The last lines of the registry's log. */
    public String tail() {
        try {
            List<String> lines = Files.readAllLines(logFile(), StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log at " + logFile() + ")";
        }
    }

    @Override
    public synchronized void close() {
        destroyProcess();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down; the hook runs anyway
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("could not delete {}", dir, e);
        }
    }

    private synchronized void destroyProcess() {
        Process p = process;
        if (p == null) {
            return;
        }
        List<ProcessHandle> all =
                Stream.concat(Stream.of(p.toHandle()), p.descendants()).toList();
        try {
            // Closing the wrapper's stdin makes it kill the registry and exit; wait for every one of them.
            p.getOutputStream().close();
            for (ProcessHandle handle : all) {
                handle.onExit().get(10, TimeUnit.SECONDS);
            }
        } catch (IOException | ExecutionException | TimeoutException e) {
            all.forEach(ProcessHandle::destroyForcibly);
        } catch (InterruptedException e) {
            all.forEach(ProcessHandle::destroyForcibly);
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("mcdhooks-registry-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the registry's directory", e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the registry", e);
        }
    }
}
