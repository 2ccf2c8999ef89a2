package io.mcdhooks.hooks.kmod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.registry.FakeImage;
import io.mcdhooks.hooks.registry.FakeRegistry;
import io.mcdhooks.hooks.registry.FakeRegistry.Answer;
import io.mcdhooks.hooks.registry.MediaTypes;
import io.mcdhooks.hooks.registry.PullSecret;
import io.mcdhooks.hooks.registry.RegistriesConf;
import io.mcdhooks.hooks.registry.RegistryClient;
import io.mcdhooks.hooks.registry.RegistryException;
import io.mcdhooks.hooks.testing.Kmod;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hook's verdicts when the OS image or a module image is not what it should be, against a
 * scripted registry: each bad answer is a FAIL with its reason (or a transient error the runner
 * retries), never a PASS. The real-registry paths are in {@code RegistryKernelModuleHookIT}.
 */
class RegistryKernelModuleHookTest {

    private static final String KERNEL = "5.14.0-427.13.1.el9_4.x86_64";
    private static final Duration RECHECK = Duration.ofSeconds(30);

    private FakeRegistry registry;
    private FakeImage image;

    @BeforeEach
    void start() throws Exception {
        registry = new FakeRegistry();
        image = FakeImage.of("os/rhcos", Map.of("amd64", Map.of("ostree.linux", KERNEL)))
                .servedBy(registry, "4.16");
        registry.on(
                "HEAD",
                "/v2/kmods/nvidia/manifests/" + KERNEL,
                Answer.of(200).with("Docker-Content-Digest", "sha256:" + "e".repeat(64)));
    }

    @AfterEach
    void stop() {
        registry.close();
    }

