package io.mcdhooks.hooks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.kafka.Topics;
import io.mcdhooks.schemas.settings.ConfigException;
import io.mcdhooks.schemas.settings.Settings;
import io.mcdhooks.schemas.sign.VerdictSignatures;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

        assertThat(config.builtInHook()).isEqualTo(new BuiltInHookConfig.Exec("/hooks/check.sh", null));
        assertThat(config.selector().stages()).containsExactlyInAnyOrder(Stage.values());
        assertThat(config.concurrency()).isEqualTo(16);
        assertThat(config.policy().heartbeatInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.gateRequestsTopic()).isEqualTo(Topics.GATE_REQUESTS);
        assertThat(config.consumerGroup()).isEqualTo(Topics.hookGroup("disk-check"));
        assertThat(config.nodeLocal()).isFalse();
        assertThat(config.httpPort()).isEqualTo(OptionalInt.of(8080));
        assertThat(config.signingKeyFile()).isNull();
    }

    @Test
    void readsSelectorsDurationsAndNodeLocalMode() {
        HookRunnerConfig config = HookRunnerConfig.fromEnvironment(env(
                "MCDHOOKS_STAGES", "pre-update, post-update",
                "MCDHOOKS_POOL_SELECTOR", "worker,gpu",
                "MCDHOOKS_NODE_SELECTOR", "gpu=true,topology.kubernetes.io/zone=a",
                "MCDHOOKS_NODE_NAME", "node-7",
                "MCDHOOKS_HEARTBEAT_INTERVAL", "250ms",
                "MCDHOOKS_CHECK_TIMEOUT", "2m",
                "MCDHOOKS_RECHECK_AFTER", "1m",
                "MCDHOOKS_HTTP_PORT", "off"));

        assertThat(config.selector().stages()).containsExactlyInAnyOrder(Stage.PRE_UPDATE, Stage.POST_UPDATE);
        assertThat(config.selector().pools()).isEqualTo(Set.of("worker", "gpu"));
        assertThat(config.selector().nodeLabels()).isEqualTo(Map.of("gpu", "true", "topology.kubernetes.io/zone", "a"));
        assertThat(config.policy().heartbeatInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(config.policy().checkTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(config.builtInHook())
                .isEqualTo(new BuiltInHookConfig.Exec("/hooks/check.sh", Duration.ofMinutes(1)));
        assertThat(config.consumerGroup()).isEqualTo(Topics.nodeLocalHookGroup("disk-check", "node-7"));
        assertThat(config.httpPort()).isEmpty();
    }

    @Test
    void readsEachBuiltInKindsOwnSettings() {
        HookRunnerConfig http = HookRunnerConfig.fromEnvironment(
                env("MCDHOOKS_HOOK_KIND", "http", "MCDHOOKS_HTTP_URL", "https://hook.example/check"));
        HookRunnerConfig selfcheck = HookRunnerConfig.fromEnvironment(env(
                "MCDHOOKS_HOOK_KIND", "selfcheck",
                "MCDHOOKS_NODE_NAME", "node-1",
                "MCDHOOKS_SELFCHECK_URL", "http://localhost:10248/healthz"));

        assertThat(http.builtInHook())
                .isEqualTo(new BuiltInHookConfig.Http(URI.create("https://hook.example/check"), null));
        assertThat(selfcheck.builtInHook())
                .isEqualTo(new BuiltInHookConfig.SelfCheck(null, URI.create("http://localhost:10248/healthz"), null));
    }

    @Test
    void hostsAJavaHookWithoutReadingTheBuiltInKindsSettings() {
        Map<String, String> env = env("MCDHOOKS_STAGES", "post-update");
        env.remove("MCDHOOKS_HOOK_KIND");
        Settings settings = HookRunnerConfig.settings(env);

        HookRunnerConfig config = HookRunnerConfig.from(settings, KafkaSettings.fromEnvironment(env));

        assertThat(config.builtInHook()).isNull();
        assertThat(config.selector()).isNull();
        assertThat(settings.warnings())
                .containsExactly(
                        "MCDHOOKS_EXEC_COMMAND is set but not used by this configuration",
                        "MCDHOOKS_STAGES is set but not used by this configuration");
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

        assertThat(config.builtInHook())
                .isEqualTo(new BuiltInHookConfig.KernelModules(
                        "/etc/catalog.json", List.of("nvidia", "ice"), Duration.ofMinutes(5)));
        assertThat(config.concurrency()).isEqualTo(8);
    }

    @Test
    void refusesAConfigFileWithOtherThanRunnerSettings(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("hook.properties"), "HOOK_NAME=disk\n");

        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(env("MCDHOOKS_CONFIG_FILE", file.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessage("MCDHOOKS_CONFIG_FILE='" + file + "' holds 'HOOK_NAME': expected only MCDHOOKS_* names");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(
                        env("MCDHOOKS_CONFIG_FILE", dir.resolve("absent").toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("MCDHOOKS_CONFIG_FILE=");
    }

    @Test
    void readsTheSigningKeyAndNamesItAfterItsFileUnlessAnIdIsGiven(@TempDir Path dir) throws Exception {
        Path key = Files.writeString(
                dir.resolve("kmod-2026-11.pem"),
                VerdictSignatures.pem(
                        "PRIVATE KEY",
                        KeyPairGenerator.getInstance("Ed25519")
                                .generateKeyPair()
                                .getPrivate()
                                .getEncoded()));

        HookRunnerConfig byFile = HookRunnerConfig.fromEnvironment(env("MCDHOOKS_SIGNING_KEY_FILE", key.toString()));
        HookRunnerConfig byId = HookRunnerConfig.fromEnvironment(
                env("MCDHOOKS_SIGNING_KEY_FILE", key.toString(), "MCDHOOKS_SIGNING_KEY_ID", "2026-11"));

        assertThat(VerdictSigner.of(byFile).keyId()).isEqualTo("kmod-2026-11.pem");
        assertThat(VerdictSigner.of(byId).keyId()).isEqualTo("2026-11");
    }

    @Test
    void refusesASigningKeyFileThatHoldsNoKey(@TempDir Path dir) throws Exception {
        Path key = Files.writeString(dir.resolve("key.pem"), "not a key");
        HookRunnerConfig config = HookRunnerConfig.fromEnvironment(env("MCDHOOKS_SIGNING_KEY_FILE", key.toString()));

        assertThatThrownBy(() -> VerdictSigner.of(config))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("MCDHOOKS_SIGNING_KEY_FILE='" + key + "' is invalid")
                .hasMessageEndingWith("expected a PKCS#8 PEM Ed25519 private key");
    }

    @Test
    void namesTheVariableThatIsMissing() {
        Map<String, String> noName = env();
        noName.remove("MCDHOOKS_HOOK_NAME");
        Map<String, String> noKafka = env();
        noKafka.remove("KAFKA_BOOTSTRAP_SERVERS");

        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(noName))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("MCDHOOKS_HOOK_NAME is required: expected a lowercase DNS label");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(noKafka))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("KAFKA_BOOTSTRAP_SERVERS");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(env("MCDHOOKS_HOOK_KIND", "http")))
                .hasMessage("MCDHOOKS_HTTP_URL is required: expected an https:// URL (http:// is refused)");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(
                        env("MCDHOOKS_HOOK_KIND", "http", "MCDHOOKS_HTTP_URL", "http://hook.example/check")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("MCDHOOKS_HTTP_URL")
                .hasMessageContaining("expected an https:// URL (http:// is refused)");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(env("MCDHOOKS_HTTP_HOST", "every address")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("MCDHOOKS_HTTP_HOST")
                .hasMessageContaining("expected an IP address");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(
                        env("MCDHOOKS_HOOK_KIND", "selfcheck", "MCDHOOKS_SELFCHECK_COMMAND", "true")))
                .hasMessageStartingWith("MCDHOOKS_NODE_NAME is required for a selfcheck hook");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "MCDHOOKS_HEARTBEAT_INTERVAL | soon            | a whole number and a unit ms, s, m, h or d",
                "MCDHOOKS_CHECK_TIMEOUT      | PT2M            | a whole number and a unit ms, s, m, h or d",
                "MCDHOOKS_RETRY_BACKOFF      | 0ms             | at least 1ms",
                "MCDHOOKS_STAGES             | post-reboot     | one of pool-pre-update, pre-update, post-update",
                "MCDHOOKS_STAGES             | 'pre-update,'   | an empty item",
                "MCDHOOKS_CONCURRENCY        | many            | a whole number from 1 to 10000",
                "MCDHOOKS_MAX_OPEN_GATES     | 0               | a whole number from 1 to 1000000",
                "MCDHOOKS_HOOK_NAME          | Disk_Check      | a lowercase DNS label",
                "MCDHOOKS_HOOK_KIND          | java            | one of exec, http, kmod, selfcheck",
                "MCDHOOKS_NODE_SELECTOR      | gpu             | label=value",
                "MCDHOOKS_HTTP_PORT          | none            | off, or a whole number from 0 to 65535",
                "MCDHOOKS_GATE_REQUESTS_TOPIC| 'a/b'           | a Kafka topic name",
                "MCDHOOKS_SIGNING_KEY_FILE   | /absent/key.pem | the path of a readable file",
            })
    void refusesAValueOutsideItsGrammarNamingTheVariableTheValueAndWhatIsAccepted(
            String variable, String value, String accepted) {
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(env(variable, value)))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(variable + "='" + value + "' is invalid")
                .hasMessageContaining(accepted);
    }

    @Test
    void refusesSettingsThatContradictEachOther() {
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(
                        env("MCDHOOKS_CONCURRENCY", "32", "MCDHOOKS_MAX_OPEN_GATES", "16")))
                .hasMessage("MCDHOOKS_MAX_OPEN_GATES=16 is less than MCDHOOKS_CONCURRENCY=32: expected at least as"
                        + " many open gates as checks at once");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(
                        env("MCDHOOKS_RETRY_BACKOFF", "1m", "MCDHOOKS_RETRY_BACKOFF_MAX", "30s")))
                .hasMessage("MCDHOOKS_RETRY_BACKOFF_MAX=30s is shorter than MCDHOOKS_RETRY_BACKOFF=1m: expected at"
                        + " least the first back-off");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(env(
                        "MCDHOOKS_HOOK_KIND", "selfcheck",
                        "MCDHOOKS_NODE_NAME", "node-1",
                        "MCDHOOKS_SELFCHECK_COMMAND", "true",
                        "MCDHOOKS_SELFCHECK_URL", "http://localhost/healthz")))
                .hasMessageContaining("exactly one of MCDHOOKS_SELFCHECK_COMMAND and MCDHOOKS_SELFCHECK_URL")
                .hasMessageEndingWith("not both");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(env("MCDHOOKS_NODE_SELECTOR", "a=1,a=2")))
                .hasMessage("MCDHOOKS_NODE_SELECTOR names label 'a' twice: expected each label once");
    }

    @Test
    void readsTheBridgesFormerTopicNamesToo() {
        Settings settings = HookRunnerConfig.settings(env("MCDHOOKS_TOPIC_VERDICTS", "v-old"));

        HookRunnerConfig config = HookRunnerConfig.from(settings, KafkaSettings.of(Map.of("bootstrap.servers", "k:1")));

        assertThat(config.verdictsTopic()).isEqualTo("v-old");
        assertThat(settings.warnings()).contains("MCDHOOKS_TOPIC_VERDICTS is deprecated: use MCDHOOKS_VERDICTS_TOPIC");
    }

    @Test
    void masksKafkaSecretsWhenPrinted() {
        HookRunnerConfig config = HookRunnerConfig.fromEnvironment(env(
                "KAFKA_SASL_JAAS_CONFIG",
                "org.apache.kafka.common.security.scram.ScramLoginModule required password=\"hunter2\";"));

        assertThat(config.toString()).doesNotContain("hunter2").contains("sasl.jaas.config=******");
    }
}
