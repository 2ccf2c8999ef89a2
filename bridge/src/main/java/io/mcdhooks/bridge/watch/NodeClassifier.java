package io.mcdhooks.bridge.watch;

import io.mcdhooks.bridge.mco.McnView;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.schemas.Transition;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Turns what is known about a node and its state now into the transitions to publish.
 *
 * <p>Level-triggered: the input is a state, not an edge. Each milestone of an update is
 * recognised from evidence in the node's annotations, its cordon and its MachineConfigNode, and
 * the milestones that must have come before one that is seen are added, as long as they always
 * come before it (a drain does not always come before a reboot: single-node pools skip it). So a
 * missed watch event, or a bridge that was down, loses nothing: what happened is published late.
 * The order of milestones is the order of {@link Transition}'s constants.
 *
 * <p>Pure: no I/O, no clock.
 */
public final class NodeClassifier {

    private static final List<Transition> UPDATE_ORDER = List.of(
            Transition.UPDATE_ASSIGNED,
            Transition.WORKING,
            Transition.DRAIN_REQUESTED,
            Transition.CORDONED,
            Transition.DRAINED,
            Transition.APPLIED,
            Transition.REBOOTING,
            Transition.RESUMED,
            Transition.UNCORDON_REQUESTED,
            Transition.UNCORDONED,
            Transition.DONE);

    private NodeClassifier() {}

    /** Transitions between two observed states of a node (a watch update). */
    public static List<Observed> classify(NodeView old, NodeView now) {
        NodeProgress prior = NodeProgress.NONE;
        if (old != null) {
            for (Observed o : classify(NodeProgress.NONE, old, true)) {
                prior = prior.after(o);
            }
        }
        return classify(prior, now, old == null);
    }

    /**
     * Transitions to publish, given what was already published ({@code prior}) and the node now
     * ({@code null}: deleted).
     *
     * @param initial the bridge has just (re)started or listed: everything found is late
     */
    public static List<Observed> classify(NodeProgress prior, NodeView now, boolean initial) {
        List<Observed> out = new ArrayList<>();
        if (now == null) {
            if (prior.target() != null && !prior.reached().contains(Transition.DONE)) {
                out.add(new Observed(Transition.DELETED, prior.target(), initial, ""));
            }
            return out;
        }
        if (!now.managed()) {
            return out;
        }
        String target = now.target();
        Set<Transition> known = target != null && target.equals(prior.target()) ? prior.reached() : Set.of();
        Set<Transition> evidence = milestones(now, prior);
        List<Transition> fresh = UPDATE_ORDER.stream()
                .filter(evidence::contains)
                .filter(t -> !known.contains(t))
                .toList();
        for (int i = 0; i < fresh.size(); i++) {
            // Only the furthest milestone can have just happened; any before it was missed.
            boolean late = initial || i < fresh.size() - 1;
            out.add(new Observed(fresh.get(i), target, late, ""));
        }
        if (now.degraded()) {
            if (!now.reason().equals(prior.degradedReason())) {
                out.add(new Observed(Transition.DEGRADED, target, initial, now.reason()));
            }
        } else if (prior.degradedReason() != null) {
            out.add(new Observed(Transition.RECOVERED, target, initial, prior.degradedReason()));
        }
        return out;
    }

