package io.mcdhooks.bridge.gate;

import static io.mcdhooks.bridge.gate.Gates.T0;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Verdicts waiting for their key: bounded, in order, refused once they have waited long enough. */
class AwaitingKeysTest {

    private final AwaitingKeys waiting = new AwaitingKeys();

    @Test
    void aVerdictWaitsUntilDrainedOrUntilItsTimeIsUp() {
        VerdictRecord first = record(1);
        VerdictRecord second = record(2);
        waiting.park(first, T0);
        waiting.park(second, T0.plusSeconds(90));

        assertThat(waiting.expired(T0.plus(AwaitingKeys.WAIT))).isEmpty();
        assertThat(waiting.expired(T0.plus(AwaitingKeys.WAIT).plusSeconds(1))).containsExactly(first);
        assertThat(waiting.drain()).extracting(AwaitingKeys.Parked::record).containsExactly(second);
        assertThat(waiting.size()).isZero();
    }

    @Test
    void aFloodDoesNotGrowItPastItsCapacity() {
        for (int i = 0; i < AwaitingKeys.CAPACITY; i++) {
            assertThat(waiting.park(record(i), T0)).isTrue();
        }
        assertThat(waiting.park(record(-1), T0)).isFalse();
    }

    private static VerdictRecord record(long offset) {
        return new VerdictRecord("verdicts", 0, offset, null, List.of(), new byte[0]);
    }
}
