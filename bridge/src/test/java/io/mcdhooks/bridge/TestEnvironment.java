package io.mcdhooks.bridge;

import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.mco.Identity;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

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

    public static Map<String, String> bridge(KafkaBroker broker, String cluster) {
        return bridge(
                broker.bootstrapServers(), cluster, UUID.randomUUID().toString().substring(0, 8));
    }

    /** With topics named {@code <topic>-<suffix>}: bridges given the same suffix share them. */
    public static Map<String, String> bridge(String bootstrapServers, String cluster, String suffix) {
        Map<String, String> env = new HashMap<>();
        env.put("MCDHOOKS_CLUSTER", cluster);
        env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
        env.put("MCDHOOKS_LIFECYCLE_TOPIC", "lifecycle-" + suffix);
        env.put("MCDHOOKS_GATE_REQUESTS_TOPIC", "gates-" + suffix);
        env.put("MCDHOOKS_VERDICTS_TOPIC", "verdicts-" + suffix);
        env.put("MCDHOOKS_GATE_DECISIONS_TOPIC", "decisions-" + suffix);
        env.put("MCDHOOKS_DEAD_LETTER_TOPIC", "dead-letter-" + suffix);
        env.put("MCDHOOKS_HTTP_PORT", "0");
        env.put("MCDHOOKS_CREATE_TOPICS", "true");
        env.put("MCDHOOKS_TOPIC_PARTITIONS", "3");
        return env;
    }
}
