package io.mcdhooks.hooks.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.testing.Requests;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModuleCatalogTest {

    private static final Duration RECHECK = Duration.ofMinutes(5);
    private static final String KERNEL = "5.14.0-427.13.1.el9_4.x86_64";

    private final ModuleCatalog catalog = parse("{\"images\":{\"" + Requests.OS_IMAGE + "\":\"" + KERNEL + "\"},"
            + "\"modules\":{\"" + KERNEL + "\":{\"default\":[\"nvidia\",\"ice\"],\"realtime\":[\"ice\"]}}}");

    @Test
    void passesWhenEveryRequiredModuleIsBuiltForTheTargetKernel() {
        CheckResult result =
                catalog.assess(Requests.poolPreUpdate("gpu", Duration.ofMinutes(5)), List.of("nvidia", "ice"), RECHECK);

        assertThat(result.outcome()).isEqualTo(Outcome.PASS);
        assertThat(result.reason()).isEqualTo(ModuleCatalog.READY);
        assertThat(result.message()).contains(KERNEL);
    }

    @Test
    void failsAndAsksForARecheckWhileAModuleIsMissingForTheKernelType() {
        GateRequest realtime = withTarget(Requests.OS_IMAGE, "realtime");

        CheckResult result = catalog.assess(realtime, List.of("nvidia", "ice"), RECHECK);

        assertThat(result)
                .isEqualTo(CheckResult.failAndRecheck(
                        ModuleCatalog.NOT_BUILT,
                        "modules nvidia are not built yet for kernel " + KERNEL + " (realtime)",
                        RECHECK));
    }

    @Test
    void failsAndAsksForARecheckWhileTheTargetImageIsUnknown() {
        CheckResult result =
                catalog.assess(withTarget("quay.io/example/rhcos@sha256:bbbb", null), List.of("nvidia"), RECHECK);

        assertThat(result.reason()).isEqualTo(ModuleCatalog.KERNEL_UNKNOWN);
        assertThat(result.retryAfter()).isEqualTo(RECHECK);
    }

    @Test
    void failsForGoodWhenTheRequestNamesNoTargetImage() {
        CheckResult result = catalog.assess(withTarget(null, null), List.of("nvidia"), RECHECK);

        assertThat(result.reason()).isEqualTo(ModuleCatalog.NO_TARGET_IMAGE);
        assertThat(result.retryAfter()).isNull();
    }

    private static GateRequest withTarget(String image, String kernelType) {
        GateRequest r = Requests.request(Stage.PRE_UPDATE, "gpu", "node-1", Duration.ofMinutes(5));
        return new GateRequest(
                r.cluster(),
                r.gateId(),
                r.attempt(),
                r.stage(),
                r.pool(),
                r.node(),
                r.currentConfig(),
                r.targetConfig(),
                new GateRequest.TargetFacts(image, kernelType, List.of(), List.of(), null),
                r.requestedAt(),
                r.deadline());
    }

    private static ModuleCatalog parse(String json) {
        try {
            return ModuleCatalog.parse(json.getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
