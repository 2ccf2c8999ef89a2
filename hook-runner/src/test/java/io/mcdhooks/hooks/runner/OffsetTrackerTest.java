package io.mcdhooks.hooks.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class OffsetTrackerTest {

    private final TopicPartition p0 = new TopicPartition("requests", 0);
    private final TopicPartition p1 = new TopicPartition("requests", 1);
    private final OffsetTracker<TopicPartition> tracker = new OffsetTracker<>();

    @Test
    void aLaterRecordDoneFirstIsNotCommittedPastAnEarlierOneStillOpen() {
        // Given three records of one partition
        tracker.track(p0, 10);
        tracker.track(p0, 11);
        tracker.track(p0, 12);

        // When the last one is done first, nothing may be committed
        assertThat(tracker.complete(p0, 12)).isEmpty();
        // Then the first one done commits just past itself
        assertThat(tracker.complete(p0, 10)).isEqualTo(OptionalLong.of(11));
        // And the middle one done commits past the last
        assertThat(tracker.complete(p0, 11)).isEqualTo(OptionalLong.of(13));
    }

    @Test
    void partitionsAreIndependent() {
        tracker.track(p0, 5);
        tracker.track(p1, 7);

        assertThat(tracker.complete(p1, 7)).isEqualTo(OptionalLong.of(8));
        assertThat(tracker.complete(p0, 5)).isEqualTo(OptionalLong.of(6));
    }

    @Test
    void aForgottenPartitionCommitsNothing() {
        tracker.track(p0, 3);
        tracker.forget(p0);

        assertThat(tracker.complete(p0, 3)).isEmpty();
    }

    @Test
    void completingTheSameRecordTwiceCommitsOnce() {
        tracker.track(p0, 1);

        assertThat(tracker.complete(p0, 1)).isEqualTo(OptionalLong.of(2));
        assertThat(tracker.complete(p0, 1)).isEmpty();
    }
}
