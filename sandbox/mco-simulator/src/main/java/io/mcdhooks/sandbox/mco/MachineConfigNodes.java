package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Keeps one MachineConfigNode (v1) per node. The simulator is the only writer of their status
 * (MCD and drain controller conditions), so each status is built here and written whole by a
 * JSON Patch to the status subresource. Callers serialise per node.
 */
final class MachineConfigNodes {

    private final KubernetesClient client;
    private final SimClock clock;
    private final boolean enabled;
    private final Map<String, MachineConfigNodeStatus> statuses;

    MachineConfigNodes(KubernetesClient client, SimClock clock, boolean enabled) {
        this(client, clock, enabled, new ConcurrentHashMap<>());
    }

    private MachineConfigNodes(
            KubernetesClient client, SimClock clock, boolean enabled, Map<String, MachineConfigNodeStatus> statuses) {
        this.client = client;
        this.clock = clock;
        this.enabled = enabled;
        this.statuses = statuses;
    }

    /** The same MachineConfigNodes (one status per node) written through {@code client}. */
    MachineConfigNodes as(KubernetesClient client) {
        return new MachineConfigNodes(client, clock, enabled, statuses);
    }

    /** Creates the node's MachineConfigNode if this simulator has not done so yet. */
    void ensure(String node, String pool, String currentConfig) {
        if (!enabled || statuses.containsKey(node)) {
            return;
        }
        var status = new MachineConfigNodeStatus(currentConfig, clock.now());
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
        statuses.put(node, status);
        writeStatus(node, status);
    }

    /** MCC: the node's new target. */
    void desired(String node, String config) {
        if (!enabled || !statuses.containsKey(node)) {
            return;
        }
        Mco.machineConfigNodes(client)
                .withName(node)
                .patch(Mco.jsonPatch(), Mco.set("/spec/configVersion", Map.of("desired", config)));
        update(node, s -> s.desired(config));
    }

    /** Changes the node's conditions and writes the status. */
    void update(String node, Consumer<MachineConfigNodeStatus> change) {
        if (!enabled) {
            return;
        }
        MachineConfigNodeStatus status = statuses.get(node);
        if (status == null) {
            return;
        }
        change.accept(status);
        writeStatus(node, status);
    }

    /** Sets one condition. */
    void set(String node, String type, String status, String reason, String message) {
        update(node, s -> s.set(type, status, reason, message, clock.now()));
    }

    private void writeStatus(String node, MachineConfigNodeStatus status) {
        Mco.machineConfigNodes(client)
                .withName(node)
                .subresource("status")
                .patch(Mco.jsonPatch(), Mco.set("/status", status.toStatus()));
    }
}
