package io.mcdhooks.hooks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mcdhooks.hooks.kmod.RegistryKernelModuleHook;
import io.mcdhooks.hooks.testing.Kmod;
import io.mcdhooks.hooks.testing.WithKafkaFixture;
import io.mcdhooks.sandbox.registry.ForkedRegistry;
import io.mcdhooks.sandbox.registry.ImagePusher;
import io.mcdhooks.sandbox.registry.ImagePusher.Platform;
import io.mcdhooks.sandbox.registry.junit.RegistryExtension;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.kafka.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The built-in kmod kind, configured by variables alone, between a real broker and a real registry. */
@ExtendWith(RegistryExtension.class)
class RegistryKmodRunnerIT extends WithKafkaFixture {

    private static final String KERNEL = "5.14.0-427.13.1.el9_4.x86_64";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void holdsThePoolGateUntilTheModuleImageIsPushedThenPassesTheSameAttempt(ForkedRegistry registry, @TempDir Path dir)
            throws Exception {
        // Given an OS image in the registry, a Module naming its image by kernel, and no module image yet
        ImagePusher pusher = registry.pusher();
        String index = pusher.pushOsImage("runner/rhcos", "4.16", Map.of(Platform.of("amd64"), KERNEL));
        Path modules = Files.writeString(
                dir.resolve("modules.yaml"),
                Kmod.module("gpu", "nvidia", registry.host() + "/runner/nvidia:${KERNEL_FULL_VERSION}"));
        String auth = Base64.getEncoder()
                .encodeToString((RegistryExtension.USERNAME + ":" + RegistryExtension.PASSWORD)
                        .getBytes(StandardCharsets.UTF_8));
        Path secret = Files.writeString(
                dir.resolve(".dockerconfigjson"),
                "{\"auths\":{\"" + registry.host() + "\":{\"auth\":\"" + auth + "\"}}}");
        HookRunnerConfig config = HookRunnerConfig.fromEnvironment(fx.env(
                "kmod",
                "MCDHOOKS_HOOK_KIND",
                "kmod",
                "MCDHOOKS_STAGES",
                "pool-pre-update",
                "MCDHOOKS_KMOD_MODULES_FILE",
                modules.toString(),
                "MCDHOOKS_KMOD_PULL_SECRETS",
                secret.toString(),
                "MCDHOOKS_KMOD_CA_FILE",
                registry.tls().caFile().toString(),
                "MCDHOOKS_RECHECK_AFTER",
                "1s"));
        fx.deploy(BuiltInHooks.create(fx.vertx(), config), config);
        GateRequest request = Kmod.gate(registry.host() + "/runner/rhcos@" + index, "default", null, null);

        // When the pool's gate opens
        long offset = fx.publish(request).offset();

        // Then it FAILs naming the image, asking to be checked again in 1 s
        Verdict fail = fx.awaitFinalVerdict(request, WAIT);
        assertThat(fail.outcome()).isEqualTo(Outcome.FAIL);
        assertThat(fail.reason()).isEqualTo(RegistryKernelModuleHook.MODULES_NOT_BUILT);
        assertThat(fail.message()).contains(registry.host() + "/runner/nvidia:" + KERNEL);
        assertThat(fail.retryAfterSeconds()).isEqualTo(1);

        // When the module build lands
        String module = pusher.pushImage("runner/nvidia", KERNEL, Platform.of("amd64"), Map.of());

        // Then the same attempt PASSes with the image's digest, and only then is the request committed
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(fx.finalVerdictsFor(request)).anySatisfy(v -> {
                    assertThat(v.outcome()).isEqualTo(Outcome.PASS);
                    assertThat(v.attempt()).isEqualTo(1);
                    assertThat(v.message()).contains("@" + module);
                }));
        await().atMost(WAIT).until(() -> fx.committed(Topics.hookGroup("kmod")) == offset + 1);
    }
}
