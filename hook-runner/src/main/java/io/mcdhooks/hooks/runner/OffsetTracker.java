package io.mcdhooks.hooks.runner;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * Which offset may be committed while records of one partition finish out of order. A record's
 * offset + 1 is committed only once it and every earlier record of its partition are done, so a
 * crash never skips a gate that was still being checked. Partitions are told apart by {@code P},
 * whatever the consumer names them by, so the rule stays free of the Kafka client.
 */
final class OffsetTracker<P> {

    private final Map<P, PartitionState> partitions = new HashMap<>();

    void track(P partition, long offset) {
        // Where reading started counts as committed already: committing it again would say nothing.
        PartitionState state = partitions.computeIfAbsent(partition, p -> new PartitionState(offset));
        state.pending.add(offset);
        state.highest = Math.max(state.highest, offset);
    }

    /** Marks a record done; returns the next offset to commit if it moved forward. */
    OptionalLong complete(P partition, long offset) {
        PartitionState state = partitions.get(partition);
        if (state == null || !state.pending.remove(offset)) {
            return OptionalLong.empty();
        }
        long committable = state.pending.isEmpty() ? state.highest + 1 : state.pending.first();
        if (committable <= state.committed) {
            return OptionalLong.empty();
        }
        state.committed = committable;
        return OptionalLong.of(committable);
    }

    /** Forgets a partition this runner no longer owns. */
    void forget(P partition) {
        partitions.remove(partition);
    }

    private static final class PartitionState {
        private final TreeSet<Long> pending = new TreeSet<>();
        private long highest;
        private long committed;

        private PartitionState(long firstOffset) {
            this.highest = firstOffset;
            this.committed = firstOffset;
        }
    }
}
