package io.mcdhooks.bridge.lag;

import java.time.Instant;

/**
 * One look at a consumer group on the gate-requests topic, summed over the partitions it reads.
 *
 * @param committed      the group's committed offsets; {@code -1} when it has committed nothing
 * @param logEnd         the log-end offsets of the same partitions
 * @param membersActive  whether the group has members (a consumer is there)
 * @param error          why the offsets could not be read, or {@code null}
 */
public record LagSample(Instant at, long committed, long logEnd, boolean membersActive, String error) {

    public static LagSample failed(Instant at, String error) {
        return new LagSample(at, -1, -1, false, error);
    }

    public long lag() {
        return Math.max(0, logEnd - Math.max(0, committed));
    }
}
