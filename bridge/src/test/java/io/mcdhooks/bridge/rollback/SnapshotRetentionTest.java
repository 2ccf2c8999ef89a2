package io.mcdhooks.bridge.rollback;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SnapshotRetentionTest {

    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");

    @Test
    void thePoolsNewestAreKeptAndTheRestDroppedOldestFirst() {
        var snapshots = List.of(at("r-3", 3), at("r-1", 1), at("r-4", 4), at("r-2", 2));

        assertThat(SnapshotRetention.dropped(snapshots, 2, Set.of())).containsExactly("c1/worker/r-1", "c1/worker/r-2");
        assertThat(SnapshotRetention.dropped(snapshots, 4, Set.of())).isEmpty();
    }

    @Test
    void theConfigThePoolsNodesAreOnIsKeptHoweverOld() {
        var snapshots = List.of(at("r-1", 1), at("r-2", 2), at("r-3", 3), at("r-4", 4));

        // status.configuration still r-1: a rollback of the rollout to r-4 goes back there
        assertThat(SnapshotRetention.dropped(snapshots, 1, Set.of("r-1", "r-4")))
                .containsExactly("c1/worker/r-2", "c1/worker/r-3");
    }

    private static ConfigSnapshot at(String rendered, int minutes) {
        return new ConfigSnapshot("c1", "worker", rendered, T0.plusSeconds(60L * minutes), List.of());
    }
}
