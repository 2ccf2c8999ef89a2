package io.mcdhooks.bridge.gate;

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
 * Which levers of a stock cluster the gatekeeper wants pulled, given the pools, nodes, hooks and
 * gates: pure, so it can be checked against any state. The levers (see the MCO contract):
 * <ul>
 * <li><b>pool pause</b> for pools with pool-pre-update or pre-update hooks: paused at rest; when
 *     a new target config comes, paused until its pool-pre-update gate is released and every node
 *     that a pre-update hook watches has its gate pod, or, where the node's change will not drain
 *     (it would never meet its gate pod), its pre-update gate released; paused again once the
 *     rollout is done. Never the master pool for these gates ({@link Enforcement}). For
 *     pools with post-update hooks, also paused while a node assigned the target has not had its
 *     post-update gate released, so the MCC assigns the next nodes only after those are released.
 * <li><b>gate pod</b> (covered by a PodDisruptionBudget that allows no eviction) on each node a
 *     pre-update hook watches, from the start of a rollout until the node's pre-update gate is
 *     released: the MCD's drain cannot finish before.
 * <li><b>post-update taint</b> ({@code NoSchedule}) on each node a post-update hook watches, from
 *     the moment it is assigned the update until its post-update gate is released: nothing lands
 *     on it between the MCD's uncordon and the verdict.
 * <li><b>cordon</b> from the MCD's uncordon request until the post-update gate is released, so
 *     the node keeps counting against maxUnavailable and a failed node halts the pool. It is
 *     wanted from the request on even if the gate has not been opened yet (its request may still
 *     be on its way): the MCD reports Done right after the uncordon.
 * <li><b>hold marker</b> ({@link GateObjects#HOLD}), where the cluster enforces it
 *     ({@link PostUpdateHold#ADMISSION}): set with the taint at assignment, so the drain
 *     controller's own cordon stays until release and no re-cordon and no pause are needed; a
 *     change that needs no drain is never cordoned before Done (a refused uncordon would make the
 *     MCD redo it after 10 minutes) but once it is Done, its pool paused in between.
 * </ul>
 *
 * <p>How a post-update gate holds depends on the cluster ({@link PostUpdateHold}): on a single
 * node nothing is set; in the master pool no pause is ever set for it (a paused master pool turns
 * the machine-config ClusterOperator Degraded at once), and without the policy held masters are
 * only tainted, not re-cordoned, so they never count twice against maxUnavailable.
 */
public final class LeverPlan {

    /** The taint that keeps workloads off a node whose post-update gate is not released. */
    public static final String POST_UPDATE_TAINT = NodeView.POST_UPDATE_TAINT;
    /** The pool the MCO's operator requires ({@code syncRequiredMachineConfigPools}): never paused for a hold. */
    public static final String REQUIRED_POOL = "master";

    private LeverPlan() {}

    /** What the gatekeeper wants of a node; {@code hold}: the {@link GateObjects#HOLD} marker. */
    public record NodeLevers(
            boolean gatePod, boolean postUpdateTaint, boolean cordon, String postUpdateGate, boolean hold) {
        public NodeLevers(boolean gatePod, boolean postUpdateTaint, boolean cordon, String postUpdateGate) {
            this(gatePod, postUpdateTaint, cordon, postUpdateGate, false);
        }
    }

    /** The levers without the admission policy ({@link PostUpdateHold#BATCH_PACING}). */
    public static NodeLevers node(
            String cluster,
            PoolView pool,
            NodeView node,
            Collection<RegisteredHook> hooks,
            Function<String, Gate> gates) {
        return node(cluster, pool, node, hooks, gates, PostUpdateHold.BATCH_PACING);
    }

    public static NodeLevers node(
            String cluster,
            PoolView pool,
            NodeView node,
            Collection<RegisteredHook> hooks,
            Function<String, Gate> gates,
            PostUpdateHold mode) {
        boolean preHooks = watched(hooks, Stage.PRE_UPDATE, pool, node);
        // On a single node the post-update gate is advisory: see PostUpdateHold.SINGLE_NODE.
        boolean postHooks = mode != PostUpdateHold.SINGLE_NODE && watched(hooks, Stage.POST_UPDATE, pool, node);
        String target = node.updating()
                ? node.desiredConfig()
                : pool != null && pool.rolling() ? pool.targetConfig() : node.currentConfig();
        boolean finished = node.done() && target != null && target.equals(node.currentConfig());

        Gate pre = target == null ? null : gates.apply(GateId.of(cluster, Stage.PRE_UPDATE, node.name(), target));
        boolean rolling = node.updating() || pool != null && pool.rolling();
        boolean gatePod = preHooks && rolling && !finished && !released(pre);

        String postId = node.desiredConfig() == null
                ? null
                : GateId.of(cluster, Stage.POST_UPDATE, node.name(), node.desiredConfig());
        Gate post = postId == null ? null : gates.apply(postId);
        // A node that finished while no gatekeeper ran has no post-update gate yet: held until its
        // gate is requested and released, not released for want of a gate. So is one the gatekeeper
        // tainted and whose pool has since come to rest (the last of a rollout): its gate is on its way
        // from Kafka, or, older than the read-back, asked for again late (BridgeState).
        boolean postOpen = post != null
                ? !post.released()
                : postHooks
                        && node.done()
                        && (node.gateTainted()
                                || pool != null
                                        && pool.rolling()
                                        && pool.targetConfig().equals(node.currentConfig()));
        boolean taint = postHooks && (node.updating() || postOpen) && !released(post);
        boolean uncordonRequested = node.desiredConfig() != null
                && (McoApi.UNCORDON_PREFIX + node.desiredConfig()).equals(node.desiredDrain());
        boolean inFlight = node.updating() || !McoApi.STATE_DONE.equals(node.state());
        boolean cordon;
        if (mode == PostUpdateHold.ADMISSION) {
            // Drained: the drain controller's cordon stays, kube-apiserver refuses its uncordon.
            // Not drained: cordoned once Done, never before (the MCD would redo the update).
            cordon = postHooks && !released(post) && postOpen && node.done();
        } else if (required(pool)) {
            cordon = false;
        } else {
            cordon = postHooks
                    && !released(post)
                    && (uncordonRequested && inFlight || postOpen && (uncordonRequested || node.done()));
        }
        boolean hold = mode == PostUpdateHold.ADMISSION && taint;
        return new NodeLevers(gatePod, taint, cordon, postId, hold);
    }

    /**
     * Whether the pool should be paused; {@code null} when the gatekeeper has no say over it (no
     * pool-pre-update or pre-update hook, and no failed post-update gate asking for a pause).
     *
     * @param gatePodReady whether a node's gate pod and its budget exist
     * @param drains whether a node's change to the pool's target is known to drain it (by the MCO's
     *     rules, see {@code ChangeClassifier}); one that does not, or is not known to, cannot be held
     *     by its gate pod
     */
    public static Boolean poolPaused(
            String cluster,
            PoolView pool,
            List<NodeView> nodes,
            Collection<RegisteredHook> hooks,
            Function<String, Gate> gates,
            Predicate<String> gatePodReady,
            Predicate<NodeView> drains,
            PostUpdateHold mode) {
        boolean pacing = mode != PostUpdateHold.SINGLE_NODE && !required(pool);
        for (NodeView node : nodes) {
            if (holdsPoolPaused(cluster, node, gates)
                    || pacing
                            && (mode == PostUpdateHold.ADMISSION
                                    ? exposed(cluster, pool, node, hooks, gates)
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
        if (!pool.rolling()) {
            return true;
        }
        if (poolHooks
                && !released(
                        gates.apply(GateId.of(cluster, Stage.POOL_PRE_UPDATE, pool.name(), pool.targetConfig())))) {
            return true;
        }
        for (NodeView node : nodes) {
            if (preUpdateHeldByPause(cluster, pool, node, hooks, gates, drains)) {
                return true;
            }
            if (node(cluster, pool, node, hooks, gates).gatePod() && !gatePodReady.test(node.name())) {
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

    private static boolean required(PoolView pool) {
        return pool != null && REQUIRED_POOL.equals(pool.name());
    }

    /** A failed post-update gate of a hook whose failure action is HoldAndPausePool. */
    private static boolean holdsPoolPaused(String cluster, NodeView node, Function<String, Gate> gates) {
        if (node.desiredConfig() == null) {
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

    private static boolean watched(Collection<RegisteredHook> hooks, Stage stage, PoolView pool, NodeView node) {
        String poolName = pool == null ? null : pool.name();
        return hooks.stream().anyMatch(h -> h.gates(stage, poolName) && h.selects(node.labels()));
    }

    private static boolean released(Gate gate) {
        return gate != null && gate.released();
    }
}
