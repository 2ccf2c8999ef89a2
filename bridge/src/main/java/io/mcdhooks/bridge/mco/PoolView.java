package io.mcdhooks.bridge.mco;

import java.util.Map;
import java.util.Objects;

/**
 * What the bridge needs of a MachineConfigPool.
 *
 * @param targetConfig   {@code spec.configuration.name}: what the pool moves to
 * @param currentConfig  {@code status.configuration.name}: what the pool has reached
 * @param maxUnavailable as written (an integer or a percentage); {@code "1"} when unset, as the MCO
 * @param nodeSelector   {@code spec.nodeSelector.matchLabels}
 * @param conditions     status condition type to status
 */
public record PoolView(
        String name,
        String uid,
        String resourceVersion,
        long generation,
        String targetConfig,
        String currentConfig,
        boolean paused,
        String maxUnavailable,
        int machineCount,
        int updatedMachineCount,
        int degradedMachineCount,
        Map<String, String> nodeSelector,
        Map<String, String> conditions,
        String degradedMessage,
        Map<String, String> annotations) {

    public PoolView {
        Objects.requireNonNull(name, "name");
        maxUnavailable = maxUnavailable == null ? "1" : maxUnavailable;
        nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
        conditions = conditions == null ? Map.of() : Map.copyOf(conditions);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }

    /** The pool moves to a target config it has not reached. */
    public boolean rolling() {
        return targetConfig != null && !targetConfig.equals(currentConfig);
    }

    /**
     * A change reverted mid-rollout: the pool targets the config it still reports (its
     * status.configuration never left it), and is not Updated: some of its nodes are on another
     * config, which the MCC takes them back from.
     */
    public boolean reverting() {
        return targetConfig != null
                && targetConfig.equals(currentConfig)
                && "False".equals(conditions.get("Updated"))
                && updatedMachineCount < machineCount;
    }

    /** How many nodes the MCC takes at a time: {@code maxUnavailable} resolved against the pool's machines. */
    public int batch() {
        return batch(maxUnavailable, machineCount);
    }

    /** The MCO's maxUnavailable: an integer, or a percentage of the machines rounded down; never below 1. */
    public static int batch(String maxUnavailable, int machines) {
        try {
            int value = maxUnavailable.endsWith("%")
                    ? machines * Integer.parseInt(maxUnavailable.substring(0, maxUnavailable.length() - 1)) / 100
                    : Integer.parseInt(maxUnavailable);
            return Math.max(1, value);
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    public boolean condition(String type) {
        return "True".equals(conditions.get(type));
    }

    /** Whether this pool's node selector matches {@code labels}. An empty selector matches nothing. */
    public boolean selects(Map<String, String> labels) {
        return !nodeSelector.isEmpty()
                && nodeSelector.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }
}
