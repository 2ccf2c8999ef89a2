package io.mcdhooks.bridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.mcdhooks.bridge.gate.GateObjects;
import io.strimzi.api.kafka.model.kafka.Kafka;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The NetworkPolicies select the pods they mean (their labels are the workloads'), and say what
 * docs/operations.md says: metrics only from Prometheus, hooks only to Kafka, Kafka only from the
 * bridge and the hooks, gate pods isolated.
 */
class NetworkPoliciesTest {

    @Test
    void theHttpEndpointsTakeConnectionsOnlyFromMonitoringOnTheirPort() {
        for (String name : List.of("mcdhooks-bridge-metrics-only", "mcdhooks-hook-runners-metrics-only")) {
            NetworkPolicy policy = Manifests.one(NetworkPolicy.class, name);
            assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
            assertThat(policy.getSpec().getIngress()).singleElement().satisfies(rule -> {
                assertThat(rule.getPorts())
                        .extracting(p -> p.getPort().getIntVal())
                        .containsExactly(8080);
                assertThat(rule.getFrom())
                        .allSatisfy(peer -> assertThat(peer.getPodSelector()).isNull())
                        .extracting(p -> p.getNamespaceSelector().getMatchLabels())
                        .containsExactly(
                                Map.of("network.openshift.io/policy-group", "monitoring"),
                                Map.of("kubernetes.io/metadata.name", "monitoring"));
            });
            assertThat(selected(policy))
                    .as(name + " selects pods of a shipped workload")
                    .isNotEmpty();
        }
    }

    @Test
    void everyHookPodReachesOnlyKafkaAndDnsAndKmodCheckItsRegistries() {
        NetworkPolicy hooks = Manifests.one(NetworkPolicy.class, "mcdhooks-hooks-only-to-kafka");
        assertThat(hooks.getMetadata().getNamespace()).isEqualTo(Manifests.HOOKS_NAMESPACE);
        assertThat(hooks.getSpec().getPodSelector().getMatchLabels()).isNullOrEmpty();
        assertThat(hooks.getSpec().getPolicyTypes()).containsExactly("Egress");
        var kafka = hooks.getSpec().getEgress().get(0);
        assertThat(kafka.getTo()).singleElement().satisfies(peer -> {
            assertThat(peer.getNamespaceSelector().getMatchLabels())
                    .containsExactly(Map.entry("kubernetes.io/metadata.name", Manifests.KAFKA_NAMESPACE));
            assertThat(peer.getPodSelector().getMatchLabels())
                    .containsExactly(Map.entry("strimzi.io/cluster", "mcdhooks"));
        });
        assertThat(kafka.getPorts()).extracting(p -> p.getPort().getIntVal()).containsExactly(9093);
        assertThat(hooks.getSpec().getEgress().get(1).getPorts())
                .extracting(NetworkPolicyPort::getPort)
                .allSatisfy(p -> assertThat(p.getIntVal()).isIn(53, 5353));
        assertThat(hooks.getSpec().getEgress()).hasSize(2);

        NetworkPolicy registries = Manifests.one(NetworkPolicy.class, "mcdhooks-hook-kmod-check-registries");
        assertThat(selected(registries))
                .extracting(t -> t.getMetadata().getLabels().get("mcdhooks.io/hook"))
                .containsExactly("kmod-check");
        assertThat(registries.getSpec().getEgress())
                .singleElement()
                .satisfies(rule -> assertThat(rule.getPorts())
                        .extracting(p -> p.getPort().getIntVal())
                        .containsExactly(443));
    }

    @Test
    void gatePodsAreIsolated() {
        NetworkPolicy gates = Manifests.one(NetworkPolicy.class, "mcdhooks-gate-pods-isolated");
        assertThat(gates.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
        assertThat(gates.getSpec().getIngress()).isNullOrEmpty();
        assertThat(gates.getSpec().getEgress()).isNullOrEmpty();
        assertThat(GateObjects.pod("worker-0", Manifests.BRIDGE_NAMESPACE, "pause")
                        .getMetadata()
                        .getLabels())
                .containsAllEntriesOf(gates.getSpec().getPodSelector().getMatchLabels());
    }

    @Test
    void kafkasListenerAdmitsTheBridgeAndTheHookRunnersOnly() {
        Kafka kafka = Manifests.ofType(Kafka.class).get(0);
        List<NetworkPolicyPeer> peers =
                kafka.getSpec().getKafka().getListeners().get(0).getNetworkPolicyPeers();
        assertThat(peers).hasSize(4);
        Map<String, String> bridgePod = Manifests.one(Deployment.class, WorkloadsTest.BRIDGE)
                .getSpec()
                .getTemplate()
                .getMetadata()
                .getLabels();
        assertThat(bridgePod).containsAllEntriesOf(peers.get(0).getPodSelector().getMatchLabels());
        assertThat(hookTemplates())
                .allSatisfy(t -> assertThat(t.getMetadata().getLabels())
                        .containsAllEntriesOf(peers.get(2).getPodSelector().getMatchLabels()));
        assertThat(peers.get(2).getNamespaceSelector().getMatchLabels())
                .containsExactly(Map.entry("kubernetes.io/metadata.name", Manifests.HOOKS_NAMESPACE));
    }

    /** Pod templates of the shipped workloads in the policy's namespace that its selector picks. */
    private static List<PodTemplateSpec> selected(NetworkPolicy policy) {
        LabelSelector selector = policy.getSpec().getPodSelector();
        return Stream.concat(
                        Manifests.ofType(Deployment.class).stream()
                                .filter(d -> d.getMetadata()
                                        .getNamespace()
                                        .equals(policy.getMetadata().getNamespace()))
                                .map(d -> d.getSpec().getTemplate()),
                        Manifests.ofType(DaemonSet.class).stream()
                                .filter(d -> d.getMetadata()
                                        .getNamespace()
                                        .equals(policy.getMetadata().getNamespace()))
                                .map(d -> d.getSpec().getTemplate()))
                .filter(t -> t.getMetadata()
                        .getLabels()
                        .entrySet()
                        .containsAll(selector.getMatchLabels().entrySet()))
                .toList();
    }

    private static List<PodTemplateSpec> hookTemplates() {
        return Stream.concat(
                        Manifests.ofType(Deployment.class).stream()
                                .filter(d -> d.getMetadata().getNamespace().equals(Manifests.HOOKS_NAMESPACE))
                                .map(d -> d.getSpec().getTemplate()),
                        Manifests.ofType(DaemonSet.class).stream()
                                .map(d -> d.getSpec().getTemplate()))
                .toList();
    }
}
