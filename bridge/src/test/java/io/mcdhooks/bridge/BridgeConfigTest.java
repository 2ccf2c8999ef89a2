package io.mcdhooks.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.kafka.Topics;
import io.mcdhooks.schemas.settings.ConfigException;
import io.mcdhooks.schemas.settings.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BridgeConfigTest {

    private static Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>();
        env.put("MCDHOOKS_CLUSTER", "prod-east");
        env.put(
                "MCDHOOKS_STATE_KEY_FILE",
                TestEnvironment.stateKeyFile("prod-east").toString());
        env.put("KAFKA_BOOTSTRAP_SERVERS", "kafka:9093");
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return env;
    }

    @Test
    void readsTheDefaultsWithOnlyTheClusterAndKafkaGiven() {
        BridgeConfig config = BridgeConfig.fromEnvironment(env());

        assertThat(config.cluster()).isEqualTo("prod-east");
        assertThat(config.gatekeeper()).isTrue();
        assertThat(config.leaderElection()).isTrue();
        assertThat(config.createTopics()).isFalse();
        assertThat(config.gatedPools()).containsExactly("*");
        assertThat(config.gateTimeout()).isEqualTo(Duration.ofMinutes(30));
        assertThat(config.recoveryLookback()).isEqualTo(Duration.ofHours(48));
        assertThat(config.tick()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.httpPort()).isEqualTo(8080);
        assertThat(config.httpHost()).isEqualTo("0.0.0.0");
        assertThat(config.topicPartitions()).isEqualTo(12);
        assertThat(config.namespace()).isEqualTo("mcdhooks");
        assertThat(config.lagWindow()).isEqualTo(10);
        assertThat(config.verdictsTopic()).isEqualTo(Topics.VERDICTS);
        assertThat(config.deadLetterTopic()).isEqualTo(Topics.DEAD_LETTER);
    }

    @Test
    void readsEverySettingGiven() {
        BridgeConfig config = BridgeConfig.fromEnvironment(env(
                "MCDHOOKS_GATEKEEPER", "false",
                "MCDHOOKS_LEADER_ELECTION", "false",
                "MCDHOOKS_GATED_POOLS", "worker, gpu",
                "MCDHOOKS_RECOVERY_LOOKBACK", "2d",
                "MCDHOOKS_TICK", "200ms",
                "MCDHOOKS_HTTP_PORT", "0",
                "MCDHOOKS_HTTP_HOST", "127.0.0.1",
                "MCDHOOKS_LIFECYCLE_TOPIC", "lc",
                "MCDHOOKS_GATE_DECISIONS_TOPIC", "gd"));

        assertThat(config.gatekeeper()).isFalse();
        assertThat(config.leaderElection()).isFalse();
        assertThat(config.gatedPools()).isEqualTo(Set.of("worker", "gpu"));
        assertThat(config.recoveryLookback()).isEqualTo(Duration.ofDays(2));
        assertThat(config.tick()).isEqualTo(Duration.ofMillis(200));
        assertThat(config.httpPort()).isZero();
        assertThat(config.httpHost()).isEqualTo("127.0.0.1");
        assertThat(config.lifecycleTopic()).isEqualTo("lc");
        assertThat(config.decisionsTopic()).isEqualTo("gd");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "MCDHOOKS_GATEKEEPER        | yes     | true or false",
                "MCDHOOKS_LEADER_ELECTION   | 1       | true or false",
                "MCDHOOKS_CREATE_TOPICS     | TRUE    | true or false",
                "MCDHOOKS_GATE_TIMEOUT      | PT30M   | a whole number and a unit ms, s, m, h or d",
                "MCDHOOKS_TICK              | 0s      | at least 1ms",
                "MCDHOOKS_LAG_INTERVAL      | 10      | a whole number and a unit",
                "MCDHOOKS_HTTP_PORT         | 70000   | a whole number from 0 to 65535",
                "MCDHOOKS_TOPIC_PARTITIONS  | 0       | a whole number from 1 to 10000",
                "MCDHOOKS_LAG_WINDOW        | ten     | a whole number from 1 to 10000",
                "MCDHOOKS_CLUSTER           | Prod    | a lowercase DNS name",
                "MCDHOOKS_NAMESPACE         | my_ns   | a Kubernetes namespace name",
                "MCDHOOKS_GATED_POOLS       | 'a,,b'  | a pool name, or * for all pools",
                "MCDHOOKS_VERDICTS_TOPIC    | a topic | a Kafka topic name",
                "MCDHOOKS_CONFIG_SNAPSHOTS_KEPT | 0   | a whole number from 1 to 100",
                "MCDHOOKS_CONFIG_SNAPSHOTS_TOPIC | a/b | a Kafka topic name",
            })
    void refusesAValueOutsideItsGrammarNamingTheVariableTheValueAndWhatIsAccepted(
            String variable, String value, String accepted) {
        assertThatThrownBy(() -> BridgeConfig.fromEnvironment(env(variable, value)))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(variable + "='" + value + "' is invalid")
                .hasMessageContaining("expected")
                .hasMessageContaining(accepted);
    }

    @ParameterizedTest
    @CsvSource({"my-cluster", "example", "cluster", "changeme"})
    void refusesAPlaceholderClusterNameNamingTheVariable(String placeholder) {
        assertThatThrownBy(() -> BridgeConfig.fromEnvironment(env("MCDHOOKS_CLUSTER", placeholder)))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("MCDHOOKS_CLUSTER='" + placeholder + "' is invalid")
                .hasMessageContaining("is a placeholder");
    }

    @Test
    void needsAStateKeyOfAtLeast32Bytes() throws Exception {
        Map<String, String> noKey = env();
        noKey.remove("MCDHOOKS_STATE_KEY_FILE");
        Path shortKey = Files.createTempFile("state", ".key");
        Files.write(shortKey, new byte[16]);

        assertThatThrownBy(() -> BridgeConfig.fromEnvironment(noKey))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("MCDHOOKS_STATE_KEY_FILE is required");
        assertThatThrownBy(() -> BridgeConfig.fromEnvironment(env("MCDHOOKS_STATE_KEY_FILE", shortKey.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("MCDHOOKS_STATE_KEY_FILE=")
                .hasMessageContaining("at least 32 are needed");
    }

    @Test
    void needsTheClusterAndKafka() {
        Map<String, String> noCluster = env();
        noCluster.remove("MCDHOOKS_CLUSTER");
        Map<String, String> noKafka = env();
        noKafka.remove("KAFKA_BOOTSTRAP_SERVERS");

        assertThatThrownBy(() -> BridgeConfig.fromEnvironment(noCluster))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(
                        "MCDHOOKS_CLUSTER is required: expected a lowercase DNS name of at most 63 characters");
        assertThatThrownBy(() -> BridgeConfig.fromEnvironment(noKafka))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("KAFKA_BOOTSTRAP_SERVERS");
    }

    @Test
    void readsTheFormerTopicVariablesWithAWarningNamingTheNewOnes() {
        Settings settings = Settings.of(env("MCDHOOKS_TOPIC_VERDICTS", "v-old"), BridgeConfig.SETTINGS);

        BridgeConfig config = BridgeConfig.from(settings, KafkaSettings.of(Map.of("bootstrap.servers", "k:9092")));

        assertThat(config.verdictsTopic()).isEqualTo("v-old");
        assertThat(settings.warnings())
                .containsExactly("MCDHOOKS_TOPIC_VERDICTS is deprecated: use MCDHOOKS_VERDICTS_TOPIC");
    }

    @Test
    void refusesAFormerAndANewTopicVariableThatDisagree() {
        assertThatThrownBy(() -> BridgeConfig.fromEnvironment(
                        env("MCDHOOKS_TOPIC_DEAD_LETTER", "dl-old", "MCDHOOKS_DEAD_LETTER_TOPIC", "dl-new")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("MCDHOOKS_DEAD_LETTER_TOPIC='dl-new'")
                .hasMessageContaining("MCDHOOKS_TOPIC_DEAD_LETTER='dl-old'");
    }

    @Test
    void warnsOfAMisspelledVariableInsteadOfIgnoringIt() {
        Settings settings = Settings.of(env("MCDHOOKS_GATEKEEPR", "false"), BridgeConfig.SETTINGS);

        BridgeConfig config = BridgeConfig.from(settings, KafkaSettings.of(Map.of("bootstrap.servers", "k:9092")));

        assertThat(config.gatekeeper()).isTrue();
        assertThat(settings.warnings())
                .containsExactly("MCDHOOKS_GATEKEEPR is not a setting of this process and is ignored;"
                        + " did you mean MCDHOOKS_GATEKEEPER?");
    }

    @Test
    void logsEveryVariableItReadAndMasksKafkaSecrets() {
        Map<String, String> env = env("KAFKA_SASL_JAAS_CONFIG", "ScramLoginModule required password=\"hunter2\";");
        Settings settings = Settings.of(env, BridgeConfig.SETTINGS);

        BridgeConfig config = BridgeConfig.from(settings, KafkaSettings.fromEnvironment(env));

        assertThat(settings.effective().keySet())
                .containsExactlyInAnyOrderElementsOf(
                        BridgeConfig.SETTINGS.stream().map(s -> s.name()).toList());
        assertThat(settings.effective()).containsEntry("MCDHOOKS_CLUSTER", "prod-east");
        assertThat(settings.effective()).containsEntry("MCDHOOKS_GATEKEEPER", "true (default)");
        assertThat(config.toString()).doesNotContain("hunter2").contains("sasl.jaas.config=******");
    }
}
