package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MachineConfigNodes as {@code GenerateAndApplyMachineConfigNodes} ({@code pkg/upgrademonitor})
 * writes them, image-mode annotations as the MCC ({@code SetDesiredStateFromPool}) and the MCD
 * ({@code SetDone}) write them for a pool without image mode, and the MCD's event source.
 */
class MachineConfigNodeIT {

    private static final Duration LONG = Duration.ofSeconds(60);

    /** The minimal MachineConfigNode openshift/api's CRD tests accept (fixture copied from openshift/api). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> minimalApiMcn() throws IOException {
        try (InputStream in =
                MachineConfigNodeIT.class.getResourceAsStream("/fixtures/mcn-v1-tests-AAA_ungated.yaml")) {
            Map<String, Object> suite = new KubernetesSerialization()
                    .unmarshal(new String(in.readAllBytes(), StandardCharsets.UTF_8), Map.class);
            Map<String, Object> first =
                    ((List<Map<String, Object>>) ((Map<String, Object>) suite.get("tests")).get("onCreate")).get(0);
            return new KubernetesSerialization().unmarshal((String) first.get("expected"), Map.class);
        }
    }

    @Test
    void anUpdateLeavesTheMachineConfigNodeAsTheMcoDoes() throws IOException {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(1)).start()) {
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));
            await().atMost(LONG).until(() -> !sim.events("worker-0", "NodeDone").isEmpty());
            String target = sim.poolTarget("worker");

            GenericKubernetesResource mcn =
                    Mco.machineConfigNodes(sim.client).withName("worker-0").get();
            // the same spec fields as the API's minimal valid object, with spec.node.name = name
            Map<String, Object> apiSpec = (Map<String, Object>) minimalApiMcn().get("spec");
            Map<String, Object> spec =
                    (Map<String, Object>) mcn.getAdditionalProperties().get("spec");
            assertThat(spec.keySet()).containsExactlyInAnyOrderElementsOf(apiSpec.keySet());
            assertThat(spec.get("node")).isEqualTo(Map.of("name", "worker-0"));
            assertThat(spec.get("configVersion")).isEqualTo(Map.of("desired", target));

            await().atMost(LONG).untilAsserted(() -> {
                assertThat(sim.mcnStatus("worker-0").get("configVersion"))
                        .isEqualTo(Map.of("current", target, "desired", target));
                assertThat(sim.mcnCondition("worker-0", "Updated"))
                        .containsEntry("status", "True")
                        .containsEntry("message", "Node worker-0 Updated");
                // every phase of the update turned back to False, its message kept with the target
                assertThat(sim.mcnCondition("worker-0", "RebootedNode"))
                        .containsEntry("status", "False")
                        .containsEntry("reason", "RebootedNode")
                        .containsEntry("message", "Action during update to " + target + ": Node has rebooted");
                assertThat(sim.mcnCondition("worker-0", "Drained"))
                        .containsEntry("status", "False")
                        .containsEntry("reason", "UpdateExecutedDrained");
                assertThat(sim.mcnCondition("worker-0", "Uncordoned"))
                        .containsEntry("reason", "UpdateCompleteUncordoned");
            });
            assertThat(((List<?>) sim.mcnStatus("worker-0").get("conditions")))
                    .hasSize(MachineConfigNodeStatus.TYPES.size());
            assertThat(sim.events("worker-0", "NodeDone").get(0).getSource().getComponent())
                    .isEqualTo("machineconfigdaemon");
        }
    }

    @Test
    void aNodeLeavingImageModeIsUpdatedAndLosesItsImageAnnotations() {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(1)).start()) {
            String image = "quay.io/example/os@sha256:0123";
            sim.client.nodes().withName("worker-0").edit(n -> {
                n.getMetadata().getAnnotations().put(Mco.CURRENT_IMAGE, image);
                n.getMetadata().getAnnotations().put(Mco.DESIRED_IMAGE, image);
                return n;
            });

            // the pool has no image mode: the MCC takes desiredImage away (SetDesiredStateFromPool),
            // the MCD reboots out of the image and SetDone removes currentImage
            await().atMost(LONG).untilAsserted(() -> {
                Map<String, String> annotations =
                        sim.node("worker-0").getMetadata().getAnnotations();
                assertThat(annotations).doesNotContainKeys(Mco.CURRENT_IMAGE, Mco.DESIRED_IMAGE);
                assertThat(annotations).containsEntry(Mco.STATE, "Done");
            });
            assertThat(sim.events("worker-0", "Reboot")).hasSize(1);
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.poolStatus("worker")).containsEntry("updatedMachineCount", 1));
        }
    }
}
