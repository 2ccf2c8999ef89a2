package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Eviction API's budget check ({@code pkg/registry/core/pod/storage/eviction.go}). */
class DisruptionBudgetsTest {

    private static Pod pod(String name, String app, String phase, String ready) {
        var b = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("ns")
                .addToLabels("app", app)
                .endMetadata();
        if (phase != null) {
            b.withNewStatus()
                    .withPhase(phase)
                    .addNewCondition()
                    .withType("Ready")
                    .withStatus(ready)
                    .endCondition()
                    .endStatus();
        }
        return b.build();
    }

    private static Pod running(String name, String app) {
        return pod(name, app, "Running", "True");
    }

    private static PodDisruptionBudget minAvailable(String app, Object value) {
        return new PodDisruptionBudgetBuilder()
                .withNewMetadata()
                .withName(app)
                .withNamespace("ns")
                .endMetadata()
                .withNewSpec()
                .withMinAvailable(value instanceof Integer i ? new IntOrString(i) : new IntOrString((String) value))
                .withNewSelector()
                .addToMatchLabels("app", app)
                .endSelector()
                .endSpec()
                .build();
    }

    private static PodDisruptionBudget maxUnavailable(String app, int value) {
        return new PodDisruptionBudgetBuilder()
                .withNewMetadata()
                .withName(app + "-max")
                .withNamespace("ns")
                .endMetadata()
                .withNewSpec()
                .withMaxUnavailable(new IntOrString(value))
                .withNewSelector()
                .addToMatchLabels("app", app)
                .endSelector()
                .endSpec()
                .build();
    }

    @Test
    void aRunningGatePodUnderABudgetThatAllowsNoDisruptionCannotBeEvicted() {
        Pod gate = running("gate", "gate");

        assertThat(DisruptionBudgets.evictionBlocked(gate, List.of(maxUnavailable("gate", 0)), List.of(gate)))
                .contains(DisruptionBudgets.VIOLATION);
        assertThat(DisruptionBudgets.evictionBlocked(gate, List.of(minAvailable("gate", 1)), List.of(gate)))
                .contains(DisruptionBudgets.VIOLATION);
    }

    @Test
    void aPendingFinishedOrTerminatingPodIsEvictedWithoutLookingAtItsBudget() {
        // canIgnorePDB
        var budget = List.of(maxUnavailable("gate", 0));
        Pod pending = pod("gate", "gate", "Pending", "False");
        Pod neverScheduled = pod("gate", "gate", null, null);
        Pod succeeded = pod("gate", "gate", "Succeeded", "False");
        Pod terminating = new PodBuilder(running("gate", "gate"))
                .editMetadata()
                .withDeletionTimestamp("2026-01-01T00:00:00Z")
                .endMetadata()
                .build();

        for (Pod p : List.of(pending, neverScheduled, succeeded, terminating)) {
            assertThat(DisruptionBudgets.evictionBlocked(p, budget, List.of(p)))
                    .as(p.toString())
                    .isEmpty();
        }
    }

    @Test
    void aRunningPodThatIsNotReadyMayGoWhileTheBudgetIsMet() {
        // IfHealthyBudget: an unhealthy running pod is evicted when currentHealthy >= desiredHealthy
        Pod notReady = pod("a", "web", "Running", "False");
        Pod other = running("b", "web");

        assertThat(DisruptionBudgets.evictionBlocked(
                        notReady, List.of(minAvailable("web", 1)), List.of(notReady, other)))
                .isEmpty();
        assertThat(DisruptionBudgets.evictionBlocked(
                        notReady, List.of(minAvailable("web", 2)), List.of(notReady, other)))
                .contains(DisruptionBudgets.VIOLATION);
    }

    @Test
    void replicasAboveMinAvailableMayGoAndPendingReplicasDoNotCountAsHealthy() {
        var pods = List.of(running("a", "web"), running("b", "web"), running("c", "web"));

        assertThat(DisruptionBudgets.evictionBlocked(pods.get(0), List.of(minAvailable("web", 2)), pods))
                .isEmpty();
        assertThat(DisruptionBudgets.evictionBlocked(pods.get(0), List.of(minAvailable("web", 2)), pods.subList(0, 2)))
                .isPresent();
        assertThat(DisruptionBudgets.evictionBlocked(pods.get(0), List.of(minAvailable("web", "50%")), pods))
                .isEmpty();
        var withPending = List.of(running("a", "web"), running("b", "web"), pod("c", "web", "Pending", "False"));
        assertThat(DisruptionBudgets.evictionBlocked(withPending.get(0), List.of(minAvailable("web", 2)), withPending))
                .contains(DisruptionBudgets.VIOLATION);
    }

    @Test
    void unselectedPodsAreFreeAndTwoBudgetsAreAnError() {
        Pod other = running("x", "other");
        Pod gate = running("gate", "gate");

        assertThat(DisruptionBudgets.evictionBlocked(other, List.of(maxUnavailable("gate", 0)), List.of(other, gate)))
                .isEmpty();
        assertThat(DisruptionBudgets.evictionBlocked(
                        gate, List.of(maxUnavailable("gate", 1), minAvailable("gate", 0)), List.of(gate)))
                .contains(DisruptionBudgets.MULTIPLE);
    }
}
