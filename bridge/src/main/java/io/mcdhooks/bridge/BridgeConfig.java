package io.mcdhooks.bridge;

import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.kafka.TopicSettings;
import io.mcdhooks.schemas.settings.ConfigException;
import io.mcdhooks.schemas.settings.Grammar;
import io.mcdhooks.schemas.settings.Setting;
import io.mcdhooks.schemas.settings.Settings;
import io.mcdhooks.schemas.sign.StateSeal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The bridge's settings, from environment variables (the grammars are {@link Grammar}'s). Kafka
 * client settings come from {@code KAFKA_*} variables (see {@link KafkaSettings}); the Kubernetes
 * connection from the usual in-cluster service account or {@code KUBECONFIG}.
 *
 * @param cluster          MCDHOOKS_CLUSTER: the name every message carries (required)
 * @param gatedPools       MCDHOOKS_GATED_POOLS: without the gatekeeper, the pools whose gates are
 *                         requested ({@code *}: all); with it, the UpdateHooks decide
 * @param gateTimeout      MCDHOOKS_GATE_TIMEOUT: a gate request's deadline after it opens
 * @param recoveryLookback MCDHOOKS_RECOVERY_LOOKBACK: how far back a restart reads what was published
 * @param httpPort         MCDHOOKS_HTTP_PORT: health endpoints; 0 picks a free port
 * @param httpHost         MCDHOOKS_HTTP_HOST: the address they listen on (default every IPv4 address)
 * @param createTopics     MCDHOOKS_CREATE_TOPICS: create missing topics at start (local runs)
 * @param topicPartitions  MCDHOOKS_TOPIC_PARTITIONS: partitions of topics it creates
 * @param gatekeeper       MCDHOOKS_GATEKEEPER: enforce gates (true), or only publish (false)
 * @param namespace        MCDHOOKS_NAMESPACE: where the gatekeeper keeps its gate pods and budgets
 * @param gatePodImage     MCDHOOKS_GATE_POD_IMAGE: the image of gate pods (they only sit there)
 * @param tick             MCDHOOKS_TICK: how often deadlines are checked
 * @param lagInterval      MCDHOOKS_LAG_INTERVAL: how often hooks' consumer groups are sampled
 * @param lagWindow        MCDHOOKS_LAG_WINDOW: how many samples a hook's lag state is judged over
 * @param verdictClockSkew MCDHOOKS_VERDICT_CLOCK_SKEW: how far a hook's clock may be off: a verdict
 *                         produced later than that after the broker logged it is refused
 * @param leaderElection   MCDHOOKS_LEADER_ELECTION: act only while holding the Lease (true), or at once
 * @param uncordonHandover MCDHOOKS_UNCORDON_HANDOVER: how long a post-update gate keeps the drain
 *                         controller's uncordon refused before the hold is handed over to a cordon of
 *                         the gatekeeper's once the MCD is done (each refused uncordon keeps one of the
 *                         drain controller's five workers busy)
 * @param preUpdateLookahead MCDHOOKS_PRE_UPDATE_LOOKAHEAD: how many batches (maxUnavailable nodes
 *                         each) of a rolling pool's next nodes, in the MCC's order, get their
 *                         pre-update gate before they are assigned; 0: at assignment only
 * @param snapshotsTopic   MCDHOOKS_CONFIG_SNAPSHOTS_TOPIC: the compacted topic of the MachineConfigs
 *                         each rendered config was made from, which a rollback puts back
 * @param snapshotsKept    MCDHOOKS_CONFIG_SNAPSHOTS_KEPT: how many of a pool's newest snapshots are
 *                         kept (the configs its nodes are on or going to are kept anyway)
 * @param rollback         MCDHOOKS_ROLLBACK: carry out the pool rollbacks hooks ask for
 *                         (RollbackPool), which needs write access to MachineConfigs
 *                         ({@code deploy/rollback/}); false: report them only
 * @param stateSeal        MCDHOOKS_STATE_KEY_FILE: seals this cluster's state records (required): a
 *                         restart trusts no lifecycle event, request or decision without its seal
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
        String httpHost,
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
        int lagWindow,
        Duration verdictClockSkew,
        boolean leaderElection,
        Duration uncordonHandover,
        int preUpdateLookahead,
        String snapshotsTopic,
        int snapshotsKept,
        boolean rollback,
        StateSeal stateSeal) {

    private static final Grammar<Duration> POSITIVE = Grammar.duration(Duration.ofMillis(1));
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern OBJECT_NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");

    public static final Setting<String> CLUSTER = Setting.of("MCDHOOKS_CLUSTER", Grammar.clusterName());
    public static final Setting<StateSeal> STATE_KEY = Setting.of(
            "MCDHOOKS_STATE_KEY_FILE",
            Grammar.of(
                    "the path of a readable file holding this cluster's state key (at least " + StateSeal.MIN_KEY_BYTES
                            + " random bytes)",
                    BridgeConfig::stateSeal));
    public static final Setting<Set<String>> GATED_POOLS = Setting.of(
                    "MCDHOOKS_GATED_POOLS",
                    Grammar.setOf(Grammar.matching(
                            Pattern.compile("\\*|" + OBJECT_NAME.pattern()), "a pool name, or * for all pools")))
            .orElse("*");
    public static final Setting<Duration> GATE_TIMEOUT =
            Setting.of("MCDHOOKS_GATE_TIMEOUT", POSITIVE).orElse("30m");
    public static final Setting<Duration> RECOVERY_LOOKBACK =
            Setting.of("MCDHOOKS_RECOVERY_LOOKBACK", POSITIVE).orElse("48h");
    public static final Setting<Integer> HTTP_PORT =
            Setting.of("MCDHOOKS_HTTP_PORT", Grammar.integer(0, 65535)).orElse("8080");
    /** Where the HTTP endpoints listen: every address by default, as Prometheus scrapes the pod's IP. */
    public static final Setting<String> HTTP_HOST =
            Setting.of("MCDHOOKS_HTTP_HOST", Grammar.listenHost()).orElse("0.0.0.0");

    public static final Setting<Boolean> CREATE_TOPICS =
            Setting.of("MCDHOOKS_CREATE_TOPICS", Grammar.BOOLEAN).orElse("false");
    public static final Setting<Integer> TOPIC_PARTITIONS =
            Setting.of("MCDHOOKS_TOPIC_PARTITIONS", Grammar.integer(1, 10_000)).orElse("12");
    public static final Setting<Boolean> GATEKEEPER =
            Setting.of("MCDHOOKS_GATEKEEPER", Grammar.BOOLEAN).orElse("true");
    public static final Setting<String> NAMESPACE = Setting.of(
                    "MCDHOOKS_NAMESPACE",
                    Grammar.matching(DNS_LABEL, "a Kubernetes namespace name (a lowercase DNS label)"))
            .orElse("mcdhooks");
    public static final Setting<String> GATE_POD_IMAGE = Setting.of(
                    "MCDHOOKS_GATE_POD_IMAGE",
                    Grammar.matching(Pattern.compile("\\S+"), "a container image reference without spaces"))
            .orElse("registry.k8s.io/pause:3.10");
    public static final Setting<Duration> TICK =
            Setting.of("MCDHOOKS_TICK", POSITIVE).orElse("1s");
    public static final Setting<Duration> LAG_INTERVAL =
            Setting.of("MCDHOOKS_LAG_INTERVAL", POSITIVE).orElse("10s");
    public static final Setting<Integer> LAG_WINDOW =
            Setting.of("MCDHOOKS_LAG_WINDOW", Grammar.integer(1, 10_000)).orElse("10");
    public static final Setting<Duration> VERDICT_CLOCK_SKEW = Setting.of(
                    "MCDHOOKS_VERDICT_CLOCK_SKEW", Grammar.duration(Duration.ofSeconds(1)))
            .orElse("2m");
    public static final Setting<Boolean> LEADER_ELECTION =
            Setting.of("MCDHOOKS_LEADER_ELECTION", Grammar.BOOLEAN).orElse("true");

    public static final Setting<Duration> UNCORDON_HANDOVER = Setting.of(
                    "MCDHOOKS_UNCORDON_HANDOVER", Grammar.duration(Duration.ofSeconds(1), Duration.ofMinutes(9)))
            .orElse("1m");

    public static final Setting<Integer> PRE_UPDATE_LOOKAHEAD =
            Setting.of("MCDHOOKS_PRE_UPDATE_LOOKAHEAD", Grammar.integer(0, 100)).orElse("1");

    public static final Setting<Integer> CONFIG_SNAPSHOTS_KEPT = Setting.of(
                    "MCDHOOKS_CONFIG_SNAPSHOTS_KEPT", Grammar.integer(1, 100))
            .orElse("5");

    public static final Setting<Boolean> ROLLBACK =
            Setting.of("MCDHOOKS_ROLLBACK", Grammar.BOOLEAN).orElse("false");

    /** Every variable the bridge reads. */
    public static final List<Setting<?>> SETTINGS = List.of(
            CLUSTER,
            STATE_KEY,
            NAMESPACE,
            GATEKEEPER,
            LEADER_ELECTION,
            GATED_POOLS,
            GATE_TIMEOUT,
            PRE_UPDATE_LOOKAHEAD,
            UNCORDON_HANDOVER,
            RECOVERY_LOOKBACK,
            TICK,
            GATE_POD_IMAGE,
            HTTP_PORT,
            HTTP_HOST,
            CREATE_TOPICS,
            TOPIC_PARTITIONS,
            TopicSettings.LIFECYCLE,
            TopicSettings.GATE_REQUESTS,
            TopicSettings.VERDICTS,
            TopicSettings.GATE_DECISIONS,
            TopicSettings.DEAD_LETTER,
            TopicSettings.CONFIG_SNAPSHOTS,
            CONFIG_SNAPSHOTS_KEPT,
            ROLLBACK,
            LAG_INTERVAL,
            LAG_WINDOW,
            VERDICT_CLOCK_SKEW);

    public BridgeConfig {
        kafka.bootstrapServers();
        gatedPools = Set.copyOf(gatedPools);
    }

    private static StateSeal stateSeal(String text) {
        Path path = Grammar.readableFile().parse(text);
        try {
            return new StateSeal(Files.readAllBytes(path));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read it: " + e.getMessage());
        }
    }

    /** Reads the configuration from {@code env}; throws {@link ConfigException} naming the first bad variable. */
    public static BridgeConfig fromEnvironment(Map<String, String> env) {
        return from(Settings.of(env, SETTINGS), KafkaSettings.fromEnvironment(env));
    }

    /** The configuration {@code settings} (read against {@link #SETTINGS}) and {@code kafka} give. */
    public static BridgeConfig from(Settings settings, KafkaSettings kafka) {
        return new BridgeConfig(
                settings.require(CLUSTER),
                kafka,
                settings.get(TopicSettings.LIFECYCLE),
                settings.get(TopicSettings.GATE_REQUESTS),
                settings.get(GATED_POOLS),
                settings.get(GATE_TIMEOUT),
                settings.get(RECOVERY_LOOKBACK),
                settings.get(HTTP_PORT),
                settings.get(HTTP_HOST),
                settings.get(CREATE_TOPICS),
                settings.get(TOPIC_PARTITIONS),
                settings.get(TopicSettings.VERDICTS),
                settings.get(TopicSettings.GATE_DECISIONS),
                settings.get(TopicSettings.DEAD_LETTER),
                settings.get(GATEKEEPER),
                settings.get(NAMESPACE),
                settings.get(GATE_POD_IMAGE),
                settings.get(TICK),
                settings.get(LAG_INTERVAL),
                settings.get(LAG_WINDOW),
                settings.get(VERDICT_CLOCK_SKEW),
                settings.get(LEADER_ELECTION),
                settings.get(UNCORDON_HANDOVER),
                settings.get(PRE_UPDATE_LOOKAHEAD),
                settings.get(TopicSettings.CONFIG_SNAPSHOTS),
                settings.get(CONFIG_SNAPSHOTS_KEPT),
                settings.get(ROLLBACK),
                settings.require(STATE_KEY));
    }
}
