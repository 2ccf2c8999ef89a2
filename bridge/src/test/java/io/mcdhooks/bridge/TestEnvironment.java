package io.mcdhooks.bridge;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import io.mcdhooks.sandbox.kafka.KafkaBroker;

/** Bridge settings for a test: the test broker, topics of its own, a free port, topics created. */
final class TestEnvironment {

    private TestEnvironment() {
    }

    static Map<String, String> bridge(KafkaBroker broker, String cluster) {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> env = new HashMap<>();
        env.put("MCDHOOKS_CLUSTER", cluster);
        env.put("KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers());
        env.put("MCDHOOKS_TOPIC_LIFECYCLE", "lifecycle-" + suffix);
        env.put("MCDHOOKS_TOPIC_GATE_REQUESTS", "gates-" + suffix);
        env.put("MCDHOOKS_TOPIC_VERDICTS", "verdicts-" + suffix);
        env.put("MCDHOOKS_TOPIC_GATE_DECISIONS", "decisions-" + suffix);
        env.put("MCDHOOKS_TOPIC_DEAD_LETTER", "dead-letter-" + suffix);
        env.put("MCDHOOKS_HTTP_PORT", "0");
        env.put("MCDHOOKS_CREATE_TOPICS", "true");
        env.put("MCDHOOKS_TOPIC_PARTITIONS", "3");
        return env;
    }
}
