package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import java.time.Instant;
import java.util.Map;

/**
 * What the MCO's node controller looks at on a Node (its {@code LayeredNodeState},
 * {@code pkg/controller/common/layered_node_state.go}, for pools without image mode): the MCO
 * annotations, the readiness inputs, the zone and the age. Taints are deliberately absent: the MCO
 * does not look at them.
 *
 * @param zone the {@code topology.kubernetes.io/zone} label, or null when the node has none
 * @param ready the MCO's {@code IsNodeReady}: no {@code Ready≠True}, {@code DiskPressure≠False} or
 *     {@code NetworkUnavailable≠False} condition, and not cordoned
 * @param desiredImage the {@code desiredImage} annotation, or null when absent
 * @param currentImage the {@code currentImage} annotation, or null when absent
 */
public record NodeUpdateState(
        String name,
        String zone,
        Instant created,
        boolean ready,
        boolean unschedulable,
        String currentConfig,
        String desiredConfig,
        String state,
        String desiredImage,
        String currentImage) {

    /** A node without image annotations. */
    public NodeUpdateState(
            String name,
            String zone,
            Instant created,
            boolean ready,
            boolean unschedulable,
            String currentConfig,
            String desiredConfig,
            String state) {
        this(name, zone, created, ready, unschedulable, currentConfig, desiredConfig, state, null, null);
    }

    public static NodeUpdateState of(Node node) {
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
        return new NodeUpdateState(
                node.getMetadata().getName(),
                labels.get(Mco.ZONE_LABEL),
                created == null ? Instant.EPOCH : Instant.parse(created),
                conditionsOk && !unschedulable,
                unschedulable,
                annotations.getOrDefault(Mco.CURRENT_CONFIG, ""),
                annotations.getOrDefault(Mco.DESIRED_CONFIG, ""),
                annotations.getOrDefault(Mco.STATE, ""),
                annotations.get(Mco.DESIRED_IMAGE),
                annotations.get(Mco.CURRENT_IMAGE));
    }

    /**
     * The MCO's {@code IsNodeDone}: current = desired config (both set), the image annotations
     * absent or equal and set, and the MCD says Done.
     */
    public boolean done() {
        return !currentConfig.isEmpty()
                && currentConfig.equals(desiredConfig)
                && imageDone()
                && Mco.STATE_DONE.equals(state);
    }

    private boolean imageDone() {
        if (desiredImage == null && currentImage == null) {
            return true;
        }
        return desiredImage != null && !desiredImage.isEmpty() && desiredImage.equals(currentImage);
    }

    /** The MCO's {@code IsNodeMCDFailing}: Degraded or Unreconcilable on the way to a new config. */
    public boolean failing() {
        return !currentConfig.equals(desiredConfig)
                && (Mco.STATE_DEGRADED.equals(state) || Mco.STATE_UNRECONCILABLE.equals(state));
    }

    /** The MCO's {@code IsUnavailableForUpdate}: not ready, or not done unless failing. Taints play no part. */
    public boolean unavailable() {
        return !ready || (!done() && !failing());
    }

    /** The MCO's {@code IsDone} for a pool without image mode: done on the pool's target, no desired image. */
    public boolean updatedTo(String target) {
        return done() && target.equals(desiredConfig) && desiredImage == null;
    }

    /** Not a candidate: already targets {@code target} and is not being taken out of image mode. */
    public boolean targets(String target) {
        return target.equals(desiredConfig) && desiredImage == null;
    }

    public boolean degraded() {
        return Mco.STATE_DEGRADED.equals(state) || Mco.STATE_UNRECONCILABLE.equals(state);
    }
}
