package io.mcdhooks.hooks.kmod;

import io.mcdhooks.hooks.api.CheckResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The verdict from what the registry said about each module image, for each kernel the target
 * boots. No I/O: {@link RegistryKernelModuleHook} gathers the findings.
 *
 * <p>What can never pass in this attempt stands ({@code NoKernelMapping}, {@code
 * ModuleImageInvalid}); what may change is checked again ({@code RegistryAccessDenied}, {@code
 * ModulesNotBuilt}); {@code ModulesReady} when every image exists, each reported with its digest.
 */
public final class ModuleReadiness {

    /** Verdict messages are at most this long (the wire contract's limit). */
    public static final int MAX_MESSAGE = 2048;

    /** What the registry said of one module's image for one kernel. */
    public enum Status {
        READY,
        MISSING,
        NO_MAPPING,
        INVALID_IMAGE,
        DENIED
    }

    /**
     * @param kernel  the kernel as the node reports it
     * @param image   the module image (with its digest when READY); {@code null} for NO_MAPPING
     * @param detail  why, for INVALID_IMAGE and DENIED
     */
    public record Finding(
            String module, String architecture, String kernel, Status status, String image, String detail) {}

    private ModuleReadiness() {}

    /** @param osImage the OS image read, as reported (with its resolved digest) */
    public static CheckResult decide(List<Finding> findings, String osImage, Duration recheckAfter) {
        String tail = "; OS image " + osImage;
        List<Finding> noMapping = of(findings, Status.NO_MAPPING);
        if (!noMapping.isEmpty()) {
            return CheckResult.fail(
                    RegistryKernelModuleHook.NO_KERNEL_MAPPING,
                    bounded("KMM would load no module image: no kernel mapping matches "
                            + list(noMapping, f -> f.module() + " for kernel " + f.kernel()) + pending(findings)
                            + tail));
        }
        List<Finding> invalid = of(findings, Status.INVALID_IMAGE);
        if (!invalid.isEmpty()) {
            return CheckResult.fail(
                    RegistryKernelModuleHook.MODULE_IMAGE_INVALID,
                    bounded("module images cannot be checked: "
                            + list(invalid, f -> f.module() + " for kernel " + f.kernel() + ": " + f.detail()) + tail));
        }
        List<Finding> denied = of(findings, Status.DENIED);
        if (!denied.isEmpty()) {
            return CheckResult.failAndRecheck(
                    RegistryKernelModuleHook.REGISTRY_ACCESS_DENIED,
                    bounded("the registry refused access: " + list(denied, f -> f.module() + " (" + f.detail() + ")")
                            + tail),
                    recheckAfter);
        }
        List<Finding> missing = of(findings, Status.MISSING);
        if (!missing.isEmpty()) {
            return CheckResult.failAndRecheck(
                    RegistryKernelModuleHook.MODULES_NOT_BUILT,
                    bounded("not built yet: " + byKernel(missing) + built(findings) + tail),
                    recheckAfter);
        }
        return CheckResult.pass(
                RegistryKernelModuleHook.MODULES_READY, bounded("module images exist: " + byKernel(findings) + tail));
    }

    /** Cuts a message to the wire contract's limit. */
    public static String bounded(String message) {
        return message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE - 1) + "…";
    }

    private static String pending(List<Finding> findings) {
        List<Finding> missing = of(findings, Status.MISSING);
        return missing.isEmpty() ? "" : "; also not built yet: " + byKernel(missing);
    }

    private static String built(List<Finding> findings) {
        List<Finding> ready = of(findings, Status.READY);
        return ready.isEmpty() ? "" : "; built: " + byKernel(ready);
    }

    /** {@code kernel K (amd64): nvidia reg/x:K@sha256:..., ice ...; kernel L (arm64): ...}. */
    private static String byKernel(List<Finding> findings) {
        Map<String, List<Finding>> groups = new LinkedHashMap<>();
        for (Finding f : findings) {
            groups.computeIfAbsent("kernel " + f.kernel() + " (" + f.architecture() + ")", k -> new ArrayList<>())
                    .add(f);
        }
        return groups.entrySet().stream()
                .map(e -> e.getKey() + ": " + list(e.getValue(), f -> f.module() + " " + f.image()))
                .collect(Collectors.joining("; "));
    }

    private static List<Finding> of(List<Finding> findings, Status status) {
        return findings.stream().filter(f -> f.status() == status).toList();
    }

    private static String list(List<Finding> findings, Function<Finding, String> text) {
        return findings.stream().map(text).distinct().collect(Collectors.joining(", "));
    }
}
