package io.mcdhooks.hooks.kmod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.registry.RegistryException;
import io.mcdhooks.hooks.testing.Kmod;
import io.mcdhooks.sandbox.registry.ForkedRegistry;
import io.mcdhooks.sandbox.registry.ImagePusher;
import io.mcdhooks.sandbox.registry.ImagePusher.Platform;
import io.mcdhooks.sandbox.registry.junit.RegistryExtension;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kmod hook against a real registry (Debian's docker-registry, TLS and basic auth), its images
 * pushed by the test through the distribution API: an OS image indexed over two architectures with
 * a kernel each, and module images named as the KMM kernel mappings name them.
 */
@ExtendWith(RegistryExtension.class)
class RegistryKernelModuleHookIT {

    private static final String AMD64_KERNEL = "5.14.0-427.13.1.el9_4.x86_64";
    private static final String ARM64_KERNEL = "5.14.0-427.13.1.el9_4.aarch64";
    private static final Duration RECHECK = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    private ForkedRegistry registry;
    private ImagePusher pusher;
    private String repo;

    @BeforeEach
    void given(ForkedRegistry registry) {
        this.registry = registry;
        this.pusher = registry.pusher();
        // Each test has its own repositories in the JVM's one registry.
        this.repo = "t" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** @param prefix where the module images are, as the Module names them */
    private String modules(String prefix) {
        return """
                apiVersion: kmm.sigs.x-k8s.io/v1beta1
                kind: Module
                metadata:
                  name: nvidia
                  namespace: gpu-operator
                spec:
                  moduleLoader:
                    container:
                      modprobe:
                        moduleName: nvidia
                      kernelMappings:
                        - literal: %2$s
                          containerImage: %1$s/nvidia:custom-arm64
                        - regexp: '^.+\\.el9_\\d+\\.(x86_64|aarch64)(\\+rt)?$'
                          containerImage: %1$s/nvidia:${KERNEL_FULL_VERSION}
                """.formatted(prefix, ARM64_KERNEL);
    }

    private RegistryKernelModuleHook hook(String modulesPrefix, String secret, boolean trustCa, String registriesConf)
            throws Exception {
        Path modules = Files.writeString(dir.resolve("modules.yaml"), modules(modulesPrefix));
        List<Path> secrets = List.of();
        if (secret != null) {
            secrets = List.of(Files.writeString(dir.resolve("pull-secret.json"), secret));
        }
        Path conf = registriesConf == null ? null : Files.writeString(dir.resolve("registries.conf"), registriesConf);
        return RegistryKernelModuleHook.create(
                GateSelector.stages(Stage.POOL_PRE_UPDATE, Stage.PRE_UPDATE),
                new RegistryModuleSettings(
                        modules,
                        secrets,
                        trustCa ? registry.tls().caFile() : null,
                        conf,
                        List.of("amd64", "arm64"),
                        Map.of("realtime", "+rt"),
                        RECHECK));
    }

    private RegistryKernelModuleHook hook() throws Exception {
        return hook(
                ownModules(),
                secret(RegistryExtension.USERNAME, RegistryExtension.PASSWORD, registry.host()),
                true,
                null);
    }

    private String ownModules() {
        return registry.host() + "/" + repo;
    }

    private static String secret(String user, String password, String host) {
        String auth = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        return "{\"auths\":{\"" + host + "\":{\"auth\":\"" + auth + "\"}}}";
    }

    private String pushOs(String indexType) {
        Map<Platform, String> kernels = new LinkedHashMap<>();
        kernels.put(Platform.of("amd64"), AMD64_KERNEL);
        kernels.put(new Platform("arm64", "v8"), ARM64_KERNEL);
        return pusher.pushIndex(repo + "/rhcos", "4.16", kernels, indexType);
    }

    private String pushModule(String tag, String arch) {
        return pusher.pushImage(repo + "/nvidia", tag, Platform.of(arch), Map.of());
    }

    private static GateRequest request(String osImage, String kernelType, String nodeArch) {
        return Kmod.gate(osImage, kernelType, nodeArch == null ? null : "worker-1", nodeArch);
    }

    @Test
    void failsNamingTheMissingImageUntilEveryArchitecturesModuleIsPushedThenPassesWithTheirDigests() throws Exception {
        // Given an OS image for amd64 and arm64, and the amd64 module built
        String index = pushOs(ImagePusher.OCI_INDEX);
        String amd64Module = pushModule(AMD64_KERNEL, "amd64");
        RegistryKernelModuleHook hook = hook();
        GateRequest pool = request(registry.host() + "/" + repo + "/rhcos:4.16", "default", null);

        // When the pool's gate is checked
        CheckResult before = hook.assess(pool, () -> false);

        // Then it fails, to be checked again, naming the arm64 image KMM's literal mapping names
        assertThat(before.outcome()).isEqualTo(Outcome.FAIL);
        assertThat(before.reason()).isEqualTo(RegistryKernelModuleHook.MODULES_NOT_BUILT);
        assertThat(before.retryAfter()).isEqualTo(RECHECK);
        assertThat(before.message())
                .startsWith("not built yet: kernel " + ARM64_KERNEL + " (arm64): gpu-operator/nvidia " + registry.host()
                        + "/" + repo + "/nvidia:custom-arm64")
                .contains("built: kernel " + AMD64_KERNEL + " (amd64): gpu-operator/nvidia " + registry.host() + "/"
                        + repo + "/nvidia:" + AMD64_KERNEL + "@" + amd64Module)
                .contains("(resolved to " + index + " at " + registry.host() + "/" + repo + "/rhcos)");

        // When the arm64 build lands
        String arm64Module = pushModule("custom-arm64", "arm64");

        // Then the same gate passes, reporting what each tag resolved to
        CheckResult after = hook.assess(pool, () -> false);
        assertThat(after.outcome()).isEqualTo(Outcome.PASS);
        assertThat(after.reason()).isEqualTo(RegistryKernelModuleHook.MODULES_READY);
        assertThat(after.message()).contains("@" + amd64Module).contains("nvidia:custom-arm64@" + arm64Module);
    }

    @Test
    void aNodesGateNeedsOnlyTheModuleForItsOwnArchitectureAndKernelType() throws Exception {
        pushOs(ImagePusher.DOCKER_MANIFEST_LIST);
        String rtTag = KmmTemplate.normalize(AMD64_KERNEL + "+rt");
        RegistryKernelModuleHook hook = hook();
        String os = registry.host() + "/" + repo + "/rhcos:4.16";

        CheckResult missing = hook.assess(request(os, "realtime", "amd64"), () -> false);
        pushModule(rtTag, "amd64");
        CheckResult ready = hook.assess(request(os, "realtime", "amd64"), () -> false);

        assertThat(missing.reason()).isEqualTo(RegistryKernelModuleHook.MODULES_NOT_BUILT);
        assertThat(missing.message())
                .startsWith(
                        "not built yet: kernel " + AMD64_KERNEL + "+rt (amd64): gpu-operator/nvidia " + registry.host()
                                + "/" + repo + "/nvidia:" + rtTag + "; OS image " + os + " (resolved to sha256:")
                .doesNotContain("arm64");
        assertThat(ready.outcome()).isEqualTo(Outcome.PASS);
        assertThat(ready.message()).doesNotContain("arm64");
    }

    @Test
    void anImageWithoutTheKernelLabelIsNotABootableImageToJudge() throws Exception {
        String digest = pusher.pushImage(repo + "/app", "1", Platform.of("amd64"), Map.of("version", "1"));

        CheckResult decision = hook().assess(
                        request(registry.host() + "/" + repo + "/app@" + digest, "default", "amd64"), () -> false);

        assertThat(decision.outcome()).isEqualTo(Outcome.FAIL);
        assertThat(decision.reason()).isEqualTo(RegistryKernelModuleHook.KERNEL_LABEL_MISSING);
        assertThat(decision.message()).contains("has no label ostree.linux");
    }

    @Test
    void aWrongPasswordIsDeniedAndAnUntrustedCertificateIsATransientError() throws Exception {
        pushOs(ImagePusher.OCI_INDEX);
        String os = registry.host() + "/" + repo + "/rhcos:4.16";

        CheckResult denied = hook(
                        ownModules(), secret(RegistryExtension.USERNAME, "wrong", registry.host()), true, null)
                .assess(request(os, "default", null), () -> false);
        CheckResult anonymous = hook(ownModules(), null, true, null).assess(request(os, "default", null), () -> false);
        RegistryKernelModuleHook untrusting = hook(
                ownModules(),
                secret(RegistryExtension.USERNAME, RegistryExtension.PASSWORD, registry.host()),
                false,
                null);

        assertThat(denied.reason()).isEqualTo(RegistryKernelModuleHook.REGISTRY_ACCESS_DENIED);
        assertThat(denied.message()).contains("refused the credentials (HTTP 401");
        assertThat(anonymous.reason()).isEqualTo(RegistryKernelModuleHook.REGISTRY_ACCESS_DENIED);
        assertThat(anonymous.message()).contains("asks for basic auth");
        assertThatThrownBy(() -> untrusting.assess(request(os, "default", null), () -> false))
                .isInstanceOf(RegistryException.Unavailable.class)
                .hasMessageContaining("SSLHandshakeException");
    }

    @Test
    void readsTheOsAndModuleImagesThroughAMirrorWhenTheirSourceIsBlocked() throws Exception {
        // Given images only in the mirror, and references naming registries this machine cannot reach
        String index = pushOs(ImagePusher.OCI_INDEX);
        pushModule(AMD64_KERNEL, "amd64");
        pushModule("custom-arm64", "arm64");
        String conf = """
                [[registry]]
                prefix = ""
                location = "quay.example/openshift-release-dev"
                blocked = true
                mirror-by-digest-only = true
                [[registry.mirror]]
                location = "%1$s/%2$s"

                [[registry]]
                location = "registry.example.com/gpu"
                blocked = true
                [[registry.mirror]]
                location = "%1$s/%2$s"
                pull-from-mirror = "tag-only"
                """.formatted(registry.host(), repo);
        // The mirror's credentials are looked up under the mirror's host.
        RegistryKernelModuleHook hook = hook(
                "registry.example.com/gpu",
                secret(RegistryExtension.USERNAME, RegistryExtension.PASSWORD, registry.host()),
                true,
                conf);
        String os = "quay.example/openshift-release-dev/rhcos@" + index;

        CheckResult decision = hook.assess(request(os, "default", null), () -> false);

        assertThat(decision.outcome()).as(decision.message()).isEqualTo(Outcome.PASS);
        assertThat(decision.message())
                .contains("registry.example.com/gpu/nvidia:" + AMD64_KERNEL + "@sha256:")
                .contains("OS image " + os);
        assertThat(hook.assess(request("quay.example/openshift-release-dev/rhcos:4.16", "default", null), () -> false)
                        .message())
                .as("the mirror takes digests only")
                .contains("blocked by the registries configuration");
    }
}
