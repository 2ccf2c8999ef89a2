package io.mcdhooks.hooks.kmod;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.kmod.ModuleReadiness.Finding;
import io.mcdhooks.hooks.kmod.ModuleReadiness.Status;
import io.mcdhooks.schemas.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ModuleReadinessTest {

    private static final Duration RECHECK = Duration.ofMinutes(5);
    private static final String K = "5.14.0-427.13.1.el9_4.x86_64";

    private static Finding f(String module, Status status, String image, String detail) {
        return new Finding(module, "amd64", K, status, image, detail);
    }

    @Test
    void passesWhenEveryImageExistsNamingEachWithItsDigest() {
        CheckResult d = ModuleReadiness.decide(
                List.of(
                        f("gpu/nvidia", Status.READY, "r/nvidia:" + K + "@sha256:1", null),
                        f("net/ice", Status.READY, "r/ice:" + K + "@sha256:2", null)),
                "quay.io/os@sha256:9",
                RECHECK);

        assertThat(d.outcome()).isEqualTo(Outcome.PASS);
        assertThat(d.reason()).isEqualTo("ModulesReady");
        assertThat(d.message())
                .isEqualTo("module images exist: kernel " + K + " (amd64): gpu/nvidia r/nvidia:" + K
                        + "@sha256:1, net/ice r/ice:" + K + "@sha256:2; OS image quay.io/os@sha256:9");
    }

    @Test
    void failsAndChecksAgainWhileImagesAreMissingNamingThem() {
        CheckResult d = ModuleReadiness.decide(
                List.of(
                        f("gpu/nvidia", Status.MISSING, "r/nvidia:" + K, null),
                        f("net/ice", Status.READY, "r/ice:" + K + "@sha256:2", null)),
                "os",
                RECHECK);

        assertThat(d.reason()).isEqualTo("ModulesNotBuilt");
        assertThat(d.retryAfter()).isEqualTo(RECHECK);
        assertThat(d.message())
                .startsWith("not built yet: kernel " + K + " (amd64): gpu/nvidia r/nvidia:" + K)
                .contains("; built: kernel " + K + " (amd64): net/ice");
    }

    @Test
    void whatCanNeverPassStandsAndComesBeforeWhatMayChange() {
        CheckResult noMapping = ModuleReadiness.decide(
                List.of(
                        f("gpu/nvidia", Status.MISSING, "r/nvidia:" + K, null),
                        f("net/ice", Status.NO_MAPPING, null, null)),
                "os",
                RECHECK);
        CheckResult invalid = ModuleReadiness.decide(
                List.of(
                        f("gpu/nvidia", Status.DENIED, "r/nvidia:" + K, "HTTP 403"),
                        f("net/ice", Status.INVALID_IMAGE, null, "'r/ICE:x' is not an image reference")),
                "os",
                RECHECK);
        CheckResult denied = ModuleReadiness.decide(
                List.of(
                        f("gpu/nvidia", Status.DENIED, "r/nvidia:" + K, "HTTP 403"),
                        f("net/ice", Status.MISSING, "r/ice:" + K, null)),
                "os",
                RECHECK);

        assertThat(noMapping.reason()).isEqualTo("NoKernelMapping");
        assertThat(noMapping.retryAfter()).isNull();
        assertThat(noMapping.message()).contains("net/ice for kernel " + K).contains("also not built yet");
        assertThat(invalid.reason()).isEqualTo("ModuleImageInvalid");
        assertThat(invalid.retryAfter()).isNull();
        assertThat(denied.reason()).isEqualTo("RegistryAccessDenied");
        assertThat(denied.retryAfter()).isEqualTo(RECHECK);
    }

    @Test
    void keepsMessagesWithinTheWireContractsLimit() {
        List<Finding> many = IntStream.range(0, 200)
                .mapToObj(i -> f("ns/module-" + i, Status.MISSING, "registry.example/module-" + i + ":" + K, null))
                .toList();

        assertThat(ModuleReadiness.decide(many, "os", RECHECK).message())
                .hasSize(ModuleReadiness.MAX_MESSAGE)
                .endsWith("…");
    }
}
