package io.mcdhooks.bridge.rollback;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Which of a pool's snapshots to let go: all but its newest {@code kept}, and never one its nodes
 * are on or going to (a rollback goes back to the config the pool's nodes came from, however many
 * configs were rendered since). Pure.
 */
public final class SnapshotRetention {

    private SnapshotRetention() {}

    /**
     * @param ofPool every snapshot of one pool
     * @param inUse  the rendered configs the pool targets or still reports (spec and status)
     * @return the keys to delete, oldest first
     */
    public static List<String> dropped(Collection<ConfigSnapshot> ofPool, int kept, Set<String> inUse) {
        List<ConfigSnapshot> newestFirst = ofPool.stream()
                .sorted(Comparator.comparing(ConfigSnapshot::takenAt)
                        .thenComparing(ConfigSnapshot::renderedConfig)
                        .reversed())
                .toList();
        return newestFirst.stream()
                .skip(kept)
                .filter(s -> !inUse.contains(s.renderedConfig()))
                .sorted(Comparator.comparing(ConfigSnapshot::takenAt))
                .map(ConfigSnapshot::key)
                .toList();
    }
}
