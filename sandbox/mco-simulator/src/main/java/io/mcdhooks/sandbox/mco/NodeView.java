package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import java.time.Instant;
import java.util.Map;

/**
 * What the MCO's node controller looks at on a Node: the MCO annotations, the readiness inputs,
 * the zone and the age. Taints are deliberately absent: the MCO does not look at them.
 *
 * @param ready the MCO's {@code isNodeReady}: no {@code Ready≠True}, {@code DiskPressure≠False} or
 *     {@code NetworkUnavailable≠False} condition, and not cordoned
 */
public record NodeView(
        String name,
        String zone,
        Instant created,
        boolean ready,
        boolean unschedulable,
        String currentConfig,
        String desiredConfig,
        String state) {

    public static NodeView of(Node node) {
        Map<String, String> annotations = node.getMetadata().getAnnotations() == null
                ? Map.of()
                : node.getMetadata().getAnnotations();
        Map<String, String> labels = node.getMetadata().getLabels() == null
                ? Map.of()
                : node.getMetadata().getLabels();
        boolean unschedulable =
                node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
        boolean conditionsOk = true;
        if (node.getStatus() != null && node.getStatus().getConditions() != null) {
            for (NodeCondition c : node.getStatus().getConditions()) {
                conditionsOk &= switch (c.getType()) {
                    case "Ready" -> "True".equals(c.getStatus());
                    case "DiskPressure", "NetworkUnavailable" -> "False".equals(c.getStatus());
                    default -> true;
                };
            }
        }
        String created = node.getMetadata().getCreationTimestamp();
        return new NodeView(
                node.getMetadata().getName(),
                labels.getOrDefault(Mco.ZONE_LABEL, ""),
                created == null ? Instant.EPOCH : Instant.parse(created),
                conditionsOk && !unschedulable,
                unschedulable,
                annotations.getOrDefault(Mco.CURRENT_CONFIG, ""),
                annotations.getOrDefault(Mco.DESIRED_CONFIG, ""),
                annotations.getOrDefault(Mco.STATE, ""));
    }

    /** The update is finished: running what it was asked to run, and the MCD says Done. */
    public boolean done() {
        return currentConfig.equals(desiredConfig) && Mco.STATE_DONE.equals(state);
    }

    /** The MCD failed on its way to a new config (Degraded or Unreconcilable). */
    public boolean failing() {
        return !currentConfig.equals(desiredConfig)
                && (Mco.STATE_DEGRADED.equals(state) || Mco.STATE_UNRECONCILABLE.equals(state));
    }

    /** The MCO's definition: not ready, or not done unless failing. Taints play no part. */
    public boolean unavailable() {
        return !ready || (!done() && !failing());
    }

    /** Runs {@code target} and is Done. */
    public boolean updatedTo(String target) {
        return done() && target.equals(currentConfig);
    }

    public boolean degraded() {
        return Mco.STATE_DEGRADED.equals(state) || Mco.STATE_UNRECONCILABLE.equals(state);
    }
}
