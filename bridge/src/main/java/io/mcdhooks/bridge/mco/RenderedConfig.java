package io.mcdhooks.bridge.mco;

import java.util.List;

/** The facts of a rendered MachineConfig that hooks need to judge it. */
public record RenderedConfig(
        String name, String osImageURL, String kernelType, List<String> extensions, List<String> kernelArguments) {

    public RenderedConfig {
        extensions = extensions == null ? List.of() : List.copyOf(extensions);
        kernelArguments = kernelArguments == null ? List.of() : List.copyOf(kernelArguments);
    }
}
