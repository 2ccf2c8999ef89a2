package io.mcdhooks.schemas.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    void saysWhichVariableIsMissing() {
        assertThatThrownBy(() -> KafkaSettings.of(Map.of()).bootstrapServers())
                .hasMessageContaining("KAFKA_BOOTSTRAP_SERVERS");
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
