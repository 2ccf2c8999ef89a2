package io.mcdhooks.sandbox.kafka;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node KRaft broker (combined broker and controller) in a JVM of its own, started from
 * Kafka's own jars as resolved by the {@code kafka-broker-runtime} module.
 *
 * <p>Forking keeps the broker's dependencies (Kafka 4, Scala, its Jackson) apart from ours, and
 * lets a test kill the broker like a real one. The child exits by itself when this JVM dies,
 * because it watches its standard input (see {@code SandboxBroker}).
 */
public final class ForkedKafkaBroker implements KafkaBroker {

    private static final Logger LOG = LoggerFactory.getLogger(ForkedKafkaBroker.class);
    private static final String CLASSPATH_RESOURCE = "/io/mcdhooks/kafka/kafka-broker.classpath";
    private static final String MAIN_CLASS = "io.mcdhooks.kafka.runtime.SandboxBroker";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    private final Path workDir;
    private final int brokerPort;
    private final int controllerPort;
    private final String clusterId;
    private final Map<String, String> extraConfig;
    private final Thread shutdownHook;
    private Process process;

    private ForkedKafkaBroker(Path workDir, Map<String, String> extraConfig) {
        this.workDir = workDir;
        this.extraConfig = Map.copyOf(extraConfig);
        int[] ports = freePorts(2);
        this.brokerPort = ports[0];
        this.controllerPort = ports[1];
        this.clusterId = Uuid.randomUuid().toString();
        this.shutdownHook = new Thread(this::destroyProcess, "forked-kafka-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts a broker with the sandbox defaults; {@code extraConfig} overrides broker settings. */
    public static ForkedKafkaBroker start(Map<String, String> extraConfig) {
        Path dir;
        try {
            dir = Files.createTempDirectory("mcdhooks-kafka-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the broker's work directory", e);
        }
        ForkedKafkaBroker broker = new ForkedKafkaBroker(dir, extraConfig);
        try {
            broker.start();
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
        return broker;
    }

    @Override
    public String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    /** Where the broker writes its log, for a failing test to point at. */
    public Path logFile() {
        return workDir.resolve("broker.log");
    }

    @Override
    public synchronized void start() {
        if (isRunning()) {
            return;
        }
        long begin = System.nanoTime();
        Path properties = writeServerProperties();
        Path log4j = writeLog4jConfig();
        List<String> command = new ArrayList<>(List.of(
                javaExecutable(),
                "-Xms64m",
                "-Xmx512m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Djava.awt.headless=true",
                "-Dlog4j2.configurationFile=" + log4j.toUri(),
                "-cp",
                brokerClasspath(),
                MAIN_CLASS,
                properties.toString(),
                clusterId));
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the forked Kafka broker", e);
        }
        awaitReady();
        LOG.info(
                "Kafka broker ready at {} in {} ms (log: {})",
                bootstrapServers(),
                (System.nanoTime() - begin) / 1_000_000,
                logFile());
    }

    @Override
    public synchronized void stop() {
        destroyProcess();
    }

    @Override
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    @Override
    public synchronized void close() {
        destroyProcess();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down; the hook runs anyway
        }
        deleteRecursively(workDir);
    }

    private synchronized void destroyProcess() {
        Process p = process;
        if (p == null) {
            return;
        }
        p.destroy(); // SIGTERM: Kafka shuts down cleanly
        try {
            if (!p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        // First the port, cheaply, so the admin client does not log a storm of refusals.
        while (!portOpen()) {
            failIfDeadOrLate(deadline);
            pause(50);
        }
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                (int) START_TIMEOUT.toMillis()))) {
            admin.describeCluster().nodes().get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the forked Kafka broker did not answer; see " + logFile(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the broker", e);
        }
    }

    private void failIfDeadOrLate(long deadline) {
        if (!process.isAlive()) {
            throw new IllegalStateException("the forked Kafka broker exited with code " + process.exitValue() + "; see "
                    + logFile() + ":\n" + tail(logFile()));
        }
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException("the forked Kafka broker did not open port " + brokerPort + " within "
                    + START_TIMEOUT + "; see " + logFile());
        }
    }

    private boolean portOpen() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", brokerPort), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private Path writeServerProperties() {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("process.roles", "broker,controller");
        config.put("node.id", "1");
        config.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        config.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        config.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        config.put("controller.listener.names", "CONTROLLER");
        config.put("inter.broker.listener.name", "PLAINTEXT");
        config.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        config.put("log.dirs", workDir.resolve("data").toString());
        config.put("num.partitions", "1");
        // One node: every internal topic must live with a single replica.
        config.put("offsets.topic.replication.factor", "1");
        config.put("offsets.topic.num.partitions", "5");
        config.put("transaction.state.log.replication.factor", "1");
        config.put("transaction.state.log.min.isr", "1");
        config.put("transaction.state.log.num.partitions", "5");
        config.put("share.coordinator.state.topic.replication.factor", "1");
        config.put("share.coordinator.state.topic.min.isr", "1");
        // Tests and demos should not wait out the 3 s a production group waits for members.
        config.put("group.initial.rebalance.delay.ms", "0");
        config.putAll(extraConfig);
        StringBuilder text = new StringBuilder();
        config.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Path file = workDir.resolve("server.properties");
        try {
            Files.writeString(file, text.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }

    private Path writeLog4jConfig() {
        Path file = workDir.resolve("log4j2.properties");
        String text = """
                rootLogger.level = WARN
                rootLogger.appenderRef.stdout.ref = STDOUT
                appender.stdout.type = Console
                appender.stdout.name = STDOUT
                appender.stdout.layout.type = PatternLayout
                appender.stdout.layout.pattern = [%d] %p %m (%c)%n
                logger.server.name = kafka.server.KafkaRaftServer
                logger.server.level = INFO
                """;
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }

    /** The runtime jar itself (it holds {@code SandboxBroker}) followed by Kafka's jars. */
    static String brokerClasspath() {
        URL manifest = ForkedKafkaBroker.class.getResource(CLASSPATH_RESOURCE);
        if (manifest == null) {
            throw new IllegalStateException("resource " + CLASSPATH_RESOURCE + " is missing: "
                    + "the kafka-broker-runtime module must be built and on the classpath");
        }
        String dependencies;
        try (InputStream in = manifest.openStream()) {
            dependencies = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + manifest, e);
        }
        return runtimeLocation(manifest) + File.pathSeparator + dependencies;
    }

    private static String runtimeLocation(URL manifest) {
        try {
            String url = manifest.toString();
            if (url.startsWith("jar:")) {
                // jar:file:/…/kafka-broker-runtime.jar!/io/mcdhooks/…
                return Path.of(new URL(url.substring(4, url.indexOf("!/"))).toURI())
                        .toString();
            }
            // a class directory in the reactor: …/target/classes/io/mcdhooks/kafka/kafka-broker.classpath
            return Path.of(manifest.toURI())
                    .getParent()
                    .getParent()
                    .getParent()
                    .getParent()
                    .toString();
        } catch (URISyntaxException | IOException e) {
            throw new IllegalStateException("cannot locate the broker runtime from " + manifest, e);
        }
    }

    private static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * {@code count} distinct free ports. The sockets are held open together while the ports are
     * chosen: asked one after the other, the kernel may hand out the same port twice (it did, beside
     * a CPU hog), and the broker refuses two listeners on one port.
     */
    private static int[] freePorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException e) {
                    LOG.debug("cannot close a probe socket", e);
                }
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the broker", e);
        }
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("could not delete {}", dir, e);
        }
    }
}
