package io.mcdhooks.schemas.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mcdhooks.schemas.settings.ConfigException;
import io.mcdhooks.schemas.settings.Setting;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaSettingsTest {

    @Test
    void mapsPrefixedVariablesToClientSettingsOverAPropertiesFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(file, "security.protocol=SSL\nbootstrap.servers=file:9093\n");

        KafkaSettings settings = KafkaSettings.fromEnvironment(Map.of(
                "KAFKA_PROPERTIES_FILE", file.toString(),
                "KAFKA_BOOTSTRAP_SERVERS", "env:9092",
                "KAFKA_SASL_MECHANISM", "SCRAM-SHA-512",
                "HOME", "/root"));

        assertThat(settings.asMap())
                .containsOnly(
                        Map.entry("bootstrap.servers", "env:9092"),
                        Map.entry("security.protocol", "SSL"),
                        Map.entry("sasl.mechanism", "SCRAM-SHA-512"));
    }

    @Test
    void masksSecretsWhenPrinted() {
        KafkaSettings settings = KafkaSettings.of(Map.of(
                "bootstrap.servers", "b:9092",
                "sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required password=\"hunter2\";",
                "ssl.truststore.password", "changeit"));

        assertThat(settings.toString())
                .contains("b:9092")
                .doesNotContain("hunter2")
                .doesNotContain("changeit");
    }

    @Test
    void masksSecretsButShowsKeystoreLocationsAndSerializers() {
        KafkaSettings settings = KafkaSettings.of(Map.of(
                "ssl.keystore.location", "/etc/user.p12",
                "ssl.keystore.key", "-----BEGIN PRIVATE KEY-----",
                "key.serializer", "org.apache.kafka.common.serialization.StringSerializer"));

        assertThat(settings.toString())
                .contains("ssl.keystore.location=/etc/user.p12", "ssl.keystore.key=******", "StringSerializer")
                .doesNotContain("BEGIN PRIVATE KEY");
    }

    @Test
    void saysWhichVariableIsMissingOrMalformed() {
        assertThatThrownBy(() -> KafkaSettings.of(Map.of()).bootstrapServers())
                .isInstanceOf(ConfigException.class)
                .hasMessage("KAFKA_BOOTSTRAP_SERVERS (bootstrap.servers) is required: expected a comma-separated list,"
                        + " each item host:port");
        assertThatThrownBy(() ->
                        KafkaSettings.of(Map.of("bootstrap.servers", "kafka")).bootstrapServers())
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("KAFKA_BOOTSTRAP_SERVERS (bootstrap.servers)='kafka' is invalid");
        assertThat(KafkaSettings.of(Map.of("bootstrap.servers", " a:9092,[::1]:9093"))
                        .bootstrapServers())
                .isEqualTo("a:9092,[::1]:9093");
    }

    @Test
    void namesThePropertiesFileThatCannotBeRead(@TempDir Path dir) {
        Map<String, String> env =
                Map.of("KAFKA_PROPERTIES_FILE", dir.resolve("absent").toString());

        assertThatThrownBy(() -> KafkaSettings.fromEnvironment(env))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("KAFKA_PROPERTIES_FILE=");
    }

    @Test
    void namesEveryTopicVariableAfterItsTopicAndKeepsTheBridgesFormerNames() {
        Map<Setting<String>, String> defaults = Map.of(
                TopicSettings.LIFECYCLE, Topics.LIFECYCLE,
                TopicSettings.GATE_REQUESTS, Topics.GATE_REQUESTS,
                TopicSettings.VERDICTS, Topics.VERDICTS,
                TopicSettings.GATE_DECISIONS, Topics.GATE_DECISIONS,
                TopicSettings.DEAD_LETTER, Topics.DEAD_LETTER);

        defaults.forEach((topic, fallback) -> {
            assertThat(topic.name()).matches("MCDHOOKS_[A-Z_]+_TOPIC");
            String stem =
                    topic.name().substring("MCDHOOKS_".length(), topic.name().length() - "_TOPIC".length());
            assertThat(topic.formerNames()).containsExactly("MCDHOOKS_TOPIC_" + stem);
            assertThat(topic.fallback()).as(topic.name()).isEqualTo(fallback);
        });
        assertThatThrownBy(() -> TopicSettings.TOPIC_NAME.parse("verdicts topic"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void placesKeysWhereTheProducersBuiltInPartitionerDoes() {
        for (String node : List.of("worker-0", "ip-10-0-23-47.ec2.internal", "master-2", "x")) {
            for (int partitions : new int[] {1, 3, 12, 50}) {
                assertThat(Partitions.forKey(node, partitions))
                        .as(node + " over " + partitions)
                        .isEqualTo(
                                BuiltInPartitioner.partitionForKey(node.getBytes(StandardCharsets.UTF_8), partitions));
            }
        }
        assertThatThrownBy(() -> Partitions.forKey("x", 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
