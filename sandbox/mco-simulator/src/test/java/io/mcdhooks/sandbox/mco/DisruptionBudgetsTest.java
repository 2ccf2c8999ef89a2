package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class DisruptionBudgetsTest {

    private static Pod pod(String name, String app) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("ns")
                .addToLabels("app", app)
                .endMetadata()
                .build();
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
    void aGatePodUnderABudgetThatAllowsNoDisruptionCannotBeEvicted() {
        Pod gate = pod("gate", "gate");

        assertThat(DisruptionBudgets.evictionBlocked(gate, List.of(maxUnavailable("gate", 0)), List.of(gate)))
                .contains(DisruptionBudgets.VIOLATION);
        assertThat(DisruptionBudgets.evictionBlocked(gate, List.of(minAvailable("gate", 1)), List.of(gate)))
                .contains(DisruptionBudgets.VIOLATION);
    }

    @Test
    void replicasAboveMinAvailableMayGo() {
        var pods = List.of(pod("a", "web"), pod("b", "web"), pod("c", "web"));

        assertThat(DisruptionBudgets.evictionBlocked(pods.get(0), List.of(minAvailable("web", 2)), pods))
                .isEmpty();
        assertThat(DisruptionBudgets.evictionBlocked(pods.get(0), List.of(minAvailable("web", 2)), pods.subList(0, 2)))
                .isPresent();
        assertThat(DisruptionBudgets.evictionBlocked(pods.get(0), List.of(minAvailable("web", "50%")), pods))
                .isEmpty();
    }

    @Test
    void unselectedPodsAreFreeAndTwoBudgetsAreAnError() {
        Pod other = pod("x", "other");
        Pod gate = pod("gate", "gate");

        assertThat(DisruptionBudgets.evictionBlocked(other, List.of(maxUnavailable("gate", 0)), List.of(other, gate)))
                .isEmpty();
        assertThat(DisruptionBudgets.evictionBlocked(
                        gate, List.of(maxUnavailable("gate", 1), minAvailable("gate", 0)), List.of(gate)))
                .contains(DisruptionBudgets.MULTIPLE);
    }
}
