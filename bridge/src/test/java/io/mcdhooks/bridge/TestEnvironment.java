package io.mcdhooks.bridge;

import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.mco.Identity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bridge settings for a test: the test broker, topics of its own, a free port, topics created.
 * Shipped in the bridge's test jar for the benchmarks and the fault-injection suite.
 */
public final class TestEnvironment {

    private TestEnvironment() {}

    /**
     * The bridge's own service account ({@code deploy/base/bridge/rbac.yaml}) in its namespace: on a
     * real cluster its token says so; tests hand the bridge an in-memory API client acting as it.
     */
    public static Identity bridgeIdentity(String namespace) {
        return Identity.serviceAccount(namespace, "mcdhooks-bridge");
    }

    /**
     * A state key file of {@code cluster}'s, the same for every bridge of it in this JVM (a
     * restarted bridge must trust what its predecessor sealed), another for every other cluster.
     */
    public static Path stateKeyFile(String cluster) {
        return STATE_KEYS.computeIfAbsent(cluster, c -> {
            try {
                Path file = Files.createTempFile("mcdhooks-state-" + c, ".key");
                byte[] key = new byte[32];
                new SecureRandom().nextBytes(key);
                Files.write(file, key);
                file.toFile().deleteOnExit();
                return file;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static final Map<String, Path> STATE_KEYS = new ConcurrentHashMap<>();

    public static Map<String, String> bridge(KafkaBroker broker, String cluster) {
        return bridge(
                broker.bootstrapServers(), cluster, UUID.randomUUID().toString().substring(0, 8));
    }

    /** With topics named {@code <topic>-<suffix>}: bridges given the same suffix share them. */
    public static Map<String, String> bridge(String bootstrapServers, String cluster, String suffix) {
        Map<String, String> env = new HashMap<>();
        env.put("MCDHOOKS_CLUSTER", cluster);
        env.put("MCDHOOKS_STATE_KEY_FILE", stateKeyFile(cluster).toString());
        env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
        env.put("MCDHOOKS_LIFECYCLE_TOPIC", "lifecycle-" + suffix);
        env.put("MCDHOOKS_GATE_REQUESTS_TOPIC", "gates-" + suffix);
        env.put("MCDHOOKS_VERDICTS_TOPIC", "verdicts-" + suffix);
        env.put("MCDHOOKS_GATE_DECISIONS_TOPIC", "decisions-" + suffix);
        env.put("MCDHOOKS_DEAD_LETTER_TOPIC", "dead-letter-" + suffix);
        env.put("MCDHOOKS_CONFIG_SNAPSHOTS_TOPIC", "snapshots-" + suffix);
        env.put("MCDHOOKS_HTTP_PORT", "0");
        env.put("MCDHOOKS_CREATE_TOPICS", "true");
        env.put("MCDHOOKS_TOPIC_PARTITIONS", "3");
        return env;
    }
}
