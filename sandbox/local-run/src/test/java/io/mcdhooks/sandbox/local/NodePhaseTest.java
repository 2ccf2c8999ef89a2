package io.mcdhooks.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.ui.NodePhase;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.Decision;
import io.mcdhooks.schemas.Stage;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The phases the views show, from a node's MCD annotations and its gates. */
class NodePhaseTest {

    private static final String OLD = "rendered-worker-old";
    private static final String NEW = "rendered-worker-new";

    @Test
    void aNodeNotYetAssignedTheTargetIsWaitingAndOneAlreadyOnItIsUpToDate() {
        assertThat(NodePhase.of(node(OLD, OLD, "Done"), NEW, null, null)).isEqualTo(NodePhase.WAITING);
        assertThat(NodePhase.of(node(NEW, NEW, "Done"), NEW, null, null)).isEqualTo(NodePhase.UP_TO_DATE);
    }

    @Test
    void aDrainThatABlockedPreUpdateGateHoldsIsHeldAndOneWithoutAGateIsDraining() {
        Map<String, String> draining = node(OLD, NEW, "Working");
        draining.put(McoApi.DESIRED_DRAIN, "drain-" + NEW);
        assertThat(NodePhase.of(draining, NEW, gate(Stage.PRE_UPDATE, Decision.BLOCKED, false), null))
                .isEqualTo(NodePhase.HELD_PRE_UPDATE);
        assertThat(NodePhase.of(draining, NEW, gate(Stage.PRE_UPDATE, Decision.OPENED, false), null))
                .isEqualTo(NodePhase.PRE_UPDATE_CHECK);
        assertThat(NodePhase.of(draining, NEW, gate(Stage.PRE_UPDATE, Decision.RELEASED, true), null))
                .isEqualTo(NodePhase.DRAINING);
    }

    @Test
    void rebootingThenHeldByAFailedPostUpdateGateThenDone() {
        Map<String, String> rebooting = node(OLD, NEW, "Working");
        rebooting.put(McoApi.DESIRED_DRAIN, "drain-" + NEW);
        rebooting.put(McoApi.LAST_APPLIED_DRAIN, "drain-" + NEW);
        rebooting.put(McoApi.POST_CONFIG_ACTION, "Rebooting");
        assertThat(NodePhase.of(rebooting, NEW, null, null)).isEqualTo(NodePhase.REBOOTING);

        Map<String, String> done = node(NEW, NEW, "Done");
        GateDecision blocked = gate(Stage.POST_UPDATE, Decision.BLOCKED, false);
        assertThat(NodePhase.of(done, NEW, null, blocked)).isEqualTo(NodePhase.HELD_POST_UPDATE);
        assertThat(NodePhase.of(done, NEW, null, blocked).held()).isTrue();
        assertThat(NodePhase.of(done, NEW, null, gate(Stage.POST_UPDATE, Decision.RELEASED, true)))
                .isEqualTo(NodePhase.DONE);
    }

    @Test
    void aDegradedNodeIsDegradedWhateverItsGatesButAFailedPostUpdateGateThatHoldsIt() {
        assertThat(NodePhase.of(node(OLD, NEW, "Degraded"), NEW, gate(Stage.PRE_UPDATE, Decision.OPENED, false), null))
                .isEqualTo(NodePhase.DEGRADED);
        // Held past the uncordon handshake's 10 minutes, the MCD reports the node Degraded: the hold shows
        assertThat(NodePhase.of(
                        node(NEW, NEW, "Degraded"), NEW, null, gate(Stage.POST_UPDATE, Decision.BLOCKED, false)))
                .isEqualTo(NodePhase.HELD_POST_UPDATE);
        assertThat(NodePhase.of(node(NEW, NEW, "Degraded"), NEW, null, gate(Stage.POST_UPDATE, Decision.OPENED, false)))
                .isEqualTo(NodePhase.DEGRADED);
    }

    private static Map<String, String> node(String current, String desired, String state) {
        Map<String, String> annotations = new HashMap<>();
        annotations.put(McoApi.CURRENT_CONFIG, current);
        annotations.put(McoApi.DESIRED_CONFIG, desired);
        annotations.put(McoApi.STATE, state);
        return annotations;
    }

    private static GateDecision gate(Stage stage, Decision decision, boolean released) {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        return new GateDecision(
                "local",
                "local/" + stage.wire() + "/worker-0/" + NEW,
                1,
                stage,
                "worker",
                "worker-0",
                NEW,
                decision,
                released,
                List.of(),
                released ? List.of() : List.of("some-hook"),
                "summary",
                null,
                now,
                now);
    }
}
