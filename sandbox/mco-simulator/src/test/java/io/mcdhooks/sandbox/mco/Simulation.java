package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Test helper: one in-memory cluster, a topology, a simulator, and ways to look at them. */
final class Simulation implements AutoCloseable {

    static final String GATES = "gates";

    final InMemoryCluster cluster = InMemoryCluster.start();
    final KubernetesClient client = cluster.client();
    NodeRecorder recorder;
    McoSimulator mco;

    private final Topology topology;

    Simulation(Topology.Builder builder) {
        this.topology = builder.build();
        topology.apply(client);
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(GATES)
                        .endMetadata()
                        .build())
                .create();
    }

    Simulation start(SimulatorConfig config) {
        recorder = new NodeRecorder(client);
        mco = McoSimulator.start(client, config);
        return this;
    }

    Simulation start() {
        return start(SimulatorConfig.defaults());
    }

    List<String> nodeNames(String pool) {
        return topology.nodeNames(pool);
    }

    @SuppressWarnings("unchecked")
    String poolTarget(String pool) {
        GenericKubernetesResource p = Mco.pools(client).withName(pool).get();
        var spec = (Map<String, Object>) p.getAdditionalProperties().get("spec");
        return (String) ((Map<String, Object>) spec.get("configuration")).get("name");
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> poolStatus(String pool) {
        GenericKubernetesResource p = Mco.pools(client).withName(pool).get();
        return (Map<String, Object>) p.getAdditionalProperties().getOrDefault("status", Map.of());
    }

    void setPaused(String pool, boolean paused) {
        Mco.pools(client).withName(pool).patch(Mco.jsonPatch(), Mco.set("/spec/paused", paused));
    }

    Node node(String name) {
        return client.nodes().withName(name).get();
    }

    String annotation(String node, String key) {
        return MachineConfigDaemon.annotation(node(node), key);
    }

    boolean unschedulable(String node) {
        return Boolean.TRUE.equals(node(node).getSpec().getUnschedulable());
    }

    String ready(String node) {
        return node(node).getStatus().getConditions().stream()
                .filter(c -> c.getType().equals("Ready"))
                .map(NodeCondition::getStatus)
                .findFirst()
                .orElse("");
    }

    /** Events about {@code involved} with {@code reason}, oldest first. */
    List<Event> events(String involved, String reason) {
        return client.v1().events().inNamespace(Mco.NAMESPACE).list().getItems().stream()
                .filter(e -> e.getInvolvedObject().getName().equals(involved))
                .filter(e -> e.getReason().equals(reason))
                .sorted(Comparator.comparing(Event::getLastTimestamp))
                .toList();
    }

    /** Reasons of the events about {@code involved}, in the order they were created. */
    List<String> eventReasons(String involved) {
        return client.v1().events().inNamespace(Mco.NAMESPACE).list().getItems().stream()
                .filter(e -> e.getInvolvedObject().getName().equals(involved))
                .sorted(Comparator.comparing(
                                (Event e) -> e.getMetadata().getName().length())
                        .thenComparing(e -> e.getMetadata().getName()))
                .map(Event::getReason)
                .toList();
    }

    /** A gatekeeper's hold: a pod on {@code node} under a budget that allows no disruption. */
    Pod gate(String node) {
        String name = "gate-" + node;
        client.policy()
                .v1()
                .podDisruptionBudget()
                .inNamespace(GATES)
                .resource(new PodDisruptionBudgetBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(GATES)
                        .endMetadata()
                        .withNewSpec()
                        .withMaxUnavailable(new IntOrString(0))
                        .withNewSelector()
                        .addToMatchLabels("gate", node)
                        .endSelector()
                        .endSpec()
                        .build())
                .create();
        return client.pods()
                .inNamespace(GATES)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(GATES)
                        .addToLabels("gate", node)
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node)
                        .addNewContainer()
                        .withName("pause")
                        .withImage("registry.k8s.io/pause:3.9")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }

    void ungate(String node) {
        client.pods().inNamespace(GATES).withName("gate-" + node).delete();
    }

    @Override
    public void close() {
        if (mco != null) {
            mco.close();
        }
        if (recorder != null) {
            recorder.close();
        }
        cluster.close();
    }
}
