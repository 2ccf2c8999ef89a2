package io.mcdhooks.bridge.rollback;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.schemas.GateDecision.RollbackAction;
import io.mcdhooks.schemas.GateDecision.RollbackState;
import io.mcdhooks.schemas.GateDecision.RollbackStep;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RollbackDecisionTest {

    private static final SourceConfig KARGS = SourceConfig.of(
            "99-worker-kargs",
            Map.of("machineconfiguration.openshift.io/role", "worker"),
            List.of(),
            Map.of("kernelArguments", List.of("nosmt")));
    private static final RollbackPlan STEPS = new RollbackPlan.Steps(
            "rendered-worker-2",
            "rendered-worker-1",
            List.of(new RollbackPlan.Step(RollbackPlan.Action.RESTORE, KARGS.name(), KARGS)));

    @Test
    void aRollbackCarriedOutIsPlannedWithItsStepsThenApplied() {
        var planned =
                RollbackDecision.of(STEPS, "rendered-worker-2", "rendered-worker-1", RollbackDecision.Mode.CARRY_OUT);

        assertThat(planned.state()).isEqualTo(RollbackState.PLANNED);
        assertThat(planned.steps()).containsExactly(new RollbackStep(RollbackAction.RESTORE, "99-worker-kargs"));
        assertThat(planned.message()).contains("rendered-worker-1", "restore 99-worker-kargs");
        var applied = RollbackDecision.applied(planned);
        assertThat(applied.state()).isEqualTo(RollbackState.APPLIED);
        assertThat(applied.steps()).isEqualTo(planned.steps());
    }

    @Test
    void anAdvisoryOrNotEnabledRollbackOnlySaysWhatItWouldDo() {
        assertThat(RollbackDecision.of(STEPS, "r-2", "r-1", RollbackDecision.Mode.ADVISORY))
                .extracting("state", "reason")
                .containsExactly(RollbackState.ADVISORY, "Advisory");
        var notEnabled = RollbackDecision.of(STEPS, "r-2", "r-1", RollbackDecision.Mode.NOT_ENABLED);
        assertThat(notEnabled).extracting("state", "reason").containsExactly(RollbackState.ADVISORY, "NotEnabled");
        assertThat(notEnabled.message()).contains("MCDHOOKS_ROLLBACK", "held paused");
    }

    @Test
    void aRefusedPlanIsRefusedWithItsReasonWhateverTheMode() {
        var refused = new RollbackPlan.Refused(RollbackPlan.Reason.NotAnAdministratorChange, "00-worker changed");
        for (RollbackDecision.Mode mode : RollbackDecision.Mode.values()) {
            assertThat(RollbackDecision.of(refused, "r-2", "r-1", mode))
                    .extracting("state", "reason", "steps")
                    .containsExactly(RollbackState.REFUSED, "NotAnAdministratorChange", List.of());
        }
    }
}
