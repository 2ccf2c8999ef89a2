package io.mcdhooks.bridge.ui;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.mcdhooks.bridge.mco.McoApi;
import java.util.HashMap;
import java.util.Map;

/** Worker nodes at each step of an update, and the worker pool, as the informers hold them. */
final class ClusterObjects {

    private ClusterObjects() {}

    static GenericKubernetesResource pool(String target, String current, long machines, long updated) {
        GenericKubernetesResource pool = new GenericKubernetesResource();
        pool.setApiVersion(McoApi.V1);
        pool.setKind(McoApi.POOL_KIND);
        pool.setMetadata(new ObjectMetaBuilder().withName("worker").build());
        pool.setAdditionalProperty(
                "spec",
                Map.of(
                        "configuration", Map.of("name", target),
                        "nodeSelector", Map.of("matchLabels", Map.of("node-role.kubernetes.io/worker", ""))));
        pool.setAdditionalProperty(
                "status",
                Map.of(
                        "configuration", Map.of("name", current),
                        "machineCount", machines,
                        "updatedMachineCount", updated));
        return pool;
    }

    /** At rest on {@code config}. */
    static Node atRest(String name, String config) {
        return node(name, config, config, McoApi.STATE_DONE, McoApi.UNCORDON_PREFIX + config, "");
    }

    /** Assigned {@code target}, asking for its drain. */
    static Node drainAsked(String name, String current, String target) {
        return node(name, current, target, McoApi.STATE_WORKING, McoApi.DRAIN_PREFIX + target, "");
    }

    /** Back on {@code target} after its reboot, the MCD done. */
    static Node updated(String name, String target) {
        return node(name, target, target, McoApi.STATE_DONE, McoApi.UNCORDON_PREFIX + target, "");
    }

    static Node node(String name, String current, String desired, String state, String desiredDrain, String action) {
        Map<String, String> a = new HashMap<>();
        a.put(McoApi.CURRENT_CONFIG, current);
        a.put(McoApi.DESIRED_CONFIG, desired);
        a.put(McoApi.STATE, state);
        a.put(McoApi.DESIRED_DRAIN, desiredDrain);
        a.put(McoApi.LAST_APPLIED_DRAIN, McoApi.UNCORDON_PREFIX + current);
        a.put(McoApi.POST_CONFIG_ACTION, action);
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(Map.of("node-role.kubernetes.io/worker", "", McoApi.ZONE_LABEL, "zone-a"))
                .withAnnotations(a)
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .build();
    }
}
