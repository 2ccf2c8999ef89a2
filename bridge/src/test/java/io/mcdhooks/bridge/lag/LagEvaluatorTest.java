package io.mcdhooks.bridge.lag;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LagEvaluatorTest {

    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void aCaughtUpHookIsOk() {
        assertThat(state(sample(0, 10, 10, true), sample(60, 12, 12, true))).isEqualTo(LagState.OK);
    }

    @Test
    void aHookWhoseOffsetMovesButFallsBehindIsWarning() {
        LagStatus status = LagEvaluator.evaluate(
                "h", List.of(sample(0, 10, 12, true), sample(30, 11, 15, true), sample(60, 12, 19, true)));

        assertThat(status.state()).isEqualTo(LagState.WARNING);
        assertThat(status.lag()).isEqualTo(7);
    }

    @Test
    void aHookWithConsumersThatCommitNothingWhileRequestsWaitIsStalledSinceTheWindowBegan() {
        LagStatus status = LagEvaluator.evaluate(
                "kmod-check", List.of(sample(0, 10, 12, true), sample(120, 10, 18, true), sample(240, 10, 22, true)));

        assertThat(status.state()).isEqualTo(LagState.STALLED);
        assertThat(status.describe(T0.plusSeconds(240))).isEqualTo("STALLED, lag 12 for 4 m");
    }

    @Test
    void aHookWithoutConsumersIsStoppedEvenFromOneSample() {
        LagStatus status = LagEvaluator.evaluate("h", List.of(sample(0, 3, 5, false)));

        assertThat(status.state()).isEqualTo(LagState.STOPPED);
        assertThat(LagEvaluator.evaluate("h", List.of(sample(0, -1, 4, false))).lag())
                .isEqualTo(4);
    }

    @Test
    void aRecoveringHookWhoseLagShrinksIsOk() {
        assertThat(state(sample(0, 10, 20, true), sample(30, 15, 21, true), sample(60, 20, 22, true)))
                .isEqualTo(LagState.OK);
    }

    @Test
    void unreadableOffsetsAreAnError() {
        LagStatus status = LagEvaluator.evaluate(
                "h", List.of(sample(0, 1, 1, true), LagSample.failed(T0.plusSeconds(10), "timed out")));

        assertThat(status.state()).isEqualTo(LagState.ERROR);
        assertThat(status.detail()).isEqualTo("timed out");
    }

    @Test
    void statesOrderFromBestToWorst() {
        assertThat(LagState.OK.worse(LagState.STALLED)).isEqualTo(LagState.STALLED);
        assertThat(LagState.ERROR.worse(LagState.WARNING)).isEqualTo(LagState.ERROR);
    }

    private static LagState state(LagSample... samples) {
        return LagEvaluator.evaluate("h", new ArrayList<>(List.of(samples))).state();
    }

    private static LagSample sample(int second, long committed, long logEnd, boolean members) {
        return new LagSample(T0.plusSeconds(second), committed, logEnd, members, null);
    }
}
