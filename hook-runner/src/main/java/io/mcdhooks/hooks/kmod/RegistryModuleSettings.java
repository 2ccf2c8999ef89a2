package io.mcdhooks.hooks.kmod;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The kmod hook's settings in registry mode (see the hook author's guide for the variables).
 *
 * @param modulesFile    KMM Module resources (YAML): which module images each kernel needs
 * @param pullSecrets    {@code .dockerconfigjson} files, merged; none for anonymous pulls
 * @param caFile         a PEM bundle trusted besides the JDK's CAs, or {@code null}
 * @param registriesConf a {@code registries.conf} (mirrors, blocked and insecure registries), or {@code null}
 * @param architectures  for gates without a node, or a node without {@code kubernetes.io/arch}: the
 *                       architectures whose kernels need modules
 * @param kernelSuffixes by kernel type ({@code realtime}, {@code 64k-pages}): the assumed suffix of its
 *                       kernel's version; a kernel type without one is refused
 * @param recheckAfter   when a FAIL that may change is checked again
 */
public record RegistryModuleSettings(
        Path modulesFile,
        List<Path> pullSecrets,
        Path caFile,
        Path registriesConf,
        List<String> architectures,
        Map<String, String> kernelSuffixes,
        Duration recheckAfter) {

    public RegistryModuleSettings {
        Objects.requireNonNull(modulesFile, "modulesFile");
        pullSecrets = List.copyOf(pullSecrets);
        architectures = List.copyOf(architectures);
        kernelSuffixes = Map.copyOf(kernelSuffixes);
        Objects.requireNonNull(recheckAfter, "recheckAfter");
        if (architectures.isEmpty()) {
            throw new IllegalArgumentException("at least one architecture");
        }
    }
}
