package io.mcdhooks.hooks.kmod;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One entry of a KMM {@code Module}'s {@code spec.moduleLoader.container.kernelMappings}: a
 * {@code literal} kernel version or a {@code regexp}, and the {@code containerImage} template for the
 * kernels it matches ({@code null}: the module's own {@code containerImage}).
 *
 * <p>As in KMM's {@code findKernelMapping}, a literal matches the kernel version exactly, and a
 * regexp matches when it is found anywhere in it (Go's {@code regexp.MatchString}: anchor it with
 * {@code ^...$} to match the whole version). The regexp is read as Java reads it, with Go's named
 * groups {@code (?P<name>...)} accepted; the RE2 syntax KMM uses is otherwise a subset of Java's.
 */
public record KernelMapping(String literal, Pattern regexp, String containerImage) {

    public KernelMapping {
        if ((literal == null) == (regexp == null)) {
            throw new IllegalArgumentException("a kernel mapping has exactly one of literal and regexp");
        }
    }

    public static KernelMapping literal(String version, String containerImage) {
        return new KernelMapping(version, null, containerImage);
    }

    /** Compiles a KMM (RE2) regexp; throws {@link IllegalArgumentException} naming it. */
    public static KernelMapping regexp(String regexp, String containerImage) {
        try {
            return new KernelMapping(null, Pattern.compile(regexp.replace("(?P<", "(?<")), containerImage);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("regexp '" + regexp + "' does not compile: " + e.getDescription(), e);
        }
    }

    public boolean matches(String kernel) {
        return literal != null ? literal.equals(kernel) : regexp.matcher(kernel).find();
    }

    @Override
    public String toString() {
        return literal != null ? "literal " + literal : "regexp " + regexp.pattern();
    }
}
