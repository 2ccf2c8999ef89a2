package io.mcdhooks.sandbox.mco;

import io.mcdhooks.mco.nodes.CandidateOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The MCC node controller's choice of nodes to update, as a pure function
 * ({@code getAllCandidateMachines}, {@code updateCandidateMachines},
 * {@code filterControlPlaneCandidateNodes} and {@code sortNodeList} of
 * {@code pkg/controller/node/node_controller.go}).
 *
 * <p>capacity = maxUnavailable − unavailable nodes − nodes already failing this config. Candidates
 * are ready (so also not cordoned) nodes not yet targeting the pool's config. In the master pool,
 * with more than one candidate, the node that runs the operator is dropped (and reported). Only when
 * the candidates outnumber the capacity are they sorted: nodes with a zone label first, by zone,
 * then oldest first; nodes without one last, oldest first.
 */
public final class UpdatePlanner {

    static final String MASTER = "master";

    private UpdatePlanner() {}

    /** What the node controller does in one sync: nodes to target, and the operator node it deferred. */
    public record Plan(List<NodeUpdateState> chosen, String deferredOperatorNode) {
        public Plan {
            chosen = List.copyOf(chosen);
        }
    }

    /** Nodes the MCO counts against maxUnavailable. */
    public static List<NodeUpdateState> unavailable(List<NodeUpdateState> nodes) {
        return nodes.stream().filter(NodeUpdateState::unavailable).toList();
    }

    /** How many more nodes may be given the target now; never negative. */
    public static int capacity(List<NodeUpdateState> nodes, String target, MaxUnavailable maxUnavailable) {
        int max = maxUnavailable.resolve(nodes.size());
        int unavailable = unavailable(nodes).size();
        if (unavailable >= max) {
            return 0;
        }
        long failingThisConfig =
                nodes.stream().filter(n -> n.targets(target) && n.failing()).count();
        return (int) Math.max(0, max - unavailable - failingThisConfig);
    }

    /** Ready nodes not yet targeting {@code target}, in the order the pool lists them. */
    public static List<NodeUpdateState> candidates(List<NodeUpdateState> nodes, String target) {
        var out = new ArrayList<NodeUpdateState>();
        for (NodeUpdateState n : nodes) {
            if (!n.targets(target) && n.ready()) {
                out.add(n);
            }
        }
        return out;
    }

    /** The MCO's {@code sortNodeList}: zoned nodes by zone then age, then unzoned nodes by age ({@link CandidateOrder}). */
    public static List<NodeUpdateState> sorted(List<NodeUpdateState> nodes) {
        return CandidateOrder.sorted(nodes, NodeUpdateState::zone, NodeUpdateState::created);
    }

    /** The nodes to set {@code desiredConfig=target} on now. */
    public static Plan plan(
            String pool,
            List<NodeUpdateState> nodes,
            String target,
            MaxUnavailable maxUnavailable,
            String operatorNode) {
        int capacity = capacity(nodes, target, maxUnavailable);
        if (capacity == 0) {
            return new Plan(List.of(), null);
        }
        List<NodeUpdateState> candidates = candidates(nodes, target);
        String deferred = null;
        if (MASTER.equals(pool) && candidates.size() > 1 && operatorNode != null) {
            List<NodeUpdateState> without = candidates.stream()
                    .filter(n -> !n.name().equals(operatorNode))
                    .toList();
            if (without.size() < candidates.size()) {
                deferred = operatorNode;
                candidates = without;
            }
        }
        if (capacity < candidates.size()) {
            candidates = sorted(candidates).subList(0, capacity);
        }
        return new Plan(candidates, deferred);
    }
}
