package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.http.MockResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
        return gate(node, "registry.k8s.io/pause:3.9");
    }

    /** As {@link #gate(String)} with the gate pod's image. */
    Pod gate(String node, String image) {
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
                        .withImage(image)
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }

    /** Another actor cordons {@code node} (a JSON Patch, as {@code kubectl cordon}). */
    void cordon(String node) {
        client.nodes().withName(node).edit(n -> {
            n.getSpec().setUnschedulable(true);
            return n;
        });
    }

    /**
     * From now on the API server refuses (422) every update of {@code node} that would leave it
     * schedulable, as an admission policy guarding a cordon would; {@code null} lifts it.
     */
    void denyUncordon(String node) {
        cluster.interceptRequests(
                node == null
                        ? null
                        : (request, proceed) -> {
                            boolean update = "PUT".equals(request.getMethod()) || "PATCH".equals(request.getMethod());
                            // getBytes() leaves the body to the server (getUtf8Body() consumes it)
                            String body = update && request.getBody() != null
                                    ? new String(request.getBody().getBytes(), StandardCharsets.UTF_8)
                                    : "";
                            if (update
                                    && request.getPath().equals("/api/v1/nodes/" + node)
                                    && body.contains("\"spec\"")
                                    && !body.contains("\"unschedulable\":true")) {
                                return new MockResponse()
                                        .setResponseCode(422)
                                        .setHeader("Content-Type", "application/json")
                                        .setBody(
                                                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":"
                                                        + "\"Invalid\",\"code\":422,\"message\":\"nodes \\\"" + node
                                                        + "\\\" is forbidden: "
                                                        + "ValidatingAdmissionPolicy 'hold-cordon' denied request: held\"}");
                            }
                            return proceed.get();
                        });
    }

    /** A condition of the {@code machine-config} ClusterOperator, or an empty map. */
    @SuppressWarnings("unchecked")
    Map<String, Object> clusterOperatorCondition(String type) {
        GenericKubernetesResource co = Mco.clusterOperator(client).get();
        if (co == null || !(co.getAdditionalProperties().get("status") instanceof Map<?, ?> status)) {
            return Map.of();
        }
        for (Object c : (List<Object>) status.get("conditions")) {
            if (type.equals(((Map<String, Object>) c).get("type"))) {
                return (Map<String, Object>) c;
            }
        }
        return Map.of();
    }

    /** The MachineConfigNode's status of {@code node}. */
    @SuppressWarnings("unchecked")
    Map<String, Object> mcnStatus(String node) {
        return (Map<String, Object>) Mco.machineConfigNodes(client)
                .withName(node)
                .get()
                .getAdditionalProperties()
                .getOrDefault("status", Map.of());
    }

    /** One condition of the MachineConfigNode of {@code node}. */
    @SuppressWarnings("unchecked")
    Map<String, Object> mcnCondition(String node, String type) {
        return ((List<Map<String, Object>>) mcnStatus(node).get("conditions"))
                .stream().filter(c -> type.equals(c.get("type"))).findFirst().orElseThrow();
    }

    /** Another actor adds {@code taint} to {@code node}. */
    void addTaint(String node, Taint taint) {
        client.nodes().withName(node).edit(n -> {
            var taints = new ArrayList<Taint>(
                    n.getSpec().getTaints() == null ? List.of() : n.getSpec().getTaints());
            taints.add(taint);
            n.getSpec().setTaints(taints);
            return n;
        });
    }

    /** Keys of the taints of {@code node}. */
    List<String> taintKeys(String node) {
        var taints = node(node).getSpec().getTaints();
        return taints == null ? List.of() : taints.stream().map(Taint::getKey).toList();
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
