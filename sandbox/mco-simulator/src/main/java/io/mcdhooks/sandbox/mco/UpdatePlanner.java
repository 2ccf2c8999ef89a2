package io.mcdhooks.sandbox.mco;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The MCC node controller's choice of nodes to update, as a pure function.
 *
 * <p>capacity = maxUnavailable − unavailable nodes − nodes already failing this config; candidates
 * are Ready nodes not yet targeting the pool's config, ordered by zone label, then oldest first,
 * with the node that runs the operator last.
 */
public final class UpdatePlanner {

    private UpdatePlanner() {}

    /** Nodes the MCO counts against maxUnavailable. */
    public static List<NodeView> unavailable(List<NodeView> nodes) {
        return nodes.stream().filter(NodeView::unavailable).toList();
    }

    /** How many more nodes may be given the target now; never negative. */
    public static int capacity(List<NodeView> nodes, String target, MaxUnavailable maxUnavailable) {
        int max = maxUnavailable.resolve(nodes.size());
        int unavailable = unavailable(nodes).size();
        if (unavailable >= max) {
            return 0;
        }
        long failingThisConfig = nodes.stream()
                .filter(n -> n.desiredConfig().equals(target) && n.failing())
                .count();
        return (int) Math.max(0, max - unavailable - failingThisConfig);
    }

    /** Candidate order: zone, then age (oldest first), then name; the operator's node last. */
    public static List<NodeView> orderedCandidates(List<NodeView> nodes, String target, String operatorNode) {
        Comparator<NodeView> order = Comparator.comparing(
                        (NodeView n) -> n.name().equals(operatorNode))
                .thenComparing(NodeView::zone)
                .thenComparing(NodeView::created)
                .thenComparing(NodeView::name);
        List<NodeView> candidates = new ArrayList<>();
        for (NodeView n : nodes) {
            if (!n.desiredConfig().equals(target) && n.ready()) {
                candidates.add(n);
            }
        }
        candidates.sort(order);
        return candidates;
    }

    /** The nodes to set {@code desiredConfig=target} on now. */
    public static List<NodeView> select(
            List<NodeView> nodes, String target, MaxUnavailable maxUnavailable, String operatorNode) {
        int capacity = capacity(nodes, target, maxUnavailable);
        if (capacity == 0) {
            return List.of();
        }
        List<NodeView> candidates = orderedCandidates(nodes, target, operatorNode);
        return candidates.subList(0, Math.min(capacity, candidates.size()));
    }
}
