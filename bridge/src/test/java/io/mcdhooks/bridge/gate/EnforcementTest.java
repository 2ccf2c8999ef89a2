package io.mcdhooks.bridge.gate;

import static io.mcdhooks.bridge.gate.Gates.T0;
import static io.mcdhooks.bridge.gate.Gates.hook;
import static io.mcdhooks.bridge.gate.Gates.verdict;
import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which gates a lever holds on a stock cluster, and how a decision says so when none does. */
class EnforcementTest {

    private static final GateRequest.Disruption NONE =
            new GateRequest.Disruption("none", false, false, List.of(new GateRequest.Action("None", null)));
    private static final GateRequest.Disruption REBOOT =
            new GateRequest.Disruption("reboot", true, true, List.of(new GateRequest.Action("Reboot", null)));

    @Test
    void theMastersGatesBeforeAnUpdateAreAdvisoryUnlessTheChangeDrainsAndOtherPoolsHoldThemAll() {
        assertThat(Enforcement.advisory(Stage.POOL_PRE_UPDATE, "master", REBOOT))
                .contains("ClusterOperator");
        assertThat(Enforcement.advisory(Stage.PRE_UPDATE, "master", NONE)).startsWith("this change does not drain");
        assertThat(Enforcement.advisory(Stage.PRE_UPDATE, "master", null)).contains("(unknown)");
        assertThat(Enforcement.advisory(Stage.PRE_UPDATE, "master", REBOOT)).isNull();
        assertThat(Enforcement.advisory(Stage.POST_UPDATE, "master", NONE)).isNull();
        for (Stage stage : Stage.values()) {
            assertThat(Enforcement.advisory(stage, "worker", NONE)).isNull();
            assertThat(Enforcement.advisory(stage, "infra", null)).isNull();
        }
        assertThat(Enforcement.lever(Stage.PRE_UPDATE, "worker", NONE))
                .isEqualTo("the pool stays paused until it passes");
        assertThat(Enforcement.lever(Stage.PRE_UPDATE, "worker", REBOOT))
                .isEqualTo("gate pod: the drain cannot finish");
    }

    @Test
    void anAdvisoryGateIsDecidedAsAnyOtherAndItsBlockSaysItHoldsNothing() {
        // Given a failing pool-pre-update hook on the masters
        GateRequest request = master(Stage.POOL_PRE_UPDATE);
        Gate gate = GateMachine.open(request, List.of(hook("kmod-check", Stage.POOL_PRE_UPDATE)), T0)
                .gate();

        GateDecision blocked = GateMachine.onVerdict(
                        gate, verdict(request, "kmod-check", Outcome.FAIL, T0.plusSeconds(1)), T0.plusSeconds(1))
                .decision();

        // Then it is blocked, published as advisory with why, and every line about it says so
        assertThat(blocked.decision()).isEqualTo(GateDecision.Decision.BLOCKED);
        assertThat(blocked.advisory()).isEqualTo(Enforcement.MASTER_PAUSE);
        assertThat(blocked.summary()).endsWith("(advisory, holds nothing: " + Enforcement.MASTER_PAUSE + ")");
        assertThat(WhyHeld.of(blocked)).isEqualTo(blocked.summary());
    }

    @Test
    void aHoldOnTheMasterPoolSaysWhatItDoesToClusterUpgrades() {
        GateRequest request = master(Stage.PRE_UPDATE).withDisruption(REBOOT);
        GateDecision opened = GateMachine.open(request, List.of(hook("node-precheck", Stage.PRE_UPDATE)), T0)
                .decision();

        assertThat(opened.advisory()).isNull();
        assertThat(opened.summary()).endsWith("(" + Enforcement.MASTER_HOLD + ")");
    }

    private static GateRequest master(Stage stage) {
        return new GateRequest(
                "c1",
                GateId.of("c1", stage, stage.perNode() ? "master-0" : "master", Gates.TARGET),
                1,
                stage,
                new GateRequest.PoolFacts("master", "1", 3),
                stage.perNode() ? new GateRequest.NodeFacts("master-0", null, Map.of()) : null,
                "rendered-master-1111",
                Gates.TARGET,
                new GateRequest.TargetFacts("quay.io/os@sha256:01", "default", null, null, null),
                T0,
                T0.plus(Duration.ofMinutes(30)));
    }
}
