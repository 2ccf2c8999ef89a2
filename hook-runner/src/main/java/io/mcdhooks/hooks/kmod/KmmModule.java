package io.mcdhooks.hooks.kmod;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the hook reads of a KMM {@code Module}: its name and namespace (the templates' {@code
 * MOD_NAME} and {@code MOD_NAMESPACE}), the default {@code containerImage} of {@code
 * spec.moduleLoader.container}, and its kernel mappings, in order.
 */
public record KmmModule(String name, String namespace, String containerImage, List<KernelMapping> kernelMappings) {

    public KmmModule {
        Objects.requireNonNull(name, "name");
        kernelMappings = List.copyOf(kernelMappings);
    }

    /** The first mapping that matches {@code kernel}, as KMM picks it. */
    public Optional<KernelMapping> mappingFor(String kernel) {
        return kernelMappings.stream().filter(m -> m.matches(kernel)).findFirst();
    }

    /** The module image KMM would run on a node with {@code kernel}, by {@code mapping}. */
    public String imageFor(KernelMapping mapping, String kernel) {
        String template = mapping.containerImage() != null ? mapping.containerImage() : containerImage;
        return KmmTemplate.expand(template, KmmTemplate.variables(kernel, name, namespace));
    }

    /** {@code namespace/name}, or the name alone. */
    public String id() {
        return namespace == null ? name : namespace + "/" + name;
    }
}
