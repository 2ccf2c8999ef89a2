package io.mcdhooks.bridge.gate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which write brings a node or pool to the levers {@link LeverPlan} wants, and what it writes:
 * pure, on fabric8's model objects. It never touches what the MCO owns and only undoes what the
 * gatekeeper did itself: a cordon only if its {@link GateObjects#CORDONED_FOR} mark or its
 * {@link GateObjects#HOLD} marker is there (a held node's cordon is the drain controller's, kept by
 * kube-apiserver for the hold), a pause of a pool it has no say over only if its
 * {@link GateObjects#PAUSED_BY} mark is there. A release is one write: the marker goes and the node
 * is uncordoned, so the drain controller's next retry of its uncordon finds nothing left to do.
 */
public final class LeverWrites {

    private static final ObjectMapper JSON = new ObjectMapper();

    private LeverWrites() {}

    /** The write a node needs. */
    public enum NodeWrite {
        NONE,
        /** Only a cordon: a merge patch, which needs no read first and cannot lose a race. */
        CORDON,
        /** Taint, untaint or uncordon: read, {@link #edit}, write back under optimistic locking. */
        EDIT
    }

    public static NodeWrite node(Node current, LeverPlan.NodeLevers want) {
        boolean cordoned = Boolean.TRUE.equals(current.getSpec().getUnschedulable());
        boolean needTaint = want.postUpdateTaint() != tainted(current);
        boolean needCordon = want.cordon() && !cordoned;
        String marker = annotation(current, GateObjects.HOLD);
        boolean needHold = want.hold() ? !want.postUpdateGate().equals(marker) : marker != null;
        boolean needUncordon = !want.cordon()
                && (annotation(current, GateObjects.CORDONED_FOR) != null
                        || cordoned && marker != null && !want.hold());
        if (needCordon && !needTaint && (!needHold || want.hold())) {
            return NodeWrite.CORDON;
        }
        return needTaint || needCordon || needUncordon || needHold ? NodeWrite.EDIT : NodeWrite.NONE;
    }

    /** The JSON merge patch that cordons a node for {@code gateId}, with the mark that says so. */
    public static String cordonPatch(String gateId) {
        return cordonPatch(gateId, false);
    }

    /** As {@link #cordonPatch(String)}, setting the {@link GateObjects#HOLD} marker too if {@code hold}. */
    public static String cordonPatch(String gateId, boolean hold) {
        ObjectNode annotations = JSON.createObjectNode().put(GateObjects.CORDONED_FOR, gateId);
        if (hold) {
            annotations.put(GateObjects.HOLD, gateId);
        }
        return JSON.createObjectNode()
                .<ObjectNode>set("spec", JSON.createObjectNode().put("unschedulable", true))
                .set("metadata", JSON.createObjectNode().set("annotations", annotations))
                .toString();
    }

    /** Brings {@code node}'s taint and cordon to {@code want} in place; {@code false} if nothing changed. */
    public static boolean edit(Node node, LeverPlan.NodeLevers want) {
        boolean changed = false;
        List<Taint> taints = node.getSpec().getTaints() == null
                ? new ArrayList<>()
                : new ArrayList<>(node.getSpec().getTaints());
        boolean tainted = taints.stream().anyMatch(t -> LeverPlan.POST_UPDATE_TAINT.equals(t.getKey()));
        if (want.postUpdateTaint() && !tainted) {
            taints.add(new TaintBuilder()
                    .withKey(LeverPlan.POST_UPDATE_TAINT)
                    .withValue(GateObjects.GATEKEEPER)
                    .withEffect("NoSchedule")
                    .build());
            changed = true;
        } else if (!want.postUpdateTaint() && tainted) {
            taints.removeIf(t -> LeverPlan.POST_UPDATE_TAINT.equals(t.getKey()));
            changed = true;
        }
        node.getSpec().setTaints(taints);
        Map<String, String> annotations = node.getMetadata().getAnnotations() == null
                ? new HashMap<>()
                : new HashMap<>(node.getMetadata().getAnnotations());
        boolean released = false;
        if (want.hold() && !want.postUpdateGate().equals(annotations.get(GateObjects.HOLD))) {
            annotations.put(GateObjects.HOLD, want.postUpdateGate());
            changed = true;
        } else if (!want.hold() && annotations.remove(GateObjects.HOLD) != null) {
            // The cordon a held node has is the one the hold kept: it goes in the same write.
            released = !want.cordon();
            changed = true;
        }
        if (want.cordon() && !Boolean.TRUE.equals(node.getSpec().getUnschedulable())) {
            // Only a cordon this gatekeeper set carries its mark; only those does it ever lift.
            node.getSpec().setUnschedulable(true);
            annotations.put(GateObjects.CORDONED_FOR, want.postUpdateGate());
            changed = true;
        } else if (!want.cordon()) {
            boolean marked = annotations.remove(GateObjects.CORDONED_FOR) != null;
            if (marked || released) {
                if (Boolean.TRUE.equals(node.getSpec().getUnschedulable())) {
                    node.getSpec().setUnschedulable(false);
                }
                changed = true;
            }
        }
        node.getMetadata().setAnnotations(annotations);
        return changed;
    }

    /**
     * The pause to write to {@code pool}, or {@code null} for none.
     *
     * @param paused what the plan wants; {@code null}: no say, only undo a pause of its own
     */
    public static Boolean poolPause(GenericKubernetesResource pool, Boolean paused) {
        boolean isPaused = Boolean.TRUE.equals(pool.get("spec", "paused"));
        String ours = pool.getMetadata().getAnnotations() == null
                ? null
                : pool.getMetadata().getAnnotations().get(GateObjects.PAUSED_BY);
        Boolean target = paused != null ? paused : ours != null && isPaused ? Boolean.FALSE : null;
        if (target == null || target == isPaused && (target ? ours != null : ours == null)) {
            return null;
        }
        return target;
    }

    /** Sets {@code pool}'s pause in place, marking a pause as the gatekeeper's. */
    @SuppressWarnings("unchecked")
    public static void pause(GenericKubernetesResource pool, boolean paused) {
        Map<String, Object> spec = new HashMap<>(
                (Map<String, Object>) pool.getAdditionalProperties().getOrDefault("spec", Map.of()));
        spec.put("paused", paused);
        pool.setAdditionalProperty("spec", spec);
        Map<String, String> annotations = pool.getMetadata().getAnnotations() == null
                ? new HashMap<>()
                : new HashMap<>(pool.getMetadata().getAnnotations());
        if (paused) {
            annotations.put(GateObjects.PAUSED_BY, GateObjects.GATEKEEPER);
        } else {
            annotations.remove(GateObjects.PAUSED_BY);
        }
        pool.getMetadata().setAnnotations(annotations);
    }

    public static boolean tainted(Node node) {
        return node.getSpec().getTaints() != null
                && node.getSpec().getTaints().stream().anyMatch(t -> LeverPlan.POST_UPDATE_TAINT.equals(t.getKey()));
    }

    private static String annotation(Node node, String key) {
        return node.getMetadata().getAnnotations() == null
                ? null
                : node.getMetadata().getAnnotations().get(key);
    }
}
