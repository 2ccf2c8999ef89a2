package io.mcdhooks.hooks.examples;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.codec.MessageCodec;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a kernel-module build pipeline has produced: which kernel each OS image carries, and which
 * modules are built for each kernel version and kernel type. Example:
 *
 * <pre>{@code
 * {
 *   "images":  { "quay.io/example/rhcos@sha256:aaaa": "5.14.0-427.13.1.el9_4.x86_64" },
 *   "modules": { "5.14.0-427.13.1.el9_4.x86_64": { "default": ["nvidia", "ice"], "realtime": [] } }
 * }
 * }</pre>
 */
public record ModuleCatalog(Map<String, String> images, Map<String, Map<String, List<String>>> modules) {

    public static final String READY = "ModulesReady";
    public static final String NOT_BUILT = "ModulesNotBuilt";
    public static final String KERNEL_UNKNOWN = "KernelNotInCatalog";
    public static final String NO_TARGET_IMAGE = "NoTargetImage";

    private static final ObjectMapper MAPPER = MessageCodec.newObjectMapper();

    public ModuleCatalog {
        images = images == null ? Map.of() : Map.copyOf(images);
        modules = modules == null ? Map.of() : Map.copyOf(modules);
    }

    public static ModuleCatalog parse(byte[] json) throws IOException {
        return MAPPER.readValue(json, new TypeReference<ModuleCatalog>() {});
    }

    /**
     * PASS once every required module is built for the target's kernel; until then a FAIL that
     * asks to be checked again, since the pipeline publishes builds later.
     */
    public CheckResult assess(GateRequest request, List<String> required, Duration recheckAfter) {
        String image = request.target().osImageURL();
        if (image == null || image.isBlank()) {
            return CheckResult.fail(NO_TARGET_IMAGE, "the request names no target OS image, so its kernel is unknown");
        }
        String kernel = images.get(image);
        if (kernel == null) {
            return CheckResult.failAndRecheck(
                    KERNEL_UNKNOWN, "the module catalog does not know the kernel of " + image + " yet", recheckAfter);
        }
        String type = request.target().kernelType() == null
                        || request.target().kernelType().isBlank()
                ? "default"
                : request.target().kernelType();
        List<String> built = modules.getOrDefault(kernel, Map.of()).getOrDefault(type, List.of());
        List<String> missing = new ArrayList<>(required);
        missing.removeAll(built);
        if (!missing.isEmpty()) {
            return CheckResult.failAndRecheck(
                    NOT_BUILT,
                    "modules " + String.join(", ", missing) + " are not built yet for kernel " + kernel + " (" + type
                            + ")",
                    recheckAfter);
        }
        return CheckResult.pass(
                READY,
                "modules " + String.join(", ", required) + " are built for kernel " + kernel + " (" + type + ")");
    }
}
