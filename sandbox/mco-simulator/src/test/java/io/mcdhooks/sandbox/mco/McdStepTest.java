package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class McdStepTest {

    @Test
    void theDocumentedOrderWithDrainAndReboot() {
        assertThat(McdStep.expectedChanges("rendered-worker-1", true, true))
                .containsExactly(
                        Mco.DESIRED_CONFIG + "=rendered-worker-1",
                        Mco.STATE + "=Working",
                        Mco.DESIRED_DRAIN + "=drain-rendered-worker-1",
                        Mco.LAST_APPLIED_DRAIN + "=drain-rendered-worker-1",
                        Mco.POST_CONFIG_ACTION + "=Rebooting",
                        Mco.POST_CONFIG_ACTION + "=",
                        Mco.DESIRED_DRAIN + "=uncordon-rendered-worker-1",
                        Mco.LAST_APPLIED_DRAIN + "=uncordon-rendered-worker-1",
                        Mco.STATE + "=Done");
    }

    @Test
    void doneAlsoSetsCurrentConfigAndClearsReason() {
        assertThat(McdStep.DONE.annotations("c"))
                .containsEntry(Mco.CURRENT_CONFIG, "c")
                .containsEntry(Mco.REASON, "")
                .containsEntry(Mco.STATE, "Done");
    }

    @Test
    void aRebootlessUpdateWithoutDrainStillDoesTheUncordonHandshake() {
        // completeUpdate (pkg/daemon/daemon.go) asks for the uncordon after every update
        assertThat(McdStep.sequence(false, false))
                .containsExactly(
                        McdStep.ASSIGNED,
                        McdStep.WORKING,
                        McdStep.UNCORDON_REQUESTED,
                        McdStep.UNCORDONED,
                        McdStep.DONE);
    }
}
