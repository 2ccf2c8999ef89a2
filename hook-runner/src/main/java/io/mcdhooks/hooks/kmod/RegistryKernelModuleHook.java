package io.mcdhooks.hooks.kmod;

import io.mcdhooks.hooks.api.CheckContext;
import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.api.Hook;
import io.mcdhooks.hooks.kmod.ModuleReadiness.Finding;
import io.mcdhooks.hooks.kmod.ModuleReadiness.Status;
import io.mcdhooks.hooks.registry.Descriptor;
import io.mcdhooks.hooks.registry.ImageConfig;
import io.mcdhooks.hooks.registry.ImageReference;
import io.mcdhooks.hooks.registry.Manifest;
import io.mcdhooks.hooks.registry.PullSecret;
import io.mcdhooks.hooks.registry.RegistriesConf;
import io.mcdhooks.hooks.registry.RegistryClient;
import io.mcdhooks.hooks.registry.RegistryException;
import io.mcdhooks.hooks.registry.RegistryTrust;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.codec.MessageCodec;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;

/**
 * Scenario 1 from the registry: holds an update until the kernel-module images KMM will need exist
 * for the kernel the target OS image boots.
 *
 * <p>For each gate it reads the target OS image (an image-mode pool's desired image, else the
 * rendered config's {@code osImageURL}) through the distribution API: its index, the manifest of
 * the node's architecture ({@code kubernetes.io/arch}; for a pool gate, each configured one), and the
 * config, whose label {@value #KERNEL_LABEL} is the kernel. {@link KernelTypes} turns it into the
 * kernel the node will report for the rendered config's {@code kernelType}. Then, for every KMM
 * {@code Module}, the kernel mapping KMM would pick names an image, and a manifest {@code HEAD}
 * says whether it exists. {@link ModuleReadiness} decides.
 *
 * <p>Registry trouble that teaches nothing (connection errors, 429, 5xx) fails the check, and the
 * runner tries again with back-off until the deadline. The hook never talks to the Kubernetes API.
 */
public final class RegistryKernelModuleHook implements Hook {

    /** The image config label of a bootable RHCOS/bootc image that holds its kernel version. */
    public static final String KERNEL_LABEL = "ostree.linux";

    public static final String ARCH_LABEL = "kubernetes.io/arch";

    public static final String MODULES_READY = "ModulesReady";
    public static final String MODULES_NOT_BUILT = "ModulesNotBuilt";
    public static final String NO_KERNEL_MAPPING = "NoKernelMapping";
    public static final String MODULE_IMAGE_INVALID = "ModuleImageInvalid";
    public static final String REGISTRY_ACCESS_DENIED = "RegistryAccessDenied";
    public static final String NO_TARGET_IMAGE = "NoTargetImage";
    public static final String INVALID_IMAGE_REFERENCE = "InvalidImageReference";
    public static final String OS_IMAGE_NOT_FOUND = "OsImageNotFound";
    public static final String OS_IMAGE_INVALID = "OsImageInvalid";
    public static final String KERNEL_LABEL_MISSING = "KernelLabelMissing";
    public static final String KERNEL_TYPE_UNSUPPORTED = "KernelTypeUnsupported";
    public static final String KERNEL_VARIANT_UNKNOWN = "KernelVariantUnknown";

