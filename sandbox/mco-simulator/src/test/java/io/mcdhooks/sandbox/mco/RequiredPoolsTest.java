package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One pass of {@code syncRequiredMachineConfigPools} and {@code syncUpgradeableStatus}. */
class RequiredPoolsTest {

    private static GenericKubernetesResource pool(
            String name, boolean required, boolean paused, String updated, String degraded) {
        var b = new GenericKubernetesResourceBuilder()
                .withApiVersion(Mco.API_VERSION)
                .withKind("MachineConfigPool")
                .withNewMetadata()
                .withName(name)
                .withLabels(required ? Map.of(Mco.REQUIRED_FOR_UPGRADE, "") : Map.of())
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("paused", paused))
                .addToAdditionalProperties(
                        "status",
                        Map.of(
                                "observedGeneration", 1,
                                "machineCount", 3,
                                "conditions",
                                        List.of(
                                                Map.of("type", "Updated", "status", updated),
                                                Map.of("type", "Degraded", "status", degraded, "message", ""))));
        return b.build();
    }

    @Test
    void everythingUpdatedPasses() {
        var result = RequiredPools.evaluate(
                List.of(pool("master", true, false, "True", "False"), pool("worker", false, false, "False", "False")));

        assertThat(result.failure()).isNull();
        assertThat(result.pending()).isNull();
        assertThat(result.upgradeable()).isTrue();
        assertThat(result.requiredMachines()).isEqualTo(3);
    }

    @Test
    void aPausedRequiredPoolThatIsNotUpdatedFailsAtOnceAndAPausedUpdatedOneDoesNot() {
        assertThat(RequiredPools.evaluate(List.of(pool("master", true, true, "False", "False")))
                        .failure())
                .isEqualTo("required MachineConfigPool master is paused and cannot sync until it is unpaused");
        assertThat(RequiredPools.evaluate(List.of(pool("master", true, true, "True", "False")))
                        .failure())
                .isNull();
    }

    @Test
    void aRequiredPoolNotUpdatedOrAnyDegradedPoolKeepsThePollGoing() {
        var updating = RequiredPools.evaluate(List.of(pool("master", true, false, "False", "False")));
        var degradedWorker = RequiredPools.evaluate(
                List.of(pool("master", true, false, "True", "False"), pool("worker", false, false, "False", "True")));

        assertThat(updating.failure()).isNull();
        assertThat(updating.pending()).startsWith("required MachineConfigPool master is not ready");
        assertThat(degradedWorker.pending()).startsWith("MachineConfigPool worker is not ready");
        assertThat(degradedWorker.upgradeable()).isFalse();
    }

    @Test
    void aPausedWorkerPoolIsNoneOfTheOperatorsBusiness() {
        var result = RequiredPools.evaluate(
                List.of(pool("master", true, false, "True", "False"), pool("worker", false, true, "False", "False")));

        assertThat(result.failure()).isNull();
        assertThat(result.pending()).isNull();
    }
}
