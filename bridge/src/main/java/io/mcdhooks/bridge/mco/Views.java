package io.mcdhooks.bridge.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.mcdhooks.mco.disruption.NodeDisruptionPolicy;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads API objects into views. Real clusters show odd objects (nodes without MCO annotations,
 * pools without status, fields of the wrong type): everything here tolerates absence and leaves
 * judgement to the classifier.
 */
public final class Views {

    private Views() {}

    public static NodeView node(Node node, McnView mcn) {
        var meta = node.getMetadata();
        boolean unschedulable =
                node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
        boolean ready = node.getStatus() != null
                && node.getStatus().getConditions() != null
                && node.getStatus().getConditions().stream()
                        .filter(c -> "Ready".equals(c.getType()))
                        .map(NodeCondition::getStatus)
                        .anyMatch("True"::equals);
        boolean tainted = node.getSpec() != null
                && node.getSpec().getTaints() != null
                && node.getSpec().getTaints().stream().anyMatch(t -> NodeView.POST_UPDATE_TAINT.equals(t.getKey()));
        return new NodeView(
                meta.getName(),
                meta.getUid(),
                meta.getResourceVersion(),
                instant(meta.getCreationTimestamp()),
                meta.getLabels(),
                meta.getAnnotations(),
                unschedulable,
                ready,
                tainted,
                mcn);
    }

    private static Instant instant(String timestamp) {
        try {
            return timestamp == null ? null : Instant.parse(timestamp);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    public static PoolView pool(GenericKubernetesResource pool) {
        var meta = pool.getMetadata();
        Map<String, String> conditions = new HashMap<>();
        String degradedMessage = null;
        for (Map<String, Object> condition : listOfMaps(pool.get("status", "conditions"))) {
            String type = string(condition.get("type"));
            if (type != null) {
                conditions.put(type, string(condition.get("status")));
                if ("Degraded".equals(type)) {
                    degradedMessage = string(condition.get("message"));
                }
            }
        }
        Object maxUnavailable = pool.get("spec", "maxUnavailable");
        return new PoolView(
                meta.getName(),
                meta.getUid(),
                meta.getResourceVersion(),
                meta.getGeneration() == null ? 0 : meta.getGeneration(),
                string(pool.get("spec", "configuration", "name")),
                string(pool.get("status", "configuration", "name")),
                Boolean.TRUE.equals(pool.get("spec", "paused")),
                maxUnavailable == null ? null : maxUnavailable.toString(),
                integer(pool.get("status", "machineCount")),
                integer(pool.get("status", "updatedMachineCount")),
                integer(pool.get("status", "degradedMachineCount")),
                stringMap(pool.get("spec", "nodeSelector", "matchLabels")),
                conditions,
                degradedMessage,
                meta.getAnnotations());
    }

    public static McnView machineConfigNode(GenericKubernetesResource mcn) {
        Map<String, McnView.Condition> conditions = new HashMap<>();
        for (Map<String, Object> condition : listOfMaps(mcn.get("status", "conditions"))) {
            String type = string(condition.get("type"));
            if (type != null) {
                conditions.put(
                        type,
                        new McnView.Condition(
                                type,
                                string(condition.get("status")),
                                string(condition.get("reason")),
                                string(condition.get("message"))));
            }
        }
        return new McnView(
                string(mcn.get("spec", "pool", "name")),
                string(mcn.get("spec", "configVersion", "desired")),
                string(mcn.get("status", "configVersion", "current")),
                conditions);
    }

    public static RenderedConfig renderedConfig(GenericKubernetesResource config) {
        return new RenderedConfig(
                config.getMetadata().getName(),
                string(config.get("spec", "osImageURL")),
                string(config.get("spec", "kernelType")),
                stringList(config.get("spec", "extensions")),
                stringList(config.get("spec", "kernelArguments")),
                stringKeyed(config.getAdditionalProperties().get("spec")));
    }

    /**
     * The merged node disruption policy {@code MachineConfiguration/cluster} publishes in
     * {@code status.nodeDisruptionPolicyStatus.clusterPolicies}; null while the operator has not
     * published one (or the object is not served): the bridge then cannot tell what a change does.
     */
    public static NodeDisruptionPolicy disruptionPolicy(GenericKubernetesResource machineConfiguration) {
        Map<String, Object> policies =
                stringKeyed(machineConfiguration.get("status", "nodeDisruptionPolicyStatus", "clusterPolicies"));
        if (policies == null) {
            return null;
        }
        try {
            return NodeDisruptionPolicy.fromStatus(policies);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> stringKeyed(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    }

    private static String string(Object value) {
        return value == null ? null : value.toString();
    }

    private static int integer(Object value) {
        return value instanceof Number n ? n.intValue() : 0;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> listOfMaps(Object value) {
        if (!(value instanceof List<?> list)) {
            return List.of();
        }
        return list.stream()
                .filter(Map.class::isInstance)
                .map(m -> (Map<String, Object>) m)
                .toList();
    }

    private static List<String> stringList(Object value) {
        if (!(value instanceof List<?> list)) {
            return List.of();
        }
        return list.stream().filter(v -> v != null).map(Object::toString).toList();
    }

    private static Map<String, String> stringMap(Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            return Map.of();
        }
        Map<String, String> result = new HashMap<>();
        map.forEach((k, v) -> result.put(String.valueOf(k), v == null ? "" : v.toString()));
        return result;
    }
}
