package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Eviction API's PodDisruptionBudget check ({@code pkg/registry/core/pod/storage/eviction.go}),
 * as a pure function: the in-memory API server has no Eviction API and no disruption controller.
 *
 * <ul>
 *   <li>{@code canIgnorePDB}: a pod that is Pending, Succeeded or Failed, or already being deleted,
 *       is evicted without looking at any budget. A pod the API server never gave a phase counts
 *       as Pending (the phase it defaults to).
 *   <li>More than one budget selecting the pod is refused.
 *   <li>{@code disruptionsAllowed} is computed at eviction time from the budget's spec and the pods
 *       it selects, as the disruption controller would: healthy = Ready=True and not being deleted;
 *       expected = all selected pods. A healthy pod may go when healthy − desired &gt; 0; a running
 *       pod that is not ready (the default {@code IfHealthyBudget} policy) when healthy ≥ desired.
 * </ul>
 */
public final class DisruptionBudgets {

    /** The API server's message when a budget forbids the eviction. */
    public static final String VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";
    /** The API server's message when more than one budget selects the pod. */
    public static final String MULTIPLE =
            "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.";

    private DisruptionBudgets() {}

    /** As {@link #evictionBlocked(Pod, Collection, Collection, Set)} with no pods known to be terminating. */
    public static Optional<String> evictionBlocked(
            Pod pod, Collection<PodDisruptionBudget> budgets, Collection<Pod> namespacePods) {
        return evictionBlocked(pod, budgets, namespacePods, Set.of());
    }

    /**
     * Why evicting {@code pod} must be refused, if it must.
     *
     * @param budgets the budgets of the pod's namespace
     * @param namespacePods the pods of the pod's namespace that still exist
     * @param terminating keys ({@code namespace/name}) of pods being deleted that may not show it yet
     */
    public static Optional<String> evictionBlocked(
            Pod pod, Collection<PodDisruptionBudget> budgets, Collection<Pod> namespacePods, Set<String> terminating) {
        if (canIgnoreBudget(pod)) {
            return Optional.empty();
        }
        List<PodDisruptionBudget> matching = budgets.stream()
                .filter(b -> selects(b.getSpec().getSelector(), labels(pod)))
                .toList();
        if (matching.isEmpty()) {
            return Optional.empty();
        }
        if (matching.size() > 1) {
            return Optional.of(MULTIPLE);
        }
        PodDisruptionBudget budget = matching.get(0);
        List<Pod> selected = namespacePods.stream()
                .filter(p -> selects(budget.getSpec().getSelector(), labels(p)))
                .toList();
        int expected = selected.size();
        int healthy = (int) selected.stream()
                .filter(p -> !terminating.contains(
                        p.getMetadata().getNamespace() + "/" + p.getMetadata().getName()))
                .filter(DisruptionBudgets::healthy)
                .count();
        int desiredHealthy;
        var spec = budget.getSpec();
        if (spec.getMaxUnavailable() != null) {
            desiredHealthy = expected - scaled(spec.getMaxUnavailable().getValue(), expected);
        } else if (spec.getMinAvailable() != null) {
            desiredHealthy = scaled(spec.getMinAvailable().getValue(), expected);
        } else {
            desiredHealthy = expected - 1;
        }
        boolean allowed = healthy(pod) ? healthy - desiredHealthy > 0 : healthy >= desiredHealthy;
        return allowed ? Optional.empty() : Optional.of(VIOLATION);
    }

    /** {@code canIgnorePDB}: Pending, Succeeded, Failed or terminating. */
    public static boolean canIgnoreBudget(Pod pod) {
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            return true;
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return phase == null || "Pending".equals(phase) || "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    /** Label-selector semantics of policy/v1: a null selector selects nothing, {@code {}} all. */
    public static boolean selects(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return false;
        }
        if (selector.getMatchLabels() != null) {
            for (var e : selector.getMatchLabels().entrySet()) {
                if (!e.getValue().equals(labels.get(e.getKey()))) {
                    return false;
                }
            }
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                String value = labels.get(r.getKey());
                List<String> values = r.getValues() == null ? List.of() : r.getValues();
                boolean ok = switch (r.getOperator()) {
                    case "In" -> value != null && values.contains(value);
                    case "NotIn" -> value == null || !values.contains(value);
                    case "Exists" -> value != null;
                    case "DoesNotExist" -> value == null;
                    default -> false;
                };
                if (!ok) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The disruption controller's healthy pod: Ready=True and not being deleted. */
    static boolean healthy(Pod p) {
        if (p.getMetadata().getDeletionTimestamp() != null || p.getStatus() == null) {
            return false;
        }
        List<PodCondition> conditions = p.getStatus().getConditions();
        return conditions != null
                && conditions.stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** An IntOrString of a budget: an int, or a percentage of {@code total} rounded up. */
    private static int scaled(Object value, int total) {
        if (value instanceof Number n) {
            return n.intValue();
        }
        String s = String.valueOf(value);
        if (s.endsWith("%")) {
            return (int) Math.ceil(Integer.parseInt(s.substring(0, s.length() - 1)) * total / 100.0);
        }
        return Integer.parseInt(s);
    }

    private static Map<String, String> labels(Pod p) {
        return p.getMetadata().getLabels() == null ? Map.of() : p.getMetadata().getLabels();
    }
}
