package io.mcdhooks.bridge.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

/** A gate pod holds the drain only once Running and Ready: Kubernetes' canIgnorePDB evicts the others. */
class GatePodHealthTest {

    @Test
    void aRunningReadyPodHolds() {
        assertThat(GatePodHealth.whyNotHolding(pod("Running", "True", null))).isNull();
    }

    @Test
    void aPendingPodWhoseImageCannotBePulledIsStuckAndSaysWhy() {
        String why = GatePodHealth.whyNotHolding(pod("Pending", "False", "ImagePullBackOff"));

        assertThat(why)
                .isEqualTo("Pending, not Ready: ImagePullBackOff (Back-off pulling image \"registry.example/pause\")");
        assertThat(GatePodHealth.stuck(why)).isTrue();
    }

    @Test
    void aPodJustCreatedDoesNotHoldYetButIsNotStuck() {
        String fresh = GatePodHealth.whyNotHolding(new PodBuilder()
                .withNewMetadata()
                .withName("mcdhooks-gate-worker-0")
                .endMetadata()
                .build());
        String starting = GatePodHealth.whyNotHolding(pod("Pending", "False", "ContainerCreating"));

        assertThat(fresh).isEqualTo("not started");
        assertThat(starting).startsWith("Pending");
        assertThat(GatePodHealth.stuck(fresh)).isFalse();
        assertThat(GatePodHealth.stuck(starting)).isFalse();
        assertThat(GatePodHealth.stuck(null)).isFalse();
    }

    @Test
    void aRunningPodThatIsNotReadyOrIsBeingDeletedDoesNotHold() {
        assertThat(GatePodHealth.whyNotHolding(pod("Running", "False", null))).isEqualTo("Running, not Ready");
        Pod deleting = pod("Running", "True", null);
        deleting.getMetadata().setDeletionTimestamp("2026-12-01T10:00:00Z");
        assertThat(GatePodHealth.whyNotHolding(deleting)).isEqualTo("being deleted");
    }

    private static Pod pod(String phase, String ready, String waiting) {
        var status = new PodBuilder()
                .withNewMetadata()
                .withName("mcdhooks-gate-worker-0")
                .endMetadata()
                .withNewStatus()
                .withPhase(phase)
                .addNewCondition()
                .withType("Ready")
                .withStatus(ready)
                .endCondition();
        if (waiting != null) {
            status = status.addNewContainerStatus()
                    .withName("gate")
                    .withNewState()
                    .withNewWaiting()
                    .withReason(waiting)
                    .withMessage(
                            "ContainerCreating".equals(waiting)
                                    ? null
                                    : "Back-off pulling image \"registry.example/pause\"")
                    .endWaiting()
                    .endState()
                    .endContainerStatus();
        }
        return status.endStatus().build();
    }
}
