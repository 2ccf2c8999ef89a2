package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether the scheduler may place a new pod on a node, as a pure function of the node and the
 * pod's tolerations and node selector (kube-scheduler's NodeUnschedulable, TaintToleration and
 * NodeAffinity filters; resources are not modelled): the node is Ready, matches the selector, is
 * not cordoned unless the pod tolerates {@code node.kubernetes.io/unschedulable:NoSchedule}, and
 * every NoSchedule and NoExecute taint is tolerated.
 */
public final class Scheduling {

    private Scheduling() {}

    /** Whether a new pod with these tolerations and node selector can be scheduled on {@code node}. */
    public static boolean admits(Node node, List<Toleration> tolerations, Map<String, String> nodeSelector) {
        if (!readyCondition(node)) {
            return false;
        }
        Map<String, String> labels = node.getMetadata().getLabels() == null
                ? Map.of()
                : node.getMetadata().getLabels();
        for (var e : nodeSelector.entrySet()) {
            if (!Objects.equals(labels.get(e.getKey()), e.getValue())) {
                return false;
            }
        }
        boolean cordoned =
                node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
        if (cordoned && !tolerates(tolerations, new Taint("NoSchedule", Mco.UNSCHEDULABLE_TAINT, null, null))) {
            return false;
        }
        List<Taint> taints = node.getSpec() == null || node.getSpec().getTaints() == null
                ? List.of()
                : node.getSpec().getTaints();
        for (Taint t : taints) {
            boolean hard = "NoSchedule".equals(t.getEffect()) || "NoExecute".equals(t.getEffect());
            if (hard && !tolerates(tolerations, t)) {
                return false;
            }
        }
        return true;
    }

    /** Kubernetes' {@code Toleration.ToleratesTaint}. */
    public static boolean tolerates(List<Toleration> tolerations, Taint taint) {
        for (Toleration t : tolerations) {
            boolean effect = t.getEffect() == null
                    || t.getEffect().isEmpty()
                    || t.getEffect().equals(taint.getEffect());
            boolean key =
                    t.getKey() == null || t.getKey().isEmpty() || t.getKey().equals(taint.getKey());
            String operator = t.getOperator() == null || t.getOperator().isEmpty() ? "Equal" : t.getOperator();
            boolean value = switch (operator) {
                case "Exists" -> true;
                case "Equal" -> Objects.equals(nullToEmpty(t.getValue()), nullToEmpty(taint.getValue()));
                default -> false;
            };
            boolean keyRule = (t.getKey() == null || t.getKey().isEmpty()) ? "Exists".equals(operator) : key;
            if (effect && keyRule && value) {
                return true;
            }
        }
        return false;
    }

    private static boolean readyCondition(Node node) {
        return node.getStatus() != null
                && node.getStatus().getConditions() != null
                && node.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