    /** The milestones of the node's current update that its state shows, with their certain predecessors. */
    static Set<Transition> milestones(NodeView node, NodeProgress prior) {
        String config = node.desiredConfig();
        boolean tracked = prior.tracks(node.target());
        EnumSet<Transition> seen = EnumSet.noneOf(Transition.class);
        if (!node.updating() && !tracked) {
            // At rest, or finished an update the bridge never saw start: nothing to tell.
            return seen;
        }
        seen.addAll(tracked ? prior.reached() : Set.of());
        if (node.updating()) {
            seen.add(Transition.UPDATE_ASSIGNED);
            if (McoApi.STATE_WORKING.equals(node.state())) {
                seen.add(Transition.WORKING);
            }
        }
        // In image mode the config may stay put while the image moves; the drain annotations then
        // still name the config the node already runs and say nothing about this update.
        boolean configMoves =
                config != null && (!config.equals(node.currentConfig()) || tracked && node.desiredImage() == null);
        if (configMoves) {
            String drain = McoApi.DRAIN_PREFIX + config;
            String uncordon = McoApi.UNCORDON_PREFIX + config;
            if (drain.equals(node.desiredDrain()) && node.unschedulable()) {
                seen.add(Transition.CORDONED);
            }
            if (drain.equals(node.desiredDrain())) {
                seen.add(Transition.DRAIN_REQUESTED);
            }
            if (drain.equals(node.lastAppliedDrain())) {
                seen.add(Transition.DRAINED);
            }
            if (uncordon.equals(node.desiredDrain())) {
                seen.add(Transition.UNCORDON_REQUESTED);
            }
            if (uncordon.equals(node.lastAppliedDrain())) {
                seen.add(Transition.UNCORDONED);
            }
        }
        if (node.rebooting() && node.updating()) {
            seen.add(Transition.REBOOTING);
        }
        // Back from the reboot: the MCD cleared post-config-action after boot.
        if (seen.contains(Transition.REBOOTING) && !node.rebooting() && !node.degraded()) {
            seen.add(Transition.RESUMED);
        }
        addMcnEvidence(node, seen);
        if (tracked && node.done()) {
            seen.add(Transition.DONE);
        }
        addPredecessors(seen);
        return seen;
    }

    private static void addMcnEvidence(NodeView node, EnumSet<Transition> seen) {
        McnView mcn = node.mcn();
        if (mcn == null || mcn.desiredConfig() == null || !mcn.desiredConfig().equals(node.desiredConfig())) {
            return;
        }
        if (mcn.isTrue(McnView.UPDATE_PREPARED)) {
            seen.add(Transition.WORKING);
        }
        if (mcn.isTrue(McnView.CORDONED)) {
            seen.add(Transition.CORDONED);
        }
        if (mcn.isTrue(McnView.DRAINED)) {
            seen.add(Transition.DRAINED);
        }
        if (mcn.isTrue(McnView.APPLIED_FILES_AND_OS) || mcn.isTrue(McnView.UPDATE_EXECUTED)) {
            seen.add(Transition.APPLIED);
        }
        if (mcn.isTrue(McnView.REBOOTED_NODE) || mcn.isUnknown(McnView.REBOOTED_NODE)) {
            // Unknown: rebooting now; True: rebooted. Either way it outlives the reboot itself,
            // until the update completes, unlike post-config-action.
            seen.add(Transition.REBOOTING);
        }
        if (mcn.isTrue(McnView.RESUMED)
                || mcn.isTrue(McnView.REBOOTED_NODE)
                || mcn.isTrue(McnView.UPDATE_POST_ACTION_COMPLETE)) {
            seen.add(Transition.RESUMED);
        }
        if (mcn.isTrue(McnView.UNCORDONED)) {
            seen.add(Transition.UNCORDONED);
        }
    }

    /** Adds what always precedes a milestone; never a drain step from a later one (single-node pools skip drains). */
    private static void addPredecessors(EnumSet<Transition> seen) {
        if (seen.contains(Transition.UNCORDONED)) {
            seen.add(Transition.UNCORDON_REQUESTED);
        }
        if (seen.contains(Transition.DONE)) {
            seen.add(Transition.RESUMED);
            if (seen.contains(Transition.DRAIN_REQUESTED)) {
                // The MCD uncordons whatever it drained before it reports Done.
                seen.add(Transition.UNCORDON_REQUESTED);
                seen.add(Transition.UNCORDONED);
            }
        }
        if (seen.contains(Transition.UNCORDON_REQUESTED)) {
            seen.add(Transition.RESUMED);
        }
        if (seen.contains(Transition.RESUMED) || seen.contains(Transition.REBOOTING)) {
            seen.add(Transition.APPLIED);
        }
        if (seen.contains(Transition.DRAIN_REQUESTED) && seen.contains(Transition.APPLIED)) {
            // The MCD applies only once the drain it requested is done.
            seen.add(Transition.DRAINED);
        }
        if (seen.contains(Transition.DRAINED)) {
            seen.add(Transition.CORDONED);
        }
        if (seen.contains(Transition.CORDONED)) {
            seen.add(Transition.DRAIN_REQUESTED);
        }
        if (seen.contains(Transition.DRAIN_REQUESTED) || seen.contains(Transition.APPLIED)) {
            seen.add(Transition.WORKING);
        }
        if (seen.contains(Transition.WORKING)) {
            seen.add(Transition.UPDATE_ASSIGNED);
        }
    }
}
