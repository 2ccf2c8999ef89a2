package io.mcdhooks.sandbox.local;

import io.mcdhooks.hooks.kmod.KmmTemplate;
import io.mcdhooks.hooks.kmod.RegistryModuleSettings;
import io.mcdhooks.sandbox.registry.ForkedRegistry;
import io.mcdhooks.sandbox.registry.ImagePusher;
import io.mcdhooks.sandbox.registry.ImagePusher.Platform;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The registry of the local run: Debian's {@code docker-registry} with TLS and basic auth, holding
 * the simulated cluster's OS image and the kernel-module images a build pipeline pushes. The OS
 * image is named as OpenShift names it ({@value #OS_REPOSITORY}) and reached through a {@code
 * registries.conf} mirror, its source blocked; its content is fixed, so its digest is too ({@link
 * #OS_IMAGE}). The kmod hook reads it as it would on a cluster: from the files this class writes
 * (KMM Modules, a pull secret, the CA, the registries.conf).
 */
final class LocalRegistry implements AutoCloseable {

    static final String OS_REPOSITORY = "quay.io/openshift-release-dev/ocp-v4.0-art-dev";
    /** The kernel of the OS image, for amd64 ({@code ostree.linux}). */
    static final String KERNEL = "5.14.0-427.13.1.el9_4.x86_64";

    static final String ARM64_KERNEL = "5.14.0-427.13.1.el9_4.aarch64";
    /** The kernel a node of the simulated rollout ({@code kernelType: realtime}) will report. */
    static final String REALTIME_KERNEL = KERNEL + "+rt";

    static final List<String> MODULES = List.of("nvidia", "ice");

    private static final ImagePusher.Built OS = ImagePusher.index(kernels(), ImagePusher.OCI_INDEX);
    /** The OS image the simulated cluster's MachineConfigs carry: always the same digest. */
    static final String OS_IMAGE = OS_REPOSITORY + "@" + OS.digest();

    private static final String USER = "kmod-pipeline";

    /** In a fixed order: the index's bytes, and so its digest, must not change from run to run. */
    private static Map<Platform, String> kernels() {
        Map<Platform, String> kernels = new LinkedHashMap<>();
        kernels.put(Platform.of("amd64"), KERNEL);
        kernels.put(Platform.of("arm64"), ARM64_KERNEL);
        return kernels;
    }

    private final ForkedRegistry registry;
    private final ImagePusher pusher;
    private final Path dir;

    private LocalRegistry(ForkedRegistry registry, Path dir) {
        this.registry = registry;
        this.pusher = registry.pusher();
        this.dir = dir;
    }

    /**
     * Starts the registry, pushes the OS image and the modules for its own kernel, and writes the
     * hook's files into {@code dir}. Fails, saying how to install it, without {@code docker-registry}.
     */
    static LocalRegistry start(Path dir) {
        if (!ForkedRegistry.installed()) {
            throw new IllegalStateException(ForkedRegistry.MISSING + "; .ci/run installs it");
        }
        String password = UUID.randomUUID().toString();
        LocalRegistry local =
                new LocalRegistry(ForkedRegistry.start(ForkedRegistry.Options.basic(USER, password)), dir);
        try {
            local.pusher.push("openshift-release-dev/ocp-v4.0-art-dev", "4.16-local", OS);
            local.pushModules(KERNEL);
            local.writeFiles(password);
            return local;
        } catch (RuntimeException e) {
            local.close();
            throw e;
        }
    }

    /** The module images KMM would run for {@code kernel}, pushed as a build pipeline would; returns their names. */
    List<String> pushModules(String kernel) {
        List<String> pushed = new ArrayList<>();
        for (String module : MODULES) {
            String tag = KmmTemplate.normalize(kernel);
            pusher.pushImage("kmods/" + module, tag, Platform.of("amd64"), Map.of("module", module));
            pushed.add(registry.host() + "/kmods/" + module + ":" + tag);
        }
        return pushed;
    }

    /** What the kmod hook reads: the realtime kernel assumed to be the image's build with {@code +rt}. */
    RegistryModuleSettings settings(Duration recheckAfter) {
        return new RegistryModuleSettings(
                modulesFile(),
                List.of(dir.resolve("pull-secret.json")),
                registry.tls().caFile(),
                dir.resolve("registries.conf"),
                List.of("amd64"),
                Map.of("realtime", "+rt"),
                recheckAfter);
    }

    Path modulesFile() {
        return dir.resolve("modules.yaml");
    }

    String host() {
        return registry.host();
    }

    private void writeFiles(String password) {
        StringBuilder modules = new StringBuilder();
        for (String module : MODULES) {
            modules.append("apiVersion: kmm.sigs.x-k8s.io/v1beta1\nkind: Module\nmetadata:\n  name: ")
                    .append(module)
                    .append("\n  namespace: kmods\nspec:\n  moduleLoader:\n    container:\n      modprobe:\n")
                    .append("        moduleName: ")
                    .append(module)
                    .append("\n      kernelMappings:\n        - regexp: '^.+$'\n          containerImage: ")
                    .append(registry.host())
                    .append("/kmods/")
                    .append(module)
                    .append(":${KERNEL_FULL_VERSION}\n---\n");
        }
        String auth = Base64.getEncoder().encodeToString((USER + ":" + password).getBytes(StandardCharsets.UTF_8));
        write(modulesFile(), modules.toString());
        write(
                dir.resolve("pull-secret.json"),
                "{\"auths\":{\"" + registry.host() + "\":{\"auth\":\"" + auth + "\"}}}\n");
        // As an ImageDigestMirrorSet writes it: the OS image by digest from the mirror, never from quay.io.
        write(
                dir.resolve("registries.conf"),
                "[[registry]]\n  prefix = \"\"\n  location = \"quay.io/openshift-release-dev\"\n  blocked = true\n"
                        + "  mirror-by-digest-only = true\n\n  [[registry.mirror]]\n    location = \""
                        + registry.host() + "/openshift-release-dev\"\n");
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        registry.close();
    }
}
