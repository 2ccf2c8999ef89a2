package io.mcdhooks.bridge.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The timeline's memory: a phase once per change, never before the last, and bounded per row and in rows. */
class RolloutHistoryTest {

    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    private final RolloutHistory history = new RolloutHistory();

    @Test
    void aPhaseBeginsOnlyWhenItChangesAndNeverBeforeThePreviousOne() {
        assertThat(history.nodePhase("w0", "worker", "WAITING", "Waiting", T0)).isTrue();
        assertThat(history.nodePhase("w0", "worker", "WAITING", "Waiting", T0.plusSeconds(5)))
                .isFalse();
        history.nodePhase("w0", "worker", "DRAINING", "Draining", T0.plusSeconds(10));
        history.nodePhase("w0", "worker", "APPLYING", "Applying", T0.plusSeconds(20));
        // A gate's time that predates what was seen since is moved up to it.
        history.nodePhase("w0", "worker", "REBOOTING", "Rebooting", T0.plusSeconds(15));

        assertThat(history.node("w0").spans())
                .extracting(RolloutHistory.Span::phase, RolloutHistory.Span::from)
                .containsExactly(
                        tuple("WAITING", T0),
                        tuple("DRAINING", T0.plusSeconds(10)),
                        tuple("REBOOTING", T0.plusSeconds(20)));
    }

    @Test
    void aRowKeepsItsLatestPhasesAndVerdictsOnly() {
        for (int i = 0; i < RolloutHistory.SPANS + 10; i++) {
            history.nodePhase("w0", "worker", i % 2 == 0 ? "DRAINING" : "APPLYING", "x", T0.plusSeconds(i));
            history.nodeMark("w0", mark("g" + i, T0.plusSeconds(i)));
        }

        assertThat(history.node("w0").spans()).hasSize(RolloutHistory.SPANS);
        assertThat(history.node("w0").spans().get(0).from()).isEqualTo(T0.plusSeconds(10));
        assertThat(history.node("w0").marks()).hasSize(RolloutHistory.MARKS);
        assertThat(history.node("w0").marks().get(0).gate()).isEqualTo("g10");
    }

    @Test
    void aVerdictSeenTwiceIsKeptOnceAndALateOneInItsPlace() {
        history.nodePhase("w0", "worker", "DRAINING", "Draining", T0);
        history.nodeMark("w0", mark("g", T0.plusSeconds(5)));
        history.nodeMark("w0", mark("g", T0.plusSeconds(5)));
        history.nodeMark("w0", mark("g", T0.plusSeconds(2)));

        assertThat(history.node("w0").marks())
                .extracting(RolloutHistory.Mark::at)
                .containsExactly(T0.plusSeconds(2), T0.plusSeconds(5));
    }

    @Test
    void rowsAreCappedAndNodesGoneAreForgotten() {
        for (int i = 0; i < RolloutHistory.ROWS + 3; i++) {
            history.nodePhase("n" + i, "worker", "WAITING", "Waiting", T0);
        }
        assertThat(history.nodes()).hasSize(RolloutHistory.ROWS);
        assertThat(history.dropped()).isEqualTo(3);

        history.retain(Set.of("n1", "n2"), Set.of());

        assertThat(history.nodes()).extracting(RolloutHistory.Row::name).containsExactlyInAnyOrder("n1", "n2");
    }

    private static RolloutHistory.Mark mark(String gate, Instant at) {
        return new RolloutHistory.Mark(gate, "pre-update", "kmod-check", "PASS", "ModulesReady", at);
    }
}