    private RegistryKernelModuleHook hook(Map<String, String> suffixes) {
        List<KmmModule> modules = KmmModules.parse(
                Kmod.module("gpu", "nvidia", registry.host() + "/kmods/nvidia:${KERNEL_FULL_VERSION}"), "modules.yaml");
        RegistryClient client;
        try {
            client = new RegistryClient(
                    RegistryClient.httpClient(SSLContext.getDefault()),
                    PullSecret.none(),
                    RegistriesConf.parse(registry.conf(), "registries.conf"),
                    Clock.systemUTC());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return new RegistryKernelModuleHook(
                GateSelector.stages(Stage.POOL_PRE_UPDATE),
                modules,
                client,
                List.of("amd64"),
                new KernelTypes(suffixes),
                RECHECK);
    }

    private static GateRequest request(String osImage, String kernelType) {
        return Kmod.gate(osImage, kernelType, null, null);
    }

    private CheckResult assess(String reference) {
        return hook(Map.of()).assess(request(registry.host() + "/os/rhcos" + reference, "default"), () -> false);
    }

    @Test
    void passesWhenTheModuleImageForTheImagesKernelExistsReportingTheResolvedDigests() {
        CheckResult decision = assess(":4.16");

        assertThat(decision.outcome()).isEqualTo(Outcome.PASS);
        assertThat(decision.message())
                .contains("kernel " + KERNEL + " (amd64): gpu/nvidia " + registry.host() + "/kmods/nvidia:" + KERNEL
                        + "@sha256:eeee")
                .contains("OS image " + registry.host() + "/os/rhcos:4.16 (resolved to " + image.index);
    }

    /** A way the registry breaks the good image, and what the hook must say then. */
    private record Breakage(Consumer<FakeRegistry> breakIt, String reason, String mentions) {}

    static Stream<Named<Breakage>> breakages() {
        String manifests = "/v2/os/rhcos/manifests/";
        return Stream.of(
                Named.of(
                        "a config without ostree.linux",
                        new Breakage(
                                r -> {
                                    FakeImage unlabeled =
                                            FakeImage.of("os/rhcos", Map.of("amd64", Map.of("version", "416")));
                                    unlabeled.servedBy(r, "4.16");
                                },
                                RegistryKernelModuleHook.KERNEL_LABEL_MISSING,
                                "has no label ostree.linux")),
                Named.of(
                        "a malformed index",
                        new Breakage(
                                r -> r.on(
                                        "GET",
                                        manifests + "4.16",
                                        Answer.json(200, MediaTypes.OCI_INDEX, "{\"schemaVersion\":")),
                                RegistryKernelModuleHook.OS_IMAGE_INVALID,
                                "is not JSON")),
                Named.of(
                        "an unknown media type",
                        new Breakage(
                                r -> r.on(
                                        "GET",
                                        manifests + "4.16",
                                        Answer.json(
                                                200,
                                                "application/vnd.docker.distribution.manifest.v1+prettyjws",
                                                "{\"schemaVersion\":1}")),
                                RegistryKernelModuleHook.OS_IMAGE_INVALID,
                                "schema 1 is not read")),
                Named.of(
                        "a huge manifest",
                        new Breakage(
                                r -> r.on("GET", manifests + "4.16", Answer.endless(MediaTypes.OCI_INDEX, 6L << 20)),
                                RegistryKernelModuleHook.OS_IMAGE_INVALID,
                                "over the limit")),
                Named.of(
                        "an index without the architecture",
                        new Breakage(
                                r -> FakeImage.of("os/rhcos", Map.of("s390x", Map.of("ostree.linux", KERNEL)))
                                        .servedBy(r, "4.16"),
                                RegistryKernelModuleHook.OS_IMAGE_INVALID,
                                "has no linux/amd64 image")),
                Named.of(
                        "a label that is not a kernel version",
                        new Breakage(
                                r -> FakeImage.of("os/rhcos", Map.of("amd64", Map.of("ostree.linux", "latest")))
                                        .servedBy(r, "4.16"),
                                RegistryKernelModuleHook.OS_IMAGE_INVALID,
                                "at least three components")),
                Named.of(
                        "the OS image is not there",
                        new Breakage(
                                r -> r.on("GET", manifests + "4.16", Answer.of(404)),
                                RegistryKernelModuleHook.OS_IMAGE_NOT_FOUND,
                                "HTTP 404")),
                Named.of(
                        "the OS image is forbidden",
                        new Breakage(
                                r -> r.on("GET", manifests + "4.16", Answer.of(403)),
                                RegistryKernelModuleHook.REGISTRY_ACCESS_DENIED,
                                "HTTP 403")),
                Named.of(
                        "the OS image needs credentials there are none of",
                        new Breakage(
                                r -> r.on(
                                        "GET",
                                        manifests + "4.16",
                                        Answer.of(401).with("WWW-Authenticate", "Basic realm=\"r\"")),
                                RegistryKernelModuleHook.REGISTRY_ACCESS_DENIED,
                                "asks for basic auth")),
                Named.of(
                        "the module image is not built",
                        new Breakage(
                                r -> r.on("HEAD", "/v2/kmods/nvidia/manifests/" + KERNEL, Answer.of(404)),
                                RegistryKernelModuleHook.MODULES_NOT_BUILT,
                                "not built yet: kernel " + KERNEL + " (amd64): gpu/nvidia")),
                Named.of(
                        "the module image is forbidden",
                        new Breakage(
                                r -> r.on("HEAD", "/v2/kmods/nvidia/manifests/" + KERNEL, Answer.of(403)),
                                RegistryKernelModuleHook.REGISTRY_ACCESS_DENIED,
                                "the registry refused access: gpu/nvidia")),
                Named.of(
                        "a bearer challenge without a realm",
                        new Breakage(
                                r -> r.on(
                                        "HEAD",
                                        "/v2/kmods/nvidia/manifests/" + KERNEL,
                                        Answer.of(401).with("WWW-Authenticate", "Bearer")),
                                RegistryKernelModuleHook.MODULE_IMAGE_INVALID,
                                "no usable realm")),
                Named.of(
                        "the module image's digest header is garbage",
                        new Breakage(
                                r -> r.on(
                                        "HEAD",
                                        "/v2/kmods/nvidia/manifests/" + KERNEL,
                                        Answer.of(200).with("Docker-Content-Digest", "sha256:nope")),
                                RegistryKernelModuleHook.MODULE_IMAGE_INVALID,
                                "Docker-Content-Digest")));
    }

    @ParameterizedTest
    @MethodSource("breakages")
    void aBrokenImageIsAFailWithItsReasonNeverAPass(Breakage breakage) {
        breakage.breakIt().accept(registry);

        CheckResult decision = assess(":4.16");

        assertThat(decision.outcome()).isEqualTo(Outcome.FAIL);
        assertThat(decision.reason()).isEqualTo(breakage.reason());
        assertThat(decision.message()).contains(breakage.mentions());
    }

    @Test
    void whatMayChangeIsCheckedAgainAndWhatCannotStands() {
        registry.on("HEAD", "/v2/kmods/nvidia/manifests/" + KERNEL, Answer.of(404));
        assertThat(assess(":4.16").retryAfter()).isEqualTo(RECHECK);

        registry.on("GET", "/v2/os/rhcos/manifests/4.16", Answer.json(200, MediaTypes.OCI_INDEX, "[]"));
        assertThat(assess(":4.16").retryAfter()).isNull();
    }

    @Test
    void registryTroubleIsATransientErrorForTheRunnerToRetry() {
        registry.on("GET", "/v2/os/rhcos/manifests/4.16", Answer.of(503));
        assertThatThrownBy(() -> assess(":4.16"))
                .isInstanceOf(RegistryException.Unavailable.class)
                .hasMessageContaining("HTTP 503");

        registry.on("GET", "/v2/os/rhcos/manifests/4.16", Answer.json(200, MediaTypes.OCI_INDEX, image.indexJson));
        registry.on("HEAD", "/v2/kmods/nvidia/manifests/" + KERNEL, Answer.of(502));
        assertThatThrownBy(() -> assess(":4.16"))
                .isInstanceOf(RegistryException.Unavailable.class)
                .hasMessageContaining("HTTP 502");
    }

    @Test
    void refusesWhatItCannotKnowBeforeAskingTheRegistry() {
        CheckResult realtime =
                hook(Map.of()).assess(request(registry.host() + "/os/rhcos:4.16", "realtime"), () -> false);
        CheckResult noImage = hook(Map.of()).assess(request("", "default"), () -> false);
        CheckResult badRef = hook(Map.of()).assess(request("quay.io/Bad/Name:1", "default"), () -> false);

        assertThat(realtime.reason()).isEqualTo(RegistryKernelModuleHook.KERNEL_VARIANT_UNKNOWN);
        assertThat(realtime.retryAfter()).isNull();
        assertThat(noImage.reason()).isEqualTo(RegistryKernelModuleHook.NO_TARGET_IMAGE);
        assertThat(badRef.reason()).isEqualTo(RegistryKernelModuleHook.INVALID_IMAGE_REFERENCE);
        assertThat(registry.seen()).isEmpty();
    }

    @Test
    void aRealtimeKernelWithAnAssumedSuffixNeedsTheImageKmmNamesForIt() {
        String rt = KmmTemplate.normalize(KERNEL + "+rt");
        registry.on("HEAD", "/v2/kmods/nvidia/manifests/" + rt, Answer.of(404));

        CheckResult decision = hook(Map.of("realtime", "+rt"))
                .assess(request(registry.host() + "/os/rhcos:4.16", "realtime"), () -> false);

        assertThat(decision.reason()).isEqualTo(RegistryKernelModuleHook.MODULES_NOT_BUILT);
        assertThat(decision.message())
                .contains("kernel " + KERNEL + "+rt (amd64)")
                .contains("nvidia:" + rt);
    }

    @Test
    void aCancelledCheckStopsBetweenRegistryCalls() {
        assertThatThrownBy(() ->
                        hook(Map.of()).assess(request(registry.host() + "/os/rhcos:4.16", "default"), () -> true))
                .isInstanceOf(CancellationException.class);
    }
}
