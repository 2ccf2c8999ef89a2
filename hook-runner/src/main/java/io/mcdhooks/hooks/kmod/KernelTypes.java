package io.mcdhooks.hooks.kmod;

import java.util.Map;
import java.util.Optional;

/**
 * Which kernel a node boots for the rendered config's {@code kernelType}, given the kernel of the OS
 * image ({@code ostree.linux}).
 *
 * <p>{@code default} (or none) boots the image's own kernel. For {@code realtime} and {@code
 * 64k-pages} the MCD replaces it: {@code rpm-ostree override remove kernel kernel-core ... --install
 * kernel-rt-core ...} (or {@code kernel-64k-core ...}) from the RPM repository of the rendered
 * config's extensions image ({@code baseOSExtensionsContainerImage}; the MCD's {@code switchKernel}).
 * That version is not knowable from the registry without unpacking the extensions image's layers
 * and reading its repository metadata, and the gate request does not name that image. So the hook
 * does not guess: unless a suffix is configured for the kernel type, it refuses ({@code
 * KernelVariantUnknown}). With a suffix it assumes the variant is the same build as the image's
 * kernel, named with that suffix: on RHEL 9.3 and later, where kernel-rt and kernel-64k are built
 * from the kernel's own source package, {@code uname -r} is the default kernel's with {@code +rt} or
 * {@code +64k} ({@code realtime=+rt,64k-pages=+64k}).
 *
 * <p>{@code 64k-pages} exists for arm64 only (the MCD refuses it elsewhere), and any other kernel
 * type is refused ({@code KernelTypeUnsupported}; the MCO would treat it as {@code default}, but a
 * gate does not open on a value it cannot read).
 */
public record KernelTypes(Map<String, String> suffixes) {

    public static final String DEFAULT = "default";
    public static final String REALTIME = "realtime";
    public static final String PAGES_64K = "64k-pages";

    public KernelTypes {
        suffixes = Map.copyOf(suffixes);
        for (String type : suffixes.keySet()) {
            if (!type.equals(REALTIME) && !type.equals(PAGES_64K)) {
                throw new IllegalArgumentException("'" + type + "' is not a kernel type with its own kernel ("
                        + REALTIME + ", " + PAGES_64K + ")");
            }
        }
    }

    /** Why a node of {@code architecture} with {@code kernelType} cannot be assessed; empty when it can. */
    public Optional<Refusal> refusal(String kernelType, String architecture) {
        String type = canonical(kernelType);
        if (type.equals(DEFAULT)) {
            return Optional.empty();
        }
        if (!type.equals(REALTIME) && !type.equals(PAGES_64K)) {
            return Optional.of(new Refusal(
                    RegistryKernelModuleHook.KERNEL_TYPE_UNSUPPORTED,
                    "kernelType '" + kernelType + "' is not one of " + DEFAULT + ", " + REALTIME + ", " + PAGES_64K));
        }
        if (type.equals(PAGES_64K) && !architecture.equals("arm64")) {
            return Optional.of(new Refusal(
                    RegistryKernelModuleHook.KERNEL_TYPE_UNSUPPORTED,
                    "kernelType 64k-pages exists for arm64 only; the node is " + architecture));
        }
        if (!suffixes.containsKey(type)) {
            String packages = type.equals(REALTIME) ? "kernel-rt" : "kernel-64k";
            return Optional.of(new Refusal(
                    RegistryKernelModuleHook.KERNEL_VARIANT_UNKNOWN,
                    "kernelType " + type + ": the MCD installs " + packages
                            + " from the rendered config's extensions image, whose version this hook cannot read"
                            + " from the registry; set MCDHOOKS_KMOD_KERNEL_SUFFIXES (e.g. " + type + "="
                            + (type.equals(REALTIME) ? "+rt" : "+64k")
                            + ") to assume it is the image's kernel build with that suffix"));
        }
        return Optional.empty();
    }

    /** The kernel version the node reports ({@code uname -r}); call after {@link #refusal} found none. */
    public String kernel(String kernelType, String imageKernel) {
        String type = canonical(kernelType);
        return type.equals(DEFAULT) ? imageKernel : imageKernel + suffixes.get(type);
    }

    private static String canonical(String kernelType) {
        return kernelType == null || kernelType.isBlank() ? DEFAULT : kernelType.trim();
    }

    /** A FAIL that stands: the request cannot be assessed as it is. */
    public record Refusal(String reason, String message) {}
}
