package io.mcdhooks.bridge.gate;

import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.Stage;
import java.util.Collection;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Which levers of a stock cluster the gatekeeper wants pulled, given the pools, nodes, hooks and
 * gates: pure, so it can be checked against any state. The levers (see the MCO contract):
 * <ul>
 * <li><b>pool pause</b> ({@link PausePlan}) for pools with pool-pre-update or pre-update hooks:
 *     paused at rest; when a new target config comes, paused until its pool-pre-update gate is
 *     released and every node that a pre-update hook watches has its gate pod, or, where the
 *     node's change will not drain (it would never meet its gate pod), its pre-update gate
 *     released; paused again once the rollout is done. Never the master pool for these gates
 *     ({@link Enforcement}). For pools with post-update hooks and without the policy, also paused
 *     while a node assigned the target has not had its post-update gate released (batch pacing).
 * <li><b>gate pod</b> (covered by a PodDisruptionBudget that allows no eviction) on each node a
 *     pre-update hook watches, from the start of a rollout until the node's pre-update gate is
 *     released: the MCD's drain cannot finish before. On a node a post-update hook watches and
 *     whose change drains, the pod also stays until the hold marker is on the node (a pre-update
 *     gate released before the node is assigned, the lookahead, or at once after it), or without
 *     the policy until its assignment: the pod is what stops an update that starts while no
 *     gatekeeper runs.
 * <li><b>post-update taint</b> ({@code NoSchedule}) on each node a post-update hook watches, from
 *     the moment it is assigned the update until its post-update gate is released: nothing lands
 *     on it between the MCD's uncordon and the verdict.
 * <li><b>cordon</b> from the MCD's uncordon request until the post-update gate is released, so
 *     the node keeps counting against maxUnavailable and a failed node halts the pool. It is
 *     wanted from the request on even if the gate has not been opened yet (its request may still
 *     be on its way): the MCD reports Done right after the uncordon.
 * <li><b>hold marker</b> ({@link GateObjects#HOLD}), where the cluster enforces it
 *     ({@link PostUpdateHold#ADMISSION}): set with the taint at assignment, so the drain
 *     controller's own cordon stays until release and no re-cordon and no pause are needed (for a
 *     node whose pre-update gate passed before its assignment, from that moment on); a
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

    /** The levers without the admission policy ({@link PostUpdateHold#BATCH_PACING}), for a change that drains. */
    public static NodeLevers node(
            String cluster,
            PoolView pool,
            NodeView node,
            Collection<RegisteredHook> hooks,
            Function<String, Gate> gates) {
        return node(cluster, pool, node, hooks, gates, PostUpdateHold.BATCH_PACING, n -> true, g -> false);
    }

    /**
     * @param drains whether a node's change to its target is known to drain it (as in {@link
     *     PausePlan#poolPaused}): only then is its gate pod what holds it
     * @param handOver whether an open post-update gate has held its node at the uncordon handshake
     *     long enough, or has failed: see {@link #handsOver}
     */
    public static NodeLevers node(
            String cluster,
            PoolView pool,
            NodeView node,
            Collection<RegisteredHook> hooks,
            Function<String, Gate> gates,
            PostUpdateHold mode,
            Predicate<NodeView> drains,
            Predicate<Gate> handOver) {
        boolean preHooks = watched(hooks, Stage.PRE_UPDATE, pool, node);
        // On a single node the post-update gate is advisory: see PostUpdateHold.SINGLE_NODE.
        boolean postHooks = mode != PostUpdateHold.SINGLE_NODE && watched(hooks, Stage.POST_UPDATE, pool, node);
        // A pool going back to the config it reports (a change reverted mid-rollout) moves as one
        // that rolls: a node still on the reverted config is on its way back, not finished.
        boolean moving = pool != null && (pool.rolling() || pool.reverting());
        String target = node.updating() ? node.desiredConfig() : moving ? pool.targetConfig() : node.currentConfig();
        boolean finished = node.done() && target != null && target.equals(node.currentConfig());

        Gate pre = target == null ? null : gates.apply(GateId.of(cluster, Stage.PRE_UPDATE, node.name(), target));
        boolean rolling = node.updating() || moving;
        // Not assigned yet, in a rolling pool: its pre-update gate may have been asked for, and passed,
        // before the MCC takes it (BridgeState's lookahead). Where the change drains and the policy
        // holds post-update gates, it is then marked and tainted for its coming post-update gate at
        // once, so that its gate pod can go before its drain begins. (A change that does not drain
        // is marked at its assignment, as before: its gate pod holds nothing.)
        boolean early = rolling && !node.updating() && !finished && !target.equals(node.desiredConfig());
        boolean drained = drains.test(node);
        boolean earlyHold = mode == PostUpdateHold.ADMISSION
                && early
                && drained
                && postHooks
                && released(pre)
                && !released(gates.apply(GateId.of(cluster, Stage.POST_UPDATE, node.name(), target)));
        String postId = earlyHold
                ? GateId.of(cluster, Stage.POST_UPDATE, node.name(), target)
                : node.desiredConfig() == null
                        ? null
                        : GateId.of(cluster, Stage.POST_UPDATE, node.name(), node.desiredConfig());
        Gate post = postId == null ? null : gates.apply(postId);
        // A node that finished while no gatekeeper ran has no post-update gate yet: held until its
        // gate is requested and released, not released for want of a gate. So is one the gatekeeper
        // tainted and whose pool has since come to rest (the last of a rollout): its gate is on its way
        // from Kafka, or, older than the read-back, asked for again late (BridgeState).
        // Not assigned yet: its post-update gate is not open; only the early hold stands.
        boolean postOpen = !early
                && (post != null
                        ? !post.released()
                        : postHooks
                                && node.done()
                                && (node.heldForUpdate()
                                        || pool != null
                                                && pool.rolling()
                                                && pool.targetConfig().equals(node.currentConfig())));
        boolean taint = postHooks && (node.updating() || postOpen || earlyHold) && !released(post);
        // Handed over: the marker goes (and with it the drain controller's cordon, in the same write)
        // once the pool is paused; the node is cordoned again, marked, as soon as the MCD is done.
        boolean handingOver = mode == PostUpdateHold.ADMISSION
                && postHooks
                && pool != null
                && pool.paused()
                && handsOver(cluster, pool, node, gates, handOver);
        boolean hold = mode == PostUpdateHold.ADMISSION && taint && !handingOver;
        // A released pre-update gate lets the pod go only once nothing but it would keep the node's
        // update from running through while no gatekeeper runs: where the policy holds, once the hold
        // marker is on the node (a marker written after the pod went, by a gatekeeper that died in
        // between, would never be); without it, not before the node is assigned and carries the
        // taint (uncordoned by the drain controller while no gatekeeper runs, a node without it would
        // take workloads before its post-update gate was even asked).
        boolean markerOn = postId != null && postId.equals(node.annotations().get(GateObjects.HOLD));
        boolean paced = mode == PostUpdateHold.BATCH_PACING && postHooks;
        boolean gatePod = preHooks
                && rolling
                && !finished
                && (!released(pre)
                        || drained
                                && !drainOver(node)
                                && (hold && !markerOn || paced && (early || taint && !node.gateTainted())));
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
        return new NodeLevers(gatePod, taint, cordon, postId, hold);
    }

    /**
     * Whether a node's post-update hold at its uncordon handshake is to be handed over: the drain
     * controller's uncordon is being refused (the node still cordoned under the {@link
     * GateObjects#HOLD} marker, its uncordon asked for and not done) and its gate, open, says so
     * ({@code handOver}: it failed, or has held long enough). Each refused uncordon keeps one of the
     * drain controller's five workers busy in its retries (0, 10, 30, 70, 150 s, then again), and
     * after 10 minutes the MCD turns the node Degraded; so a hold that will last is moved instead
     * to a cordon of the gatekeeper's once the MCD is done, as for a change that needs no drain:
     * the pool is paused first, the marker and cordon go in one write, the drain controller's next
     * try finds nothing to do, and the gatekeeper cordons the node, marked, once it is Done. Never
     * in the master pool, which is never paused for a hold.
     */
    public static boolean handsOver(
            String cluster, PoolView pool, NodeView node, Function<String, Gate> gates, Predicate<Gate> handOver) {
        String desired = node.desiredConfig();
        if (desired == null
                || required(pool)
                || !node.unschedulable()
                || !node.annotations().containsKey(GateObjects.HOLD)) {
            return false;
        }
        String uncordon = McoApi.UNCORDON_PREFIX + desired;
        if (!uncordon.equals(node.desiredDrain()) || uncordon.equals(node.lastAppliedDrain()) || node.done()) {
            return false;
        }
        Gate post = gates.apply(GateId.of(cluster, Stage.POST_UPDATE, node.name(), desired));
        return post != null && !post.released() && handOver.test(post);
    }

    /** Whether the node's drain for its update is done: a gate pod holds nothing any more. */
    private static boolean drainOver(NodeView node) {
        String desired = node.desiredConfig();
        if (desired == null || !node.updating()) {
            return false;
        }
        return (McoApi.DRAIN_PREFIX + desired).equals(node.lastAppliedDrain())
                || (McoApi.UNCORDON_PREFIX + desired).equals(node.desiredDrain())
                || (McoApi.UNCORDON_PREFIX + desired).equals(node.lastAppliedDrain());
    }

    static boolean required(PoolView pool) {
        return pool != null && REQUIRED_POOL.equals(pool.name());
    }

    static boolean watched(Collection<RegisteredHook> hooks, Stage stage, PoolView pool, NodeView node) {
        String poolName = pool == null ? null : pool.name();
        return hooks.stream().anyMatch(h -> h.gates(stage, poolName) && h.selects(node.labels()));
    }

    static boolean released(Gate gate) {
        return gate != null && gate.released();
    }
}
