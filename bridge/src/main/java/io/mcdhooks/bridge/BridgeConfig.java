package io.mcdhooks.bridge;

import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.kafka.Topics;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The bridge's settings, from environment variables. Kafka client settings come from
 * {@code KAFKA_*} variables (see {@link KafkaSettings}); the Kubernetes connection from the usual
 * in-cluster service account or {@code KUBECONFIG}.
 *
 * @param cluster          MCDHOOKS_CLUSTER: the name every message carries (required)
 * @param gatedPools       MCDHOOKS_GATED_POOLS: without the gatekeeper, the pools whose gates are
 *                         requested ({@code *}: all); with it, the UpdateHooks decide
 * @param gateTimeout      MCDHOOKS_GATE_TIMEOUT: a gate request's deadline after it opens
 * @param recoveryLookback MCDHOOKS_RECOVERY_LOOKBACK: how far back a restart reads what was published
 * @param httpPort         MCDHOOKS_HTTP_PORT: health endpoints; 0 picks a free port
 * @param createTopics     MCDHOOKS_CREATE_TOPICS: create missing topics at start (local runs)
 * @param topicPartitions  MCDHOOKS_TOPIC_PARTITIONS: partitions of topics it creates
 * @param gatekeeper       MCDHOOKS_GATEKEEPER: enforce gates (true), or only publish (false)
 * @param namespace        MCDHOOKS_NAMESPACE: where the gatekeeper keeps its gate pods and budgets
 * @param gatePodImage     MCDHOOKS_GATE_POD_IMAGE: the image of gate pods (they only sit there)
 * @param tick             MCDHOOKS_TICK: how often deadlines are checked
 * @param lagInterval      MCDHOOKS_LAG_INTERVAL: how often hooks' consumer groups are sampled
 * @param lagWindow        MCDHOOKS_LAG_WINDOW: how many samples a hook's lag state is judged over
 */
public record BridgeConfig(
        String cluster,
        KafkaSettings kafka,
        String lifecycleTopic,
        String gateRequestsTopic,
        Set<String> gatedPools,
        Duration gateTimeout,
        Duration recoveryLookback,
        int httpPort,
        boolean createTopics,
        int topicPartitions,
        String verdictsTopic,
        String decisionsTopic,
        String deadLetterTopic,
        boolean gatekeeper,
        String namespace,
        String gatePodImage,
        Duration tick,
        Duration lagInterval,
        int lagWindow) {

    public BridgeConfig {
        if (cluster == null || !cluster.matches("^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$")) {
            throw new IllegalArgumentException(
                    "MCDHOOKS_CLUSTER='" + cluster + "' must be a lowercase DNS name of at most 63 characters");
        }
        kafka.bootstrapServers();
        if (lagWindow < 1) {
            throw new IllegalArgumentException("MCDHOOKS_LAG_WINDOW must be at least 1, was " + lagWindow);
        }
        if (topicPartitions < 1) {
            throw new IllegalArgumentException("MCDHOOKS_TOPIC_PARTITIONS must be at least 1, was " + topicPartitions);
        }
    }

    public static BridgeConfig fromEnvironment(Map<String, String> env) {
        return new BridgeConfig(
                env.get("MCDHOOKS_CLUSTER"),
                KafkaSettings.fromEnvironment(env),
                env.getOrDefault("MCDHOOKS_TOPIC_LIFECYCLE", Topics.LIFECYCLE),
                env.getOrDefault("MCDHOOKS_TOPIC_GATE_REQUESTS", Topics.GATE_REQUESTS),
                Arrays.stream(env.getOrDefault("MCDHOOKS_GATED_POOLS", "*").split(","))
                        .map(String::trim)
                        .filter(s -> !s.isEmpty())
                        .collect(Collectors.toUnmodifiableSet()),
                Durations.parse("MCDHOOKS_GATE_TIMEOUT", env.getOrDefault("MCDHOOKS_GATE_TIMEOUT", "30m")),
                Durations.parse("MCDHOOKS_RECOVERY_LOOKBACK", env.getOrDefault("MCDHOOKS_RECOVERY_LOOKBACK", "48h")),
                integer(env, "MCDHOOKS_HTTP_PORT", 8080),
                Boolean.parseBoolean(env.getOrDefault("MCDHOOKS_CREATE_TOPICS", "false")),
                integer(env, "MCDHOOKS_TOPIC_PARTITIONS", 12),
                env.getOrDefault("MCDHOOKS_TOPIC_VERDICTS", Topics.VERDICTS),
                env.getOrDefault("MCDHOOKS_TOPIC_GATE_DECISIONS", Topics.GATE_DECISIONS),
                env.getOrDefault("MCDHOOKS_TOPIC_DEAD_LETTER", Topics.DEAD_LETTER),
                Boolean.parseBoolean(env.getOrDefault("MCDHOOKS_GATEKEEPER", "true")),
                env.getOrDefault("MCDHOOKS_NAMESPACE", "mcdhooks"),
                env.getOrDefault("MCDHOOKS_GATE_POD_IMAGE", "registry.k8s.io/pause:3.10"),
                Durations.parse("MCDHOOKS_TICK", env.getOrDefault("MCDHOOKS_TICK", "1s")),
                Durations.parse("MCDHOOKS_LAG_INTERVAL", env.getOrDefault("MCDHOOKS_LAG_INTERVAL", "10s")),
                integer(env, "MCDHOOKS_LAG_WINDOW", 10));
    }

    private static int integer(Map<String, String> env, String name, int fallback) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "='" + value + "' is not a whole number", e);
        }
    }
}
