package io.mcdhooks.mco.nodes;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * The order in which the MCC's node controller takes the candidates of a pool when it cannot take
 * them all at once ({@code sortNodeList}, {@code pkg/controller/node/node_controller.go}): nodes with a
 * zone label first, by zone, then oldest first; nodes without one last, oldest first. In the master
 * pool, with more than one candidate, the node that runs the operator pod is not taken at all in that
 * sync ({@code filterControlPlaneCandidateNodes}, event {@code DeferringOperatorNodeUpdate}): it goes
 * last. Pure; the simulator's planner and the bridge's {@code mcdhooks plan} both use it.
 */
public final class CandidateOrder {

    public static final String MASTER_POOL = "master";

    private CandidateOrder() {}

    /** {@code sortNodeList}: zoned nodes by zone then age, then unzoned nodes by age. */
    public static <T> List<T> sorted(List<T> nodes, Function<T, String> zone, Function<T, Instant> created) {
        var out = new ArrayList<>(nodes);
        out.sort(Comparator.comparing((T n) -> zone.apply(n) == null)
                .thenComparing(n -> zone.apply(n) == null ? "" : zone.apply(n))
                .thenComparing(n -> created.apply(n) == null ? Instant.EPOCH : created.apply(n)));
        return out;
    }

    /**
     * The order a whole rollout takes the pool's candidates in, one sync after another: sorted as
     * above, and in the master pool the operator's node last ({@code operatorNode} may be null).
     */
    public static <T> List<T> rollout(
            String pool,
            List<T> candidates,
            Function<T, String> name,
            Function<T, String> zone,
            Function<T, Instant> created,
            String operatorNode) {
        List<T> out = sorted(candidates, zone, created);
        if (MASTER_POOL.equals(pool) && operatorNode != null && out.size() > 1) {
            List<T> operator =
                    out.stream().filter(n -> operatorNode.equals(name.apply(n))).toList();
            out.removeAll(operator);
            out.addAll(operator);
        }
        return out;
    }
}
