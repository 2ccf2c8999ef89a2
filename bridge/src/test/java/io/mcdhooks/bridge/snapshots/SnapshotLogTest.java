package io.mcdhooks.bridge.snapshots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class SnapshotLogTest {

    private static final String TOPIC = "mcdhooks.config-snapshots";

    @Test
    void aMetadataAskThatTimesOutIsAskedAgainRatherThanFailingTheRead() {
        var partition = new PartitionInfo(TOPIC, 0, null, null, null);
        var consumer = new SlowMetadata(2);
        consumer.updatePartitions(TOPIC, List.of(partition));

        assertThat(SnapshotLog.partitions(consumer, TOPIC, Duration.ofMinutes(1)))
                .containsExactly(partition);
        assertThat(consumer.asks).isEqualTo(3);
    }

    @Test
    void aTopicThatNeverAppearsIsNamedInTheError() {
        var consumer = new SlowMetadata(Integer.MAX_VALUE);

        assertThatThrownBy(() -> SnapshotLog.partitions(consumer, TOPIC, Duration.ofMillis(300)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no topic " + TOPIC)
                .hasMessageContaining("MCDHOOKS_CONFIG_SNAPSHOTS_TOPIC");
    }

    /** A consumer whose first metadata asks go unanswered, as a busy broker's may. */
    private static final class SlowMetadata extends MockConsumer<String, byte[]> {
        private final int unanswered;
        private int asks;

        SlowMetadata(int unanswered) {
            super(OffsetResetStrategy.EARLIEST);
            this.unanswered = unanswered;
        }

        @Override
        public synchronized List<PartitionInfo> partitionsFor(String topic, Duration timeout) {
            if (asks++ < unanswered) {
                throw new TimeoutException("Timeout expired while fetching topic metadata");
            }
            return super.partitionsFor(topic, timeout);
        }
    }
}
