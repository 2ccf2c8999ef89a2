package io.mcdhooks.bridge.gate;

import static io.mcdhooks.bridge.gate.Gates.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import org.junit.jupiter.api.Test;

/** A flood of refused verdicts makes one Event per hook and reason per interval, with a count. */
class RefusalEventsTest {

    private final RefusalEvents events = new RefusalEvents();
    private final Verdict forged = Gates.verdict(Gates.request(Stage.POOL_PRE_UPDATE, 1), "kmod", Outcome.PASS, T0);

    @Test
    void theFirstRefusalIsRecordedAtOnceAndTheRestOfTheIntervalInOneEventCountingThem() {
        assertThat(events.refused(forged, "SIGNATURE_UNSIGNED", T0))
                .isEqualTo(new RefusalEvents.Due(forged, "SIGNATURE_UNSIGNED", 1));
        for (int i = 1; i <= 500; i++) {
            assertThat(events.refused(forged, "SIGNATURE_UNSIGNED", T0.plusMillis(i)))
                    .isNull();
        }
        // another reason is its own Event
        assertThat(events.refused(forged, "SIGNATURE_BAD_SIGNATURE", T0)).isNotNull();

        assertThat(events.due(T0.plusSeconds(30))).isEmpty();
        assertThat(events.due(T0.plus(RefusalEvents.INTERVAL)))
                .containsExactly(new RefusalEvents.Due(forged, "SIGNATURE_UNSIGNED", 500));
        // a quiet interval after that: nothing more, and the pair is forgotten
        assertThat(events.due(T0.plus(RefusalEvents.INTERVAL.multipliedBy(2)))).isEmpty();
        assertThat(events.refused(forged, "SIGNATURE_UNSIGNED", T0.plus(RefusalEvents.INTERVAL.multipliedBy(3))))
                .extracting(RefusalEvents.Due::count)
                .isEqualTo(1);
    }
}
