package io.mcdhooks.bridge.gate;

import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.Stage;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;

/**
 * How close a held node is to the MCD's limit on what the hold stops it doing (see the MCO
 * contract): 10 minutes waiting for the uncordon it asked for (then FailedToUncordon, Degraded),
 * one hour waiting for its drain (FailedToDrain, Degraded). Both recover once the gate is released,
 * but a Degraded node turns its pool Degraded (and, for masters, the ClusterOperator not
 * Upgradeable): users must see it coming. The wait is measured from the gate's opening, which is
 * at or before the MCD's request, so the warning never comes later than the MCD's own clock. Pure.
 */
public final class HoldLimits {

    public static final String UNCORDON = "uncordon";
    public static final String DRAIN = "drain";
    public static final Duration UNCORDON_LIMIT = Duration.ofMinutes(10);
    public static final Duration DRAIN_LIMIT = Duration.ofHours(1);
    /** An Event once this little is left. */
    public static final Duration UNCORDON_WARNING = Duration.ofMinutes(3);

    public static final Duration DRAIN_WARNING = Duration.ofMinutes(15);

    private HoldLimits() {}

    /** A node a gate holds at an MCO limit: which, the gate, how long it held, and the time left. */
    public record Near(String node, String pool, String limit, String gateId, Duration held, Duration left) {
        /** Whether an Event should say it now. */
        public boolean warn() {
            return left.compareTo(limit.equals(UNCORDON) ? UNCORDON_WARNING : DRAIN_WARNING) <= 0;
        }
    }

    /**
     * The limit the node's hold stops it at now, or {@code null}: its uncordon handshake refused
     * for its {@link GateObjects#HOLD} marker, or its drain held by a gate pod.
     */
    public static Near of(String cluster, String pool, NodeView node, Function<String, Gate> gates, Instant now) {
        String desired = node.desiredConfig();
        if (desired == null) {
            return null;
        }
        String drain = node.desiredDrain();
        if (drain == null || drain.equals(node.lastAppliedDrain())) {
            return null;
        }
        if (drain.equals(McoApi.UNCORDON_PREFIX + desired)
                && node.unschedulable()
                && node.annotations().containsKey(GateObjects.HOLD)) {
            return near(cluster, pool, node, gates, now, Stage.POST_UPDATE, UNCORDON, UNCORDON_LIMIT);
        }
        if (drain.equals(McoApi.DRAIN_PREFIX + desired)) {
            return near(cluster, pool, node, gates, now, Stage.PRE_UPDATE, DRAIN, DRAIN_LIMIT);
        }
        return null;
    }

    private static Near near(
            String cluster,
            String pool,
            NodeView node,
            Function<String, Gate> gates,
            Instant now,
            Stage stage,
            String limit,
            Duration max) {
        String id = GateId.of(cluster, stage, node.name(), node.desiredConfig());
        Gate gate = gates.apply(id);
        if (gate == null || gate.released() || gate.openedAt() == null) {
            return null;
        }
        Duration held = Duration.between(gate.openedAt(), now);
        return new Near(node.name(), pool, limit, id, held, max.minus(held));
    }
}
