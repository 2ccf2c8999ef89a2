package io.mcdhooks.hooks.registry;

/** An index entry's platform, as the OCI image index writes it ({@code variant} may be null). */
public record Platform(String os, String architecture, String variant) {

    @Override
    public String toString() {
        return os + "/" + architecture + (variant == null ? "" : "/" + variant);
    }
}
