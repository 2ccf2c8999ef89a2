package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InMemoryClusterIT {

    @Test
    void aClientBuiltFromTheKubeconfigSeesTheSameObjects(@TempDir Path dir) throws Exception {
        try (var cluster = InMemoryCluster.start()) {
            Topology.builder()
                    .masters(1)
                    .workers(2)
                    .customPool("infra", 1)
                    .build()
                    .apply(cluster.client());

            Path kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig"));
            try (var other = new KubernetesClientBuilder()
                    .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig)))
                    .build()) {
                assertThat(other.nodes().list().getItems())
                        .extracting(n -> n.getMetadata().getName())
                        .containsExactlyInAnyOrder("master-0", "worker-0", "worker-1", "infra-0");
                assertThat(Mco.pools(other).list().getItems())
                        .extracting(p -> p.getMetadata().getName())
                        .containsExactlyInAnyOrder("master", "worker", "infra");
                assertThat(Mco.machineConfigs(other).list().getItems())
                        .extracting(mc -> mc.getMetadata().getName())
                        .anyMatch(n -> n.matches("rendered-infra-[0-9a-f]{32}"));
            }
        }
    }

    @Test
    void theStatusSubresourceOfMachineConfigNodesIsSeparateFromTheirSpec() {
        try (var cluster = InMemoryCluster.start()) {
            var mcns = Mco.machineConfigNodes(cluster.client());
            mcns.resource(MachineConfigs.of("n1", "worker", Map.of()).toBuilder()
                            .withKind("MachineConfigNode")
                            .addToAdditionalProperties("status", Map.of("x", 1))
                            .build())
                    .create();

            assertThat(mcns.withName("n1").get().getAdditionalProperties()).doesNotContainKey("status");
            mcns.withName("n1")
                    .subresource("status")
                    .patch(
                            Mco.jsonPatch(),
                            Mco.set("/status", Map.of("conditions", List.of(Map.of("type", "Updated")))));
            assertThat(mcns.withName("n1")
                            .get()
                            .getAdditionalProperties()
                            .get("status")
                            .toString())
                    .contains("Updated");
        }
    }
}
