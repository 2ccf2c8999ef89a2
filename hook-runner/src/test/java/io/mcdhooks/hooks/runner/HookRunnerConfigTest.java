package io.mcdhooks.hooks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.kafka.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HookRunnerConfigTest {

    private static Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", "kafka:9092");
        env.put("MCDHOOKS_HOOK_NAME", "disk-check");
        env.put("MCDHOOKS_HOOK_KIND", "exec");
        env.put("MCDHOOKS_EXEC_COMMAND", "/hooks/check.sh");
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return env;
    }

    @Test
    void readsAnExecHookWithDefaults() {
        HookRunnerConfig config = HookRunnerConfig.fromEnvironment(env());

        assertThat(config.hook()).isEqualTo(new HookSettings.Exec("/hooks/check.sh", null));
        assertThat(config.selector().stages()).containsExactlyInAnyOrder(Stage.values());
        assertThat(config.concurrency()).isEqualTo(16);
        assertThat(config.policy().heartbeatInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.gateRequestsTopic()).isEqualTo(Topics.GATE_REQUESTS);
        assertThat(config.consumerGroup()).isEqualTo(Topics.hookGroup("disk-check"));
        assertThat(config.nodeLocal()).isFalse();
    }

    @Test
    void readsSelectorsDurationsAndNodeLocalMode() {
        HookRunnerConfig config = HookRunnerConfig.fromEnvironment(env(
                "MCDHOOKS_STAGES", "pre-update, post-update",
                "MCDHOOKS_POOL_SELECTOR", "worker,gpu",
                "MCDHOOKS_NODE_SELECTOR", "gpu=true,zone=a",
                "MCDHOOKS_NODE_NAME", "node-7",
                "MCDHOOKS_HEARTBEAT_INTERVAL", "250ms",
                "MCDHOOKS_CHECK_TIMEOUT", "PT2M",
                "MCDHOOKS_RECHECK_AFTER", "1m"));

        assertThat(config.selector().stages()).containsExactlyInAnyOrder(Stage.PRE_UPDATE, Stage.POST_UPDATE);
        assertThat(config.selector().pools()).isEqualTo(Set.of("worker", "gpu"));
        assertThat(config.selector().nodeLabels()).isEqualTo(Map.of("gpu", "true", "zone", "a"));
        assertThat(config.policy().heartbeatInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(config.policy().checkTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(config.hook()).isEqualTo(new HookSettings.Exec("/hooks/check.sh", Duration.ofMinutes(1)));
        assertThat(config.consumerGroup()).isEqualTo(Topics.nodeLocalHookGroup("disk-check", "node-7"));
    }

    @Test
    void readsAConfigFileThatVariablesOverride(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("hook.properties");
        Files.writeString(
                file,
                "MCDHOOKS_HOOK_KIND=kmod\nMCDHOOKS_KMOD_SOURCE=catalog\nMCDHOOKS_KMOD_CATALOG=/etc/catalog.json\n"
                        + "MCDHOOKS_KMOD_MODULES=nvidia, ice\nMCDHOOKS_CONCURRENCY=4\n");

        HookRunnerConfig config = HookRunnerConfig.fromEnvironment(env(
                "MCDHOOKS_CONFIG_FILE", file.toString(), "MCDHOOKS_HOOK_KIND", "kmod", "MCDHOOKS_CONCURRENCY", "8"));

        assertThat(config.hook())
                .isEqualTo(new HookSettings.KernelModules(
                        "/etc/catalog.json", List.of("nvidia", "ice"), Duration.ofMinutes(5)));
        assertThat(config.concurrency()).isEqualTo(8);
    }

    @Test
    void namesTheVariableThatIsMissingOrMalformed() {
        Map<String, String> noName = env();
        noName.remove("MCDHOOKS_HOOK_NAME");
        Map<String, String> noKafka = env();
        noKafka.remove("KAFKA_BOOTSTRAP_SERVERS");

        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(noName))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("MCDHOOKS_HOOK_NAME is required");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(noKafka))
                .hasMessageContaining("KAFKA_BOOTSTRAP_SERVERS");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(env("MCDHOOKS_HEARTBEAT_INTERVAL", "soon")))
                .hasMessageContaining("MCDHOOKS_HEARTBEAT_INTERVAL='soon'");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(env("MCDHOOKS_STAGES", "post-reboot")))
                .hasMessageContaining("MCDHOOKS_STAGES")
                .hasMessageContaining("post-reboot");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(env("MCDHOOKS_CONCURRENCY", "many")))
                .hasMessageContaining("MCDHOOKS_CONCURRENCY='many'");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(env("MCDHOOKS_HOOK_KIND", "http")))
                .hasMessageContaining("MCDHOOKS_HTTP_URL is required");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(
                        env("MCDHOOKS_HOOK_KIND", "selfcheck", "MCDHOOKS_SELFCHECK_COMMAND", "true")))
                .hasMessageContaining("MCDHOOKS_NODE_NAME");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(env("MCDHOOKS_HOOK_NAME", "Disk_Check")))
                .hasMessageContaining("MCDHOOKS_HOOK_NAME='Disk_Check'");
    }

    @Test
    void masksKafkaSecretsWhenPrinted() {
        HookRunnerConfig config = HookRunnerConfig.fromEnvironment(env(
                "KAFKA_SASL_JAAS_CONFIG",
                "org.apache.kafka.common.security.scram.ScramLoginModule required password=\"hunter2\";"));

        assertThat(config.toString()).doesNotContain("hunter2").contains("sasl.jaas.config=******");
    }
}
