package io.mcdhooks.bridge.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AckedGatesTest {

    @Test
    void anAcknowledgementHeardLateNeverTakesBackAReleaseOfTheSameAttempt() {
        // Given a gate whose hooks answer in turn, each answer a decision a moment after the last
        List<GateDecision> decisions = new ArrayList<>();
        Gatekeeper gatekeeper = new Gatekeeper("c1", new Ticking(Gates.T0), decisions::add);
        gatekeeper.putHook(Gates.hook("a", Stage.PRE_UPDATE));
        gatekeeper.putHook(Gates.hook("b", Stage.PRE_UPDATE));
        GateRequest request = Gates.request(Stage.PRE_UPDATE, 1);
        gatekeeper.onGateRequest(request);
        gatekeeper.onVerdict(Gates.verdict(request, "a", Outcome.PASS, Gates.T0.plusSeconds(1)));
        gatekeeper.onVerdict(Gates.verdict(request, "b", Outcome.PASS, Gates.T0.plusSeconds(2)));
        assertThat(decisions).extracting(GateDecision::released).containsExactly(false, false, true);
        AckedGates acked = new AckedGates(gatekeeper);

        // When Kafka's acknowledgements are heard out of order: the release before the last opening
        acked.acknowledged(decisions.get(0));
        acked.acknowledged(decisions.get(2));
        acked.acknowledged(decisions.get(1));

        // Then the gate stays released for the levers
        assertThat(acked.gate(request.gateId()).released()).isTrue();
    }

    /** A clock a millisecond further on at every reading. */
    private static final class Ticking extends Clock {
        private Instant now;

        Ticking(Instant start) {
            this.now = start;
        }

        @Override
        public Instant instant() {
            now = now.plusMillis(1);
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
