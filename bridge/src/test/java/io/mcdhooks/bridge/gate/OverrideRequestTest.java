package io.mcdhooks.bridge.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.mcdhooks.bridge.gate.OverrideRequest.Action;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.Decision;
import io.mcdhooks.schemas.Stage;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which overrides a gate takes: only one naming an open gate of this cluster, and each only once. */
class OverrideRequestTest {

    private final List<GateDecision> decided = new ArrayList<>();
    private final Gatekeeper gatekeeper = new Gatekeeper("c1", Clock.fixed(Gates.T0, ZoneOffset.UTC), decided::add);

    @Test
    void everyMissingFieldIsNamedAndTheActionIsOneOfFour() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> OverrideRequest.of("g", null, " ", null))
                .withMessage("the override needs action, requestedBy, reason");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> OverrideRequest.of("g", "release", "alice", "why"))
                .withMessage("action must be Release, Block, StopRollback or ResumeRollback, not 'release'");
        assertThat(OverrideRequest.of("g", "Block", "alice", "why"))
                .isEqualTo(new OverrideRequest("g", Action.BLOCK, "alice", "why"));
        assertThat(OverrideRequest.of("g", "StopRollback", "alice", "why").action())
                .isEqualTo(Action.STOP_ROLLBACK);
        assertThat(OverrideRequest.of("g", "ResumeRollback", "alice", "why").describe())
                .isEqualTo("resume of the rollback of g by alice");
    }

    @Test
    void aGateTakesNoStopOrResumeOfARollback() {
        String gate = openPoolGate();
        assertThatIllegalArgumentException()
                .isThrownBy(() -> gatekeeper.onOverride(new OverrideRequest(gate, Action.STOP_ROLLBACK, "alice", "x")));
        assertThat(gatekeeper.gate(gate).released()).isFalse();
    }

    @Test
    void anOverrideOfAnOpenGateDecidesItAndNamesWhoAsked() {
        String gate = openPoolGate();

        OverrideRequest.Outcome outcome =
                gatekeeper.onOverride(new OverrideRequest(gate, Action.RELEASE, "alice", "by hand"));

        assertThat(outcome).isEqualTo(OverrideRequest.Outcome.APPLIED);
        GateDecision last = decided.get(decided.size() - 1);
        assertThat(last.decision()).isEqualTo(Decision.OVERRIDDEN);
        assertThat(last.released()).isTrue();
        assertThat(last.override().by()).isEqualTo("alice");
        assertThat(last.override().reason()).isEqualTo("by hand");
    }

    @Test
    void anOverrideNamingNoGateOfThisClusterChangesNothing() {
        String gate = openPoolGate();
        int before = decided.size();

        assertThat(gatekeeper.onOverride(new OverrideRequest("c2" + gate.substring(2), Action.RELEASE, "alice", "x")))
                .isEqualTo(OverrideRequest.Outcome.UNKNOWN_GATE);
        assertThat(gatekeeper.onOverride(new OverrideRequest(gate + "-other", Action.RELEASE, "alice", "x")))
                .isEqualTo(OverrideRequest.Outcome.UNKNOWN_GATE);
        assertThat(decided).hasSize(before);
        assertThat(gatekeeper.gate(gate).released()).isFalse();
    }

    @Test
    void aReleasedGateTakesNoFurtherOverrideButTheSameOneSeenAgainStands() {
        String gate = openPoolGate();
        gatekeeper.onOverride(new OverrideRequest(gate, Action.RELEASE, "alice", "by hand"));
        int before = decided.size();

        assertThat(gatekeeper.onOverride(new OverrideRequest(gate, Action.RELEASE, "alice", "by hand")))
                .isEqualTo(OverrideRequest.Outcome.UNCHANGED);
        assertThat(gatekeeper.onOverride(new OverrideRequest(gate, Action.BLOCK, "mallory", "block it again")))
                .isEqualTo(OverrideRequest.Outcome.NOT_OPEN);
        assertThat(decided).hasSize(before);
        assertThat(gatekeeper.gate(gate).released()).isTrue();
    }

    private String openPoolGate() {
        gatekeeper.putHook(Gates.hook("kmod-check", Stage.POOL_PRE_UPDATE));
        var request = Gates.request(Stage.POOL_PRE_UPDATE, 1);
        gatekeeper.onGateRequest(request);
        return request.gateId();
    }
}
