package io.mcdhooks.hooks.api;

import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Which gates a hook answers.
 *
 * @param stages     the stages; never empty
 * @param pools      pool names; empty means every pool
 * @param nodeLabels labels a node must carry (equality, all of them); empty means every node.
 *                   Only applies to per-node stages: pool-wide gates have no node.
 */
public record GateSelector(Set<Stage> stages, Set<String> pools, Map<String, String> nodeLabels) {

    public GateSelector {
        if (stages == null || stages.isEmpty()) {
            throw new IllegalArgumentException("a hook must answer at least one stage");
        }
        stages = Set.copyOf(stages);
        pools = pools == null ? Set.of() : Set.copyOf(pools);
        nodeLabels = nodeLabels == null ? Map.of() : Map.copyOf(nodeLabels);
    }

    /** Every gate of these stages, in every pool. */
    public static GateSelector stages(Stage first, Stage... rest) {
        return new GateSelector(EnumSet.of(first, rest), Set.of(), Map.of());
    }

    public GateSelector inPools(Set<String> poolNames) {
        return new GateSelector(stages, poolNames, nodeLabels);
    }

    public GateSelector onNodesLabelled(Map<String, String> labels) {
        return new GateSelector(stages, pools, labels);
    }

    public boolean matches(GateRequest request) {
        if (!stages.contains(request.stage())) {
            return false;
        }
        if (!pools.isEmpty() && !pools.contains(request.pool().name())) {
            return false;
        }
        if (nodeLabels.isEmpty() || request.node() == null) {
            return true;
        }
        Map<String, String> labels = request.node().labels();
        return nodeLabels.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }
}