    private static final Pattern KERNEL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+~-]{0,254}");

    private final GateSelector selector;
    private final List<KmmModule> modules;
    private final RegistryClient registry;
    private final List<String> architectures;
    private final KernelTypes kernelTypes;
    private final Duration recheckAfter;

    public RegistryKernelModuleHook(
            GateSelector selector,
            List<KmmModule> modules,
            RegistryClient registry,
            List<String> architectures,
            KernelTypes kernelTypes,
            Duration recheckAfter) {
        if (modules.isEmpty()) {
            throw new IllegalArgumentException("no KMM Module to check");
        }
        this.selector = selector;
        this.modules = List.copyOf(modules);
        this.registry = registry;
        this.architectures = List.copyOf(architectures);
        this.kernelTypes = kernelTypes;
        this.recheckAfter = recheckAfter;
    }

    /**
     * Reads the settings' files once; a file that cannot be read or understood throws {@link
     * IllegalArgumentException} naming its variable.
     */
    public static RegistryKernelModuleHook create(GateSelector selector, RegistryModuleSettings settings) {
        List<KmmModule> modules = named("MCDHOOKS_KMOD_MODULES_FILE", () -> KmmModules.read(settings.modulesFile()));
        PullSecret secrets = named(
                "MCDHOOKS_KMOD_PULL_SECRETS",
                () -> PullSecret.read(settings.pullSecrets(), MessageCodec.newObjectMapper()));
        RegistriesConf registries = settings.registriesConf() == null
                ? RegistriesConf.none()
                : named("MCDHOOKS_KMOD_REGISTRIES_CONF", () -> RegistriesConf.read(settings.registriesConf()));
        RegistryClient client = new RegistryClient(
                RegistryClient.httpClient(
                        named("MCDHOOKS_KMOD_CA_FILE", () -> RegistryTrust.context(settings.caFile()))),
                secrets,
                registries,
                Clock.systemUTC());
        KernelTypes kernelTypes =
                named("MCDHOOKS_KMOD_KERNEL_SUFFIXES", () -> new KernelTypes(settings.kernelSuffixes()));
        return new RegistryKernelModuleHook(
                selector, modules, client, settings.architectures(), kernelTypes, settings.recheckAfter());
    }

    @Override
    public GateSelector selector() {
        return selector;
    }

    @Override
    public CompletionStage<CheckResult> check(GateRequest request, CheckContext context) {
        return context.blocking(() -> assess(request, context::isCancelled));
    }

    /** The whole check, blocking; {@code cancelled} is asked between registry calls. */
    public CheckResult assess(GateRequest request, BooleanSupplier cancelled) {
        GateRequest.TargetFacts target = request.target();
        String imageText = notBlank(target.image()) ? target.image() : target.osImageURL();
        if (!notBlank(imageText)) {
            return CheckResult.fail(NO_TARGET_IMAGE, "the request names no target OS image, so its kernel is unknown");
        }
        ImageReference image;
        try {
            image = ImageReference.parse(imageText);
        } catch (IllegalArgumentException e) {
            return CheckResult.fail(INVALID_IMAGE_REFERENCE, ModuleReadiness.bounded(e.getMessage()));
        }
        List<String> archs = architectures(request);
        for (String arch : archs) {
            Optional<KernelTypes.Refusal> refusal = kernelTypes.refusal(target.kernelType(), arch);
            if (refusal.isPresent()) {
                return CheckResult.fail(
                        refusal.get().reason(),
                        ModuleReadiness.bounded(refusal.get().message()));
            }
        }

        Map<String, String> kernels = new LinkedHashMap<>();
        String osImage;
        try {
            RegistryClient.Located top = registry.manifest(image);
            osImage = image.pinned()
                    ? image.toString()
                    : image + " (resolved to " + top.digest() + " at "
                            + top.endpoint().describe() + ")";
            for (String arch : archs) {
                stopIfCancelled(cancelled);
                Optional<CheckResult> refused = kernelOf(image, top, arch, target.kernelType(), kernels);
                if (refused.isPresent()) {
                    return refused.get();
                }
            }
        } catch (RegistryException.NotFound e) {
            return CheckResult.failAndRecheck(
                    OS_IMAGE_NOT_FOUND, ModuleReadiness.bounded(e.getMessage()), recheckAfter);
        } catch (RegistryException.AccessDenied e) {
            return CheckResult.failAndRecheck(
                    REGISTRY_ACCESS_DENIED, ModuleReadiness.bounded(e.getMessage()), recheckAfter);
        } catch (RegistryException.BadContent e) {
            return CheckResult.fail(OS_IMAGE_INVALID, ModuleReadiness.bounded(e.getMessage()));
        }

        List<Finding> findings = new ArrayList<>();
        Map<String, Finding> seen = new HashMap<>();
        for (Map.Entry<String, String> entry : kernels.entrySet()) {
            for (KmmModule module : modules) {
                stopIfCancelled(cancelled);
                findings.add(find(module, entry.getKey(), entry.getValue(), seen));
            }
        }
        return ModuleReadiness.decide(findings, osImage, recheckAfter);
    }

    /** Puts the kernel of {@code arch} into {@code kernels}, or returns the FAIL that explains why not. */
    private Optional<CheckResult> kernelOf(
            ImageReference image,
            RegistryClient.Located top,
            String arch,
            String kernelType,
            Map<String, String> kernels) {
        RegistryClient.Located platform = top;
        if (top.manifest() instanceof Manifest.Index index) {
            Optional<Descriptor> entry = index.platform(arch);
            if (entry.isEmpty()) {
                return Optional.of(CheckResult.fail(
                        OS_IMAGE_INVALID,
                        ModuleReadiness.bounded(image + " has no linux/" + arch + " image; its index holds "
                                + index.manifests().stream()
                                        .map(d -> String.valueOf(d.platform()))
                                        .toList())));
            }
            platform = registry.manifest(top.endpoint(), entry.get().digest());
        }
        if (!(platform.manifest() instanceof Manifest.Image manifest)) {
            return Optional.of(CheckResult.fail(
                    OS_IMAGE_INVALID, image + ": the linux/" + arch + " entry of its index is itself an index"));
        }
        ImageConfig config = registry.config(platform.endpoint(), manifest.config());
        if (top.manifest() instanceof Manifest.Image
                && config.architecture() != null
                && !config.architecture().equals(arch)) {
            return Optional.of(CheckResult.fail(
                    OS_IMAGE_INVALID,
                    image + " is a single " + config.architecture() + " image; the kernel for " + arch
                            + " is not in it"));
        }
        String kernel = config.labels().get(KERNEL_LABEL);
        if (!notBlank(kernel)) {
            return Optional.of(CheckResult.fail(
                    KERNEL_LABEL_MISSING,
                    ModuleReadiness.bounded(image + " (linux/" + arch + ", config "
                            + manifest.config().digest()
                            + ") has no label " + KERNEL_LABEL
                            + ": it is not a bootable RHCOS/bootc image, or not one that names its kernel")));
        }
        kernel = kernel.trim();
        if (!KERNEL.matcher(kernel).matches()) {
            return Optional.of(CheckResult.fail(
                    OS_IMAGE_INVALID,
                    ModuleReadiness.bounded(
                            image + ": label " + KERNEL_LABEL + "='" + kernel + "' is not a kernel version")));
        }
        try {
            KmmTemplate.variables(kernel, null, null);
        } catch (IllegalArgumentException e) {
            return Optional.of(CheckResult.fail(
                    OS_IMAGE_INVALID,
                    ModuleReadiness.bounded(image + ": label " + KERNEL_LABEL + ": " + e.getMessage())));
        }
        kernels.put(arch, kernelTypes.kernel(kernelType, kernel));
        return Optional.empty();
    }

    /** What the registry says of {@code module}'s image for {@code kernel}; one HEAD per distinct image. */
    private Finding find(KmmModule module, String arch, String kernel, Map<String, Finding> seen) {
        Optional<KernelMapping> mapping = module.mappingFor(kernel);
        if (mapping.isEmpty()) {
            return new Finding(module.id(), arch, kernel, Status.NO_MAPPING, null, null);
        }
        String image;
        ImageReference reference;
        try {
            image = module.imageFor(mapping.get(), kernel);
            reference = ImageReference.parse(image);
        } catch (IllegalArgumentException e) {
            return new Finding(module.id(), arch, kernel, Status.INVALID_IMAGE, null, e.getMessage());
        }
        Finding earlier = seen.get(image);
        if (earlier != null) {
            return new Finding(module.id(), arch, kernel, earlier.status(), earlier.image(), earlier.detail());
        }
        Finding finding;
        try {
            finding = registry.head(reference)
                    .map(p -> new Finding(
                            module.id(),
                            arch,
                            kernel,
                            Status.READY,
                            reference.withDigest(p.digest()).toString(),
                            null))
                    .orElseGet(() -> new Finding(module.id(), arch, kernel, Status.MISSING, image, null));
        } catch (RegistryException.AccessDenied e) {
            finding = new Finding(module.id(), arch, kernel, Status.DENIED, image, e.getMessage());
        } catch (RegistryException.BadContent e) {
            finding = new Finding(module.id(), arch, kernel, Status.INVALID_IMAGE, image, e.getMessage());
        }
        seen.put(image, finding);
        return finding;
    }

    /** The node's architecture when the request names it, else every configured one. */
    private List<String> architectures(GateRequest request) {
        if (request.node() != null) {
            String arch = request.node().labels().get(ARCH_LABEL);
            if (notBlank(arch)) {
                return List.of(arch.trim());
            }
        }
        return architectures;
    }

    private static void stopIfCancelled(BooleanSupplier cancelled) {
        if (cancelled.getAsBoolean()) {
            throw new CancellationException("the runner gave up on this check");
        }
    }

    private static boolean notBlank(String text) {
        return text != null && !text.isBlank();
    }

    private interface Reading<T> {
        T get();
    }

    private static <T> T named(String variable, Reading<T> reading) {
        try {
            return reading.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(variable + ": " + e.getMessage(), e);
        }
    }
}
