package io.mcdhooks.bridge.rollback;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * When to take a snapshot of a pool's rendered config, and of what: the moment the pool's
 * {@code spec.configuration} names a config with no snapshot yet, its {@code source} list names
 * the MachineConfigs the render controller has just made it of, as they are now. Later, an
 * administrator's change overwrites them; the snapshot keeps what they were. Pure: the caller
 * hands in the pool and how to look a MachineConfig up (its informer's store).
 */
public final class SnapshotTaker {

    private SnapshotTaker() {}

    /**
     * The snapshot to record for {@code pool}'s target, or empty: it has none, its sources are not
     * all in the store yet (asked again on the next event), or {@code taken} says it is recorded.
     */
    public static Optional<ConfigSnapshot> take(
            String cluster,
            GenericKubernetesResource pool,
            Function<String, GenericKubernetesResource> machineConfigs,
            Function<String, Boolean> taken,
            Instant now) {
        String target = configuration(pool, "name") instanceof String name ? name : null;
        if (target == null
                || taken.apply(ConfigSnapshot.key(cluster, pool.getMetadata().getName(), target))) {
            return Optional.empty();
        }
        if (!(configuration(pool, "source") instanceof List<?> source) || source.isEmpty()) {
            return Optional.empty();
        }
        List<SourceConfig> sources = new ArrayList<>();
        for (Object ref : source) {
            if (!(ref instanceof Map<?, ?> m) || !(m.get("name") instanceof String name)) {
                return Optional.empty();
            }
            GenericKubernetesResource mc = machineConfigs.apply(name);
            if (mc == null) {
                return Optional.empty();
            }
            sources.add(source(mc).kept());
        }
        return Optional.of(new ConfigSnapshot(cluster, pool.getMetadata().getName(), target, now, sources));
    }

    /** A MachineConfig as a snapshot keeps it. */
    @SuppressWarnings("unchecked")
    public static SourceConfig source(GenericKubernetesResource mc) {
        var meta = mc.getMetadata();
        List<String> ownerKinds = meta.getOwnerReferences() == null
                ? List.of()
                : meta.getOwnerReferences().stream()
                        .map(OwnerReference::getKind)
                        .toList();
        Object spec = mc.getAdditionalProperties().get("spec");
        return SourceConfig.of(
                meta.getName(),
                meta.getLabels(),
                Ownership.of(meta.getAnnotations(), ownerKinds),
                spec instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of());
    }

    private static Object configuration(GenericKubernetesResource pool, String field) {
        return pool.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec
                        && spec.get("configuration") instanceof Map<?, ?> configuration
                ? configuration.get(field)
                : null;
    }
}
