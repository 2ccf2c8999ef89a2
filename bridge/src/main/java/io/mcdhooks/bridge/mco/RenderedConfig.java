package io.mcdhooks.bridge.mco;

import java.util.List;
import java.util.Map;

/**
 * The facts of a rendered MachineConfig that hooks need to judge it, and its whole {@code spec}
 * (as the informer holds it, not copied), which the change classifier diffs.
 */
public record RenderedConfig(
        String name,
        String osImageURL,
        String kernelType,
        List<String> extensions,
        List<String> kernelArguments,
        Map<String, Object> spec) {

    public RenderedConfig {
        extensions = extensions == null ? List.of() : List.copyOf(extensions);
        kernelArguments = kernelArguments == null ? List.of() : List.copyOf(kernelArguments);
    }

    /** The facts alone, without a spec to classify changes by. */
    public RenderedConfig(
            String name, String osImageURL, String kernelType, List<String> extensions, List<String> kernelArguments) {
        this(name, osImageURL, kernelType, extensions, kernelArguments, null);
    }
}
