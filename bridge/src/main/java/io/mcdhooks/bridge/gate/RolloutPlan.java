package io.mcdhooks.bridge.gate;

import io.mcdhooks.bridge.mco.ChangeClassifier;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.mco.nodes.CandidateOrder;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.BiFunction;

/**
 * What a pending rollout of a pool will do, before it starts: per node, what the change does (by
 * the MCO's rules) and which gates hold it with which lever; the order the MCC takes the nodes in
 * ({@link CandidateOrder}, the MCO's {@code sortNodeList}); and for every stage the hooks that gate
 * it and whether they hold or are only advisory on this cluster ({@link Enforcement}). Pure: what
 * {@code mcdhooks plan} prints.
 *
 * @param pending whether nodes are to move: the pool rolls to a new target, or goes back to the one
 *     it still reports ({@code reverting}: a change reverted mid-rollout, or rolled back)
 * @param batch how many nodes the MCC takes at a time ({@code maxUnavailable}, resolved)
 * @param nodes the nodes still to update, in the order the MCC takes them
 * @param done nodes already on the target
 * @param stages one line per stage with hooks
 */
public record RolloutPlan(
        String pool,
        String currentConfig,
        String targetConfig,
        boolean pending,
        boolean reverting,
        int batch,
        List<NodeStep> nodes,
        List<String> done,
        List<StageGate> stages) {

    /**
     * One node's update.
     *
     * @param preUpdate the lever of its pre-update gate, {@code advisory: <why>}, or null (no hook)
     * @param postUpdate likewise for its post-update gate
     */
    public record NodeStep(
            String node, String zone, boolean assigned, String disruption, String preUpdate, String postUpdate) {}

    /** The hooks gating one stage, and what holds it ({@code lever}) or why nothing does ({@code advisory}). */
    public record StageGate(Stage stage, List<String> hooks, String lever, String advisory) {}

    public static RolloutPlan of(
            PoolView pool,
            List<NodeView> nodes,
            Collection<RegisteredHook> hooks,
            BiFunction<String, String, GateRequest.Disruption> disruption,
            String operatorNode) {
        String target = pool.targetConfig();
        var todo = new ArrayList<NodeView>();
        var done = new ArrayList<String>();
        for (NodeView n : nodes) {
            if (target != null && target.equals(n.currentConfig()) && !n.updating()) {
                done.add(n.name());
            } else {
                todo.add(n);
            }
        }
        List<NodeView> order = CandidateOrder.rollout(
                pool.name(), todo, NodeView::name, NodeView::zone, NodeView::created, operatorNode);
        var steps = new ArrayList<NodeStep>();
        GateRequest.Disruption anyChange = null;
        for (NodeView n : order) {
            GateRequest.Disruption d = disruption.apply(n.currentConfig(), target);
            anyChange = anyChange == null ? d : anyChange;
            steps.add(new NodeStep(
                    n.name(),
                    n.zone(),
                    target != null && target.equals(n.desiredConfig()),
                    ChangeClassifier.describe(d),
                    lever(hooks, Stage.PRE_UPDATE, pool, n, d),
                    lever(hooks, Stage.POST_UPDATE, pool, n, d)));
        }
        var stages = new ArrayList<StageGate>();
        GateRequest.Disruption poolChange = disruption.apply(pool.currentConfig(), target);
        for (Stage stage : Stage.values()) {
            List<String> names = hooks.stream()
                    .filter(h -> h.gates(stage, pool.name()))
                    .map(h -> h.name() + (h.mode() == GateDecision.Mode.Advisory ? " (advisory hook)" : ""))
                    .sorted()
                    .toList();
            if (!names.isEmpty()) {
                GateRequest.Disruption d = stage == Stage.POOL_PRE_UPDATE ? poolChange : anyChange;
                // Going back, the pool meets no pool-pre-update gate (PausePlan): its config passed one before.
                String advisory = stage == Stage.POOL_PRE_UPDATE && pool.reverting()
                        ? "not asked: the pool goes back to " + target + ", which passed its gates before"
                        : Enforcement.advisory(stage, pool.name(), d);
                stages.add(new StageGate(stage, names, Enforcement.lever(stage, pool.name(), d), advisory));
            }
        }
        return new RolloutPlan(
                pool.name(),
                pool.currentConfig(),
                target,
                pool.rolling() || pool.reverting(),
                pool.reverting(),
                PoolView.batch(pool.maxUnavailable(), nodes.size()),
                steps,
                done,
                stages);
    }

    private static String lever(
            Collection<RegisteredHook> hooks,
            Stage stage,
            PoolView pool,
            NodeView node,
            GateRequest.Disruption disruption) {
        boolean enforcing = hooks.stream()
                .anyMatch(h -> h.mode() == GateDecision.Mode.Enforcing
                        && h.gates(stage, pool.name())
                        && h.selects(node.labels()));
        if (!enforcing) {
            boolean any = hooks.stream().anyMatch(h -> h.gates(stage, pool.name()) && h.selects(node.labels()));
            return any ? "advisory hooks only" : null;
        }
        String advisory = Enforcement.advisory(stage, pool.name(), disruption);
        return advisory != null ? "advisory" : Enforcement.lever(stage, pool.name(), disruption);
    }
}
