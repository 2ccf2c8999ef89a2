package io.mcdhooks.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.mcdhooks.bridge.rollback.ConfigSnapshot;
import io.mcdhooks.bridge.rollback.SourceConfig;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.mco.MachineConfigs;
import io.mcdhooks.sandbox.mco.Mco;
import io.mcdhooks.sandbox.mco.SimulatorConfig;
import io.mcdhooks.sandbox.mco.Topology;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a pool rollback needs and does, on the simulated MCO (open question 2 of docs/open-questions.md). */
class PoolRollbackIT extends GatekeeperOnSimulator {

    private static final ObjectMapper JSON = new ObjectMapper();

    PoolRollbackIT(KafkaBroker broker) {
        super(broker, "rollback");
    }

    @Test
    void theGatekeeperSnapshotsTheMachineConfigsOfEveryConfigItsPoolsTarget() throws Exception {
        // Given a running gatekeeper and an administrator's kernel argument rolled out
        start(Topology.builder().masters(1).workers(2), SimulatorConfig.defaults(), Map.of());
        deployBridge();
        String first = rollOut("worker", MachineConfigs.kernelArguments("99-worker-kargs", "worker", List.of("nosmt")));
        await().atMost(LONG)
                .until(() -> bridge.snapshots().snapshot("worker", first).isPresent());
        GenericKubernetesResource asItWas =
                Mco.machineConfigs(client).withName("99-worker-kargs").get();
        List<String> firstSources = sources("worker");

        // When the administrator changes that MachineConfig
        String second = rollOut(
                "worker",
                MachineConfigs.kernelArguments("99-worker-kargs", "worker", List.of("nosmt", "mitigations=off")));

        // Then the second config has its snapshot, and the first's keeps the MachineConfig's spec
        // and labels as they were, byte for byte
        await().atMost(LONG)
                .until(() -> bridge.snapshots().snapshot("worker", second).isPresent());
        ConfigSnapshot before = bridge.snapshots().snapshot("worker", first).orElseThrow();
        SourceConfig kept = before.source("99-worker-kargs").orElseThrow();
        assertThat(JSON.writeValueAsString(kept.spec()))
                .isEqualTo(JSON.writeValueAsString(
                        asItWas.getAdditionalProperties().get("spec")));
        assertThat(kept.labels()).isEqualTo(asItWas.getMetadata().getLabels());
        assertThat(kept.administrators()).isTrue();
        // and every source of the first config, the MCO's own as digests
        assertThat(before.sources()).extracting(SourceConfig::name).containsExactlyInAnyOrderElementsOf(firstSources);
        assertThat(before.sources())
                .filteredOn(s -> !s.administrators())
                .isNotEmpty()
                .allSatisfy(s -> assertThat(s.spec()).isEmpty());
    }

    /** The MachineConfigs the pool's target was made of ({@code spec.configuration.source}). */
    @SuppressWarnings("unchecked")
    private List<String> sources(String pool) {
        var spec = (Map<String, Object>)
                Mco.pools(client).withName(pool).get().getAdditionalProperties().get("spec");
        var source = (List<Map<String, Object>>) ((Map<String, Object>) spec.get("configuration")).get("source");
        return source.stream().map(s -> (String) s.get("name")).toList();
    }
}
