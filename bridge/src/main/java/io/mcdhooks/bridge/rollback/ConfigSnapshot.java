package io.mcdhooks.bridge.rollback;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The MachineConfigs a pool's rendered config was made from, recorded when the pool first targeted
 * it: the render controller had just made it of these, so they are what a rollback to it puts
 * back. Kept outside the cluster's objects, which an administrator's change overwrites.
 */
public record ConfigSnapshot(
        String cluster, String pool, String renderedConfig, Instant takenAt, List<SourceConfig> sources) {

    public ConfigSnapshot {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(renderedConfig, "renderedConfig");
        Objects.requireNonNull(takenAt, "takenAt");
        sources = List.copyOf(sources);
    }

    /** Its record key: one snapshot per cluster, pool and rendered config. */
    public String key() {
        return key(cluster, pool, renderedConfig);
    }

    public static String key(String cluster, String pool, String renderedConfig) {
        return cluster + "/" + pool + "/" + renderedConfig;
    }

    public Optional<SourceConfig> source(String name) {
        return sources.stream().filter(s -> s.name().equals(name)).findFirst();
    }
}
