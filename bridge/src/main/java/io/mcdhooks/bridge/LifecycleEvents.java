package io.mcdhooks.bridge;

import io.mcdhooks.bridge.gate.PoolSchedules;
import io.mcdhooks.bridge.mco.McnView;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.bridge.publish.EventIds;
import io.mcdhooks.bridge.publish.Outgoing;
import io.mcdhooks.bridge.watch.Observed;
import io.mcdhooks.schemas.LifecycleEvent;
import io.mcdhooks.schemas.Transition;
import java.time.Instant;
import java.util.Set;

/** The lifecycle events of a cluster's nodes and pools, each with its name-based id. Pure. */
final class LifecycleEvents {

    private final String cluster;
    /** Whether pool events carry the pool's schedule: only where the gatekeeper enforces it. */
    private final boolean schedules;

    LifecycleEvents(String cluster, boolean schedules) {
        this.cluster = cluster;
        this.schedules = schedules;
    }

    /** A node gone while its update was under way. */
    Outgoing nodeDeleted(String name, String uid, String target, Observed o, Instant now) {
        LifecycleEvent event = new LifecycleEvent(
                cluster,
                new LifecycleEvent.ObjectRef(LifecycleEvent.ObjectRef.Kind.Node, name, uid, null),
                McoApi.poolOfRenderedConfig(target),
                o.transition(),
                null,
                target,
                null,
                null,
                null,
                null,
                null,
                now,
                o.late(),
                null);
        return new Outgoing(event, lifecycleId("Node", uid == null ? name : uid, o), now);
    }

    Outgoing node(NodeView node, String pool, Observed o, Instant now) {
        LifecycleEvent event = new LifecycleEvent(
                cluster,
                new LifecycleEvent.ObjectRef(
                        LifecycleEvent.ObjectRef.Kind.Node, node.name(), node.uid(), node.resourceVersion()),
                pool,
                o.transition(),
                node.currentConfig(),
                node.desiredConfig(),
                node.currentImage(),
                node.desiredImage(),
                clip(node.state(), 64),
                clip(
                        o.transition() == Transition.DEGRADED || o.transition() == Transition.RECOVERED
                                ? o.discriminator()
                                : node.reason(),
                        2048),
                condition(node.mcn(), o.transition()),
                now,
                o.late(),
                null);
        return new Outgoing(event, lifecycleId("Node", node.uid() == null ? node.name() : node.uid(), o), now);
    }

    Outgoing pool(PoolView pool, Observed o, Instant now) {
        LifecycleEvent event = new LifecycleEvent(
                cluster,
                new LifecycleEvent.ObjectRef(
                        LifecycleEvent.ObjectRef.Kind.MachineConfigPool,
                        pool.name(),
                        pool.uid(),
                        pool.resourceVersion()),
                pool.name(),
                o.transition(),
                pool.currentConfig(),
                pool.targetConfig(),
                null,
                null,
                null,
                o.transition() == Transition.POOL_DEGRADED ? clip(o.discriminator(), 2048) : null,
                null,
                now,
                o.late(),
                schedules ? schedule(pool, now) : null);
        return new Outgoing(
                event, lifecycleId("MachineConfigPool", pool.uid() == null ? pool.name() : pool.uid(), o), now);
    }

    /** The pool's update windows, freeze and pause as its annotations read now; null without any. */
    private static LifecycleEvent.Schedule schedule(PoolView pool, Instant now) {
        PoolSchedules.Status status = PoolSchedules.status(pool, now);
        return status.scheduled()
                ? new LifecycleEvent.Schedule(status.state().label(), clip(status.description(), 2048))
                : null;
    }

    private String lifecycleId(String kind, String object, Observed o) {
        return EventIds.lifecycle(
                cluster, kind, object, o.target(), o.transition().wire(), o.discriminator());
    }

    /** The MachineConfigNode condition that shows a transition, where the cluster serves one. */
    private static LifecycleEvent.Condition condition(McnView mcn, Transition transition) {
        if (mcn == null) {
            return null;
        }
        String type = switch (transition) {
            case WORKING -> McnView.UPDATE_PREPARED;
            case DRAIN_REQUESTED -> McnView.UPDATE_EXECUTED;
            case CORDONED -> McnView.CORDONED;
            case DRAINED -> McnView.DRAINED;
            case APPLIED -> McnView.APPLIED_FILES_AND_OS;
            case REBOOTING -> McnView.REBOOTED_NODE;
            case RESUMED -> McnView.RESUMED;
            case UNCORDON_REQUESTED -> McnView.UPDATE_COMPLETE;
            case UNCORDONED -> McnView.UNCORDONED;
            case DONE -> McnView.UPDATED;
            case DEGRADED, RECOVERED -> McnView.NODE_DEGRADED;
            default -> null;
        };
        McnView.Condition c = type == null ? null : mcn.conditions().get(type);
        if (c == null || !Set.of("True", "False", "Unknown").contains(c.status())) {
            return null;
        }
        return new LifecycleEvent.Condition(c.type(), c.status(), clip(c.reason(), 256), clip(c.message(), 2048));
    }

    /** Cuts text the cluster wrote to the wire contract's limit: a real cluster's text is not ours to vouch for. */
    private static String clip(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max);
    }
}
