package io.mcdhooks.bridge.rollback;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One MachineConfig that a rendered config was made from, as a rollback needs it: what selects it
 * into a pool (its labels), who owns it, and its whole {@code spec}, kept as read so that a restore
 * writes back exactly what was there.
 *
 * @param owners what marks it as not the administrator's ({@link Ownership#of}); empty: the administrator's
 */
public record SourceConfig(String name, Map<String, String> labels, List<String> owners, Map<String, Object> spec) {

    public SourceConfig {
        Objects.requireNonNull(name, "name");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        owners = owners == null ? List.of() : List.copyOf(owners);
        spec = spec == null ? Map.of() : spec;
    }

    /** Whether the administrator wrote it: no controller generated it and no operator owns it. */
    public boolean administrators() {
        return owners.isEmpty();
    }
}
