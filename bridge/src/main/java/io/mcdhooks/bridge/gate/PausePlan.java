package io.mcdhooks.bridge.gate;

import static io.mcdhooks.bridge.gate.LeverPlan.released;
import static io.mcdhooks.bridge.gate.LeverPlan.required;
import static io.mcdhooks.bridge.gate.LeverPlan.watched;

import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.Stage;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Whether the gatekeeper wants a pool paused, the one lever that keeps the MCC from assigning new
 * nodes (see {@link LeverPlan} for the levers of each node): paused at rest for pools with
 * pool-pre-update or pre-update hooks; while a new target waits for its pool-pre-update gate,
 * for gate pods to be in place, or for the pre-update gates of a change no drain would hold;
 * while a post-update hold would leave the MCC counting a held node available; for a failed gate
 * of a hook that asks for it; and outside the pool's update windows. Pure.
 */
public final class PausePlan {

    private PausePlan() {}

    /**
     * Whether the pool should be paused; {@code null} when the gatekeeper has no say over it (no
     * pool-pre-update or pre-update hook, and no failed post-update gate asking for a pause).
     *
     * @param gatePodReady whether a node's gate pod and its budget exist
     * @param drains whether a node's change to the pool's target is known to drain it (by the MCO's
     *     rules, see {@code ChangeClassifier}); one that does not, or is not known to, cannot be held
     *     by its gate pod
     * @param handOver whether an open post-update gate's hold at the uncordon handshake is to be
     *     handed over ({@link LeverPlan#handsOver}): the pool is paused for that
     */
    public static Boolean poolPaused(
            String cluster,
            PoolView pool,
            List<NodeView> nodes,
            Collection<RegisteredHook> hooks,
            Function<String, Gate> gates,
            Predicate<String> gatePodReady,
            Predicate<NodeView> drains,
            PostUpdateHold mode,
            Predicate<Gate> handOver) {
        boolean pacing = mode != PostUpdateHold.SINGLE_NODE && !required(pool);
        for (NodeView node : nodes) {
            if (holdsPoolPaused(cluster, pool, node, gates)
                    || pacing
                            && (mode == PostUpdateHold.ADMISSION
                                    ? exposed(cluster, pool, node, hooks, gates)
                                            || watched(hooks, Stage.POST_UPDATE, pool, node)
                                                    && LeverPlan.handsOver(cluster, pool, node, gates, handOver)
                                    : postUpdateInFlight(cluster, pool, node, hooks, gates))) {
                return true;
            }
        }
        // The master pool is never paused for the gates before an update (Enforcement: advisory there).
        boolean pauseHolds = Enforcement.pauseHolds(pool.name());
        boolean poolHooks = pauseHolds && hooks.stream().anyMatch(h -> h.gates(Stage.POOL_PRE_UPDATE, pool.name()));
        boolean preHooks = pauseHolds && hooks.stream().anyMatch(h -> h.gates(Stage.PRE_UPDATE, pool.name()));
        if (!poolHooks && !preHooks) {
            return null;
        }
        if (!pool.rolling() && !pool.reverting()) {
            // At rest the pool waits for its next config's gates.
            return true;
        }
        // Going back to the config it reports (a change reverted or rolled back), the pool meets no
        // pool-pre-update gate: that config passed one before. Its nodes meet their own gates.
        if (pool.rolling()
                && poolHooks
                && !released(
                        gates.apply(GateId.of(cluster, Stage.POOL_PRE_UPDATE, pool.name(), pool.targetConfig())))) {
            return true;
        }
        for (NodeView node : nodes) {
            if (preUpdateHeldByPause(cluster, pool, node, hooks, gates, drains)) {
                return true;
            }
            if (LeverPlan.node(cluster, pool, node, hooks, gates, mode, drains, handOver)
                            .gatePod()
                    && !gatePodReady.test(node.name())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The pause with the pool's schedule applied ({@link PoolSchedules}): while it takes no new
     * node (outside its update windows, frozen, or pausing between nodes) the pool is paused, so a
     * rollout cut by a window's end stops with the nodes already assigned finishing and resumes
     * when the next one opens. Never the master pool ({@link Enforcement}): there the schedule is
     * advisory.
     *
     * @param takesNewNodes whether the pool's schedule lets it take a new node now
     */
    public static Boolean withinSchedule(PoolView pool, Boolean paused, boolean takesNewNodes) {
        if (!takesNewNodes && Enforcement.pauseHolds(pool.name())) {
            return true;
        }
        return paused;
    }

    /**
     * A node a pre-update hook watches whose change will not drain (SSH keys, pull secret, a CRI-O
     * reload…: the node disruption policy applies it in place) and whose pre-update gate for the
     * target is not released: no drain ever meets its gate pod, so only the pause holds it. The
     * bridge requests such gates with the pool's new target, before any node is assigned.
     */
    private static boolean preUpdateHeldByPause(
            String cluster,
            PoolView pool,
            NodeView node,
            Collection<RegisteredHook> hooks,
            Function<String, Gate> gates,
            Predicate<NodeView> drains) {
        String target = pool.targetConfig();
        if (!watched(hooks, Stage.PRE_UPDATE, pool, node) || target.equals(node.currentConfig()) || drains.test(node)) {
            return false;
        }
        // Assigned already (before the gatekeeper ran, or by hand): the pause cannot take it back.
        if (target.equals(node.desiredConfig()) && node.updating()) {
            return false;
        }
        return !released(gates.apply(GateId.of(cluster, Stage.PRE_UPDATE, node.name(), target)));
    }

    /**
     * A node a post-update hook watches that was assigned the pool's target and whose post-update
     * gate is not released. Its cordon alone does not keep the pool within maxUnavailable: between
     * the MCD's uncordon and the gatekeeper's re-cordon the MCC counts the node available, and while
     * no gatekeeper runs (restart, lease handover) nobody re-cordons it, so the MCC would assign
     * further nodes and the later re-cordon would put the pool over its budget. A pause set while
     * the node is in flight closes both: the MCC assigns nothing new, and the pause stays put
     * while the gatekeeper is away. Found by the fault-injection suite.
     */
    private static boolean postUpdateInFlight(
            String cluster,
            PoolView pool,
            NodeView node,
            Collection<RegisteredHook> hooks,
            Function<String, Gate> gates) {
        String target = pool.targetConfig();
        if (target == null || !target.equals(node.desiredConfig()) || !watched(hooks, Stage.POST_UPDATE, pool, node)) {
            return false;
        }
        Gate post = gates.apply(GateId.of(cluster, Stage.POST_UPDATE, node.name(), target));
        boolean finished = node.done() && target.equals(node.currentConfig());
        if (!finished) {
            return !released(post);
        }
        // Finished and its gate unknown: in a rollout, the gate is yet to be requested (the node
        // finished while no gatekeeper ran); at rest, the gate is older than the read-back.
        return post == null ? pool.rolling() : !post.released();
    }

    /**
     * With the admission policy: a node a post-update hook watches, assigned the pool's target, its
     * gate not released, past its uncordon request (or Done) and not cordoned. That is a change
     * that needed no drain (or a node that was not marked before its uncordon): the MCC would count
     * it available until the gatekeeper cordons it once Done, so the pool waits that moment out.
     * The pause stays while no gatekeeper runs; the node itself is then kept free of new workloads
     * by the taint alone.
     */
    private static boolean exposed(
            String cluster,
            PoolView pool,
            NodeView node,
            Collection<RegisteredHook> hooks,
            Function<String, Gate> gates) {
        String target = pool.targetConfig();
        if (target == null
                || !target.equals(node.desiredConfig())
                || node.unschedulable()
                || !watched(hooks, Stage.POST_UPDATE, pool, node)) {
            return false;
        }
        boolean finished = node.done() && target.equals(node.currentConfig());
        boolean uncordonRequested = (McoApi.UNCORDON_PREFIX + target).equals(node.desiredDrain());
        if (!finished && !uncordonRequested) {
            return false;
        }
        Gate post = gates.apply(GateId.of(cluster, Stage.POST_UPDATE, node.name(), target));
        return post == null ? !finished || pool.rolling() : !post.released();
    }

    /**
     * A failed post-update gate of a hook whose failure action pauses the pool (HoldAndPausePool,
     * or a rollback's), while the pool still targets the config that failed: once it targets
     * another (an administrator reverted the change, or the rollback did), the pause would only
     * keep the MCC from taking the pool there, the failed node first.
     */
    private static boolean holdsPoolPaused(String cluster, PoolView pool, NodeView node, Function<String, Gate> gates) {
        if (node.desiredConfig() == null
                || pool.targetConfig() != null && !pool.targetConfig().equals(node.desiredConfig())) {
            return false;
        }
        Gate post = gates.apply(GateId.of(cluster, Stage.POST_UPDATE, node.name(), node.desiredConfig()));
        if (post == null || post.released() || post.last() == null) {
            return false;
        }
        GateDecision last = post.last();
        if (last.decision() != GateDecision.Decision.BLOCKED && last.decision() != GateDecision.Decision.TIMED_OUT) {
            return false;
        }
        return last.blockingHooks().stream().anyMatch(h -> post.pauseOnFailure().contains(h));
    }
}
