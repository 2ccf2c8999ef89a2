package io.mcdhooks.hooks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.mcdhooks.hooks.kmod.RegistryKernelModuleHook;
import io.mcdhooks.hooks.kmod.RegistryModuleSettings;
import io.mcdhooks.hooks.testing.Kmod;
import io.mcdhooks.schemas.settings.ConfigException;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kmod kind's settings: the registry by default, the catalog only when chosen, every bad file named. */
class KmodSettingsTest {

    private static final String MODULE = Kmod.module("gpu", "nvidia", "registry.example/nvidia:${KERNEL_FULL_VERSION}");

    @TempDir
    Path dir;

    private Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", "kafka:9092");
        env.put("MCDHOOKS_HOOK_NAME", "kmod-check");
        env.put("MCDHOOKS_HOOK_KIND", "kmod");
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return env;
    }

    private Path file(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void readsTheRegistryModeByDefault() throws Exception {
        Path modules = file("modules.yaml", MODULE);
        Path secret = file("pull-secret.json", "{\"auths\":{}}");
        Path ca = file("ca.pem", "");
        Path conf = file("registries.conf", "");

        HookRunnerConfig config = HookRunnerConfig.fromEnvironment(env(
                "MCDHOOKS_KMOD_MODULES_FILE",
                modules.toString(),
                "MCDHOOKS_KMOD_PULL_SECRETS",
                secret + ", " + secret,
                "MCDHOOKS_KMOD_CA_FILE",
                ca.toString(),
                "MCDHOOKS_KMOD_REGISTRIES_CONF",
                conf.toString(),
                "MCDHOOKS_KMOD_ARCHITECTURES",
                "amd64,arm64",
                "MCDHOOKS_KMOD_KERNEL_SUFFIXES",
                "realtime=+rt",
                "MCDHOOKS_RECHECK_AFTER",
                "1m"));

        assertThat(config.builtInHook())
                .isEqualTo(new BuiltInHookConfig.KernelModulesFromRegistry(new RegistryModuleSettings(
                        modules,
                        List.of(secret, secret),
                        ca,
                        conf,
                        List.of("amd64", "arm64"),
                        Map.of("realtime", "+rt"),
                        Duration.ofMinutes(1))));
    }

    @Test
    void buildsTheHookFromItsFiles() throws Exception {
        HookRunnerConfig config = HookRunnerConfig.fromEnvironment(
                env("MCDHOOKS_KMOD_MODULES_FILE", file("m.yaml", MODULE).toString()));
        Vertx vertx = Vertx.vertx();
        try {
            assertThat(BuiltInHooks.create(vertx, config)).isInstanceOf(RegistryKernelModuleHook.class);
        } finally {
            vertx.close();
        }
    }

    @Test
    void theExampleDeploymentsModulesAreOnesTheHookReads() throws Exception {
        Path manifest = Path.of("..", "deploy", "base", "hooks", "kmod-check.yaml");
        String modules = null;
        try (MappingIterator<JsonNode> documents =
                new YAMLMapper().readerFor(JsonNode.class).readValues(Files.readString(manifest))) {
            while (documents.hasNextValue()) {
                JsonNode document = documents.nextValue();
                if ("mcdhooks-kmod-modules"
                        .equals(document.path("metadata").path("name").asText())) {
                    modules = document.path("data").path("modules.yaml").asText();
                }
            }
        }
        assertThat(modules).as("ConfigMap mcdhooks-kmod-modules in " + manifest).isNotNull();

        HookRunnerConfig config = HookRunnerConfig.fromEnvironment(
                env("MCDHOOKS_KMOD_MODULES_FILE", file("deployed.yaml", modules).toString()));
        Vertx vertx = Vertx.vertx();
        try {
            assertThat(BuiltInHooks.create(vertx, config)).isInstanceOf(RegistryKernelModuleHook.class);
        } finally {
            vertx.close();
        }
    }

    @Test
    void usesTheCatalogOnlyWhenChosenAndNeverMixesTheModes() throws Exception {
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(
                        env("MCDHOOKS_KMOD_CATALOG", "/etc/catalog.json", "MCDHOOKS_KMOD_MODULES", "nvidia")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("MCDHOOKS_KMOD_CATALOG is not read with MCDHOOKS_KMOD_SOURCE=registry");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(env(
                        "MCDHOOKS_KMOD_SOURCE", "catalog",
                        "MCDHOOKS_KMOD_CATALOG", "/etc/catalog.json",
                        "MCDHOOKS_KMOD_MODULES", "nvidia",
                        "MCDHOOKS_KMOD_MODULES_FILE", file("m.yaml", MODULE).toString())))
                .hasMessageContaining("MCDHOOKS_KMOD_MODULES_FILE is not read with MCDHOOKS_KMOD_SOURCE=catalog");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(env("MCDHOOKS_KMOD_SOURCE", "cache")))
                .hasMessageStartingWith("MCDHOOKS_KMOD_SOURCE='cache' is invalid")
                .hasMessageContaining("registry")
                .hasMessageContaining("catalog");
        assertThat(HookRunnerConfig.fromEnvironment(env(
                                "MCDHOOKS_KMOD_SOURCE", "catalog",
                                "MCDHOOKS_KMOD_CATALOG", "/etc/catalog.json",
                                "MCDHOOKS_KMOD_MODULES", "nvidia"))
                        .builtInHook())
                .isInstanceOf(BuiltInHookConfig.KernelModules.class);
    }

    @Test
    void namesTheVariableOfEveryBadSettingOrFile() throws Exception {
        String modules = file("m.yaml", MODULE).toString();

        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(env()))
                .hasMessageContaining("MCDHOOKS_KMOD_MODULES_FILE is required");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(env("MCDHOOKS_KMOD_MODULES_FILE", "/nowhere.yaml")))
                .hasMessageStartingWith(
                        "MCDHOOKS_KMOD_MODULES_FILE='/nowhere.yaml' is invalid (no readable file there)");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(
                        env("MCDHOOKS_KMOD_MODULES_FILE", modules, "MCDHOOKS_KMOD_KERNEL_SUFFIXES", "realtime")))
                .hasMessageStartingWith("MCDHOOKS_KMOD_KERNEL_SUFFIXES='realtime' is invalid")
                .hasMessageContaining("kernelType=suffix");
        assertThatThrownBy(() -> HookRunnerConfig.fromEnvironment(
                        env("MCDHOOKS_KMOD_MODULES_FILE", modules, "MCDHOOKS_KMOD_ARCHITECTURES", "x86-64")))
                .hasMessageStartingWith("MCDHOOKS_KMOD_ARCHITECTURES='x86-64' is invalid");

        Vertx vertx = Vertx.vertx();
        try {
            for (String[] bad : List.of(
                    new String[] {
                        "MCDHOOKS_KMOD_MODULES_FILE",
                        file("bad.yaml", "kind: Pod\n").toString()
                    },
                    new String[] {
                        "MCDHOOKS_KMOD_PULL_SECRETS", file("bad.json", "{}").toString()
                    },
                    new String[] {
                        "MCDHOOKS_KMOD_CA_FILE",
                        file("bad.pem", "not a certificate").toString()
                    },
                    new String[] {
                        "MCDHOOKS_KMOD_REGISTRIES_CONF",
                        file("bad.conf", "[[registry]]\nprefx = \"a\"\n").toString()
                    },
                    new String[] {"MCDHOOKS_KMOD_KERNEL_SUFFIXES", "default=+x"})) {
                Map<String, String> vars = env("MCDHOOKS_KMOD_MODULES_FILE", modules, bad[0], bad[1]);
                HookRunnerConfig config = HookRunnerConfig.fromEnvironment(vars);
                assertThatThrownBy(() -> BuiltInHooks.create(vertx, config))
                        .as(bad[0])
                        .isInstanceOf(ConfigException.class)
                        .hasMessageStartingWith(bad[0] + ": ");
            }
        } finally {
            vertx.close();
        }
    }
}
