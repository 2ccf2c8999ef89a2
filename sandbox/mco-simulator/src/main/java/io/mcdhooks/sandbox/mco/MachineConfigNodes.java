package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps one MachineConfigNode (v1) per node. The simulator is the only writer of their status
 * (MCD and drain controller conditions, see {@link MachineConfigNodeStatus}), so each status is
 * kept here and written whole by a JSON Patch to the status subresource. Callers serialise per node.
 */
final class MachineConfigNodes {

    private final KubernetesClient client;
    private final SimClock clock;
    private final NodeCache nodes;
    private final boolean enabled;
    private final Map<String, MachineConfigNodeStatus> statuses;
    private final Map<String, String> specDesired;

    MachineConfigNodes(KubernetesClient client, SimClock clock, NodeCache nodes, boolean enabled) {
        this(client, clock, nodes, enabled, new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
    }

    private MachineConfigNodes(
            KubernetesClient client,
            SimClock clock,
            NodeCache nodes,
            boolean enabled,
            Map<String, MachineConfigNodeStatus> statuses,
            Map<String, String> specDesired) {
        this.client = client;
        this.clock = clock;
        this.nodes = nodes;
        this.enabled = enabled;
        this.statuses = statuses;
        this.specDesired = specDesired;
    }

    /** The same MachineConfigNodes (one status per node) written through {@code client}. */
    MachineConfigNodes as(KubernetesClient client) {
        return new MachineConfigNodes(client, clock, nodes, enabled, statuses, specDesired);
    }

    /**
     * Creates the node's MachineConfigNode if this simulator has not done so yet, with the status
     * the MCD leaves on a node at rest ({@code Updated=True}, everything else False).
     */
    void ensure(String node, String pool, String currentConfig) {
        if (!enabled || statuses.containsKey(node)) {
            return;
        }
        var mcn = new GenericKubernetesResourceBuilder()
                .withApiVersion(Mco.API_VERSION)
                .withKind("MachineConfigNode")
                .withNewMetadata()
                .withName(node)
                .endMetadata()
                .addToAdditionalProperties(
                        "spec",
                        Map.of(
                                "node", Map.of("name", node),
                                "pool", Map.of("name", pool),
                                "configVersion", Map.of("desired", currentConfig)))
                .build();
        if (Mco.machineConfigNodes(client).withName(node).get() == null) {
            Mco.machineConfigNodes(client).resource(mcn).create();
        }
        specDesired.put(node, currentConfig);
        var status = new MachineConfigNodeStatus();
        status.apply(
                new MachineConfigNodeStatus.Condition("Updated", "True", "Updated", "Node " + node + " Updated"),
                null,
                currentConfig,
                currentConfig,
                currentConfig,
                clock.now());
        statuses.put(node, status);
        writeStatus(node, status);
    }

    /** MCC: the node's new target ({@code UpdateMachineConfigNodeSpecDesiredAnnotations}). */
    void desired(String node, String config) {
        if (!enabled || !statuses.containsKey(node)) {
            return;
        }
        specDesired.put(node, config);
        Mco.machineConfigNodes(client)
                .withName(node)
                .patch(Mco.jsonPatch(), Mco.set("/spec/configVersion", Map.of("desired", config)));
    }

    /** One parent condition. */
    void set(String node, String type, String status, String reason, String message) {
        apply(node, new MachineConfigNodeStatus.Condition(type, status, reason, message), null);
    }

    /** A parent and a child condition, e.g. UpdateExecuted with Drained. */
    void set(
            String node,
            String parentType,
            String parentStatus,
            String parentReason,
            String parentMessage,
            String childType,
            String childStatus,
            String childMessage) {
        apply(
                node,
                new MachineConfigNodeStatus.Condition(parentType, parentStatus, parentReason, parentMessage),
                new MachineConfigNodeStatus.Condition(childType, childStatus, parentType + childType, childMessage));
    }

    private void apply(String node, MachineConfigNodeStatus.Condition parent, MachineConfigNodeStatus.Condition child) {
        if (!enabled) {
            return;
        }
        MachineConfigNodeStatus status = statuses.get(node);
        if (status == null) {
            return;
        }
        Node n = nodes.get(node);
        String desired = MachineConfigDaemon.annotation(n, Mco.DESIRED_CONFIG);
        String current = MachineConfigDaemon.annotation(n, Mco.CURRENT_CONFIG);
        if (status.apply(parent, child, desired, current, specDesired.getOrDefault(node, desired), clock.now())) {
            writeStatus(node, status);
        }
    }

    private void writeStatus(String node, MachineConfigNodeStatus status) {
        Mco.machineConfigNodes(client)
                .withName(node)
                .subresource("status")
                .patch(Mco.jsonPatch(), Mco.set("/status", status.toStatus()));
    }
}
