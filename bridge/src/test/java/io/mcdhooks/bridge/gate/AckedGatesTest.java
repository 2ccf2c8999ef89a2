package io.mcdhooks.bridge.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.bridge.GateFixture;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class AckedGatesTest {

    @Test
    void anAcknowledgementHeardLateNeverTakesBackAReleaseOfTheSameAttempt() {
        // Given a gate whose two hooks answer in turn, each answer a decision a moment after the last
        GateFixture fixture = new GateFixture()
                .hook("a", FailurePolicy.Fail, Stage.PRE_UPDATE)
                .hook("b", FailurePolicy.Fail, Stage.PRE_UPDATE);
        GateRequest request = fixture.open(Stage.PRE_UPDATE, "worker", "worker-0");
        GateDecision opened = fixture.last(request.gateId());
        GateDecision waitingOnB = fixture.pass(Duration.ofMillis(1))
                .answer(request, "a", Outcome.PASS, "Fine")
                .last(request.gateId());
        GateDecision released = fixture.pass(Duration.ofMillis(1))
                .answer(request, "b", Outcome.PASS, "Fine")
                .last(request.gateId());
        assertThat(released.released()).isTrue();
        AckedGates acked = new AckedGates(fixture.gatekeeper());

        // When Kafka's acknowledgements are heard out of order: the release before the last opening
        acked.acknowledged(opened);
        acked.acknowledged(released);
        acked.acknowledged(waitingOnB);

        // Then the gate stays released for the levers
        assertThat(acked.gate(request.gateId()).released()).isTrue();
    }
}
