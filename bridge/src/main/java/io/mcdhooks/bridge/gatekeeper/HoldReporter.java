package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.Node;
import io.mcdhooks.bridge.gate.Gate;
import io.mcdhooks.bridge.gate.HoldLimits;
import io.mcdhooks.bridge.gate.PostUpdateHold;
import io.mcdhooks.bridge.gate.RegisteredHook;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.metrics.BridgeMetrics;
import io.mcdhooks.schemas.Stage;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Says how post-update gates hold and how close holds are to the MCO's limits: the metrics
 * {@code mcdhooks_post_update_hold_mode} and {@code mcdhooks_hold_limit_left_seconds}, an Event per
 * pool with post-update hooks when the mode is first known or changes, and one Warning Event per
 * held node that nears a limit ({@link HoldLimits}). Confined to the gatekeeper's event loop.
 */
final class HoldReporter {

    private final String clusterName;
    private final Cluster cluster;
    private final Function<String, Gate> gates;
    private final Supplier<Collection<RegisteredHook>> hooks;
    private final GateEvents events;
    private final BridgeMetrics metrics;
    private final Clock clock;
    /** "gate/limit" of the holds an Event warned about and that are still near their limit. */
    private Set<String> warned = new HashSet<>();

    HoldReporter(
            String clusterName,
            Cluster cluster,
            Function<String, Gate> gates,
            Supplier<Collection<RegisteredHook>> hooks,
            GateEvents events,
            BridgeMetrics metrics,
            Clock clock) {
        this.clusterName = clusterName;
        this.cluster = cluster;
        this.gates = gates;
        this.hooks = hooks;
        this.events = events;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** The mode became known or changed: an Event on each pool a post-update hook gates. */
    void modeChanged(PostUpdateHold mode) {
        postUpdatePools().forEach(pool -> events.holdMode(pool, mode));
        metrics.holdMode(postUpdatePools(), mode);
    }

    /** The gauges, and an Event for each hold newly near its limit. */
    void report(PostUpdateHold mode) {
        metrics.holdMode(postUpdatePools(), mode);
        Map<String, Map<String, Duration>> least = new HashMap<>();
        Set<String> near = new HashSet<>();
        for (Node node : cluster.nodes()) {
            NodeView view = cluster.view(node);
            String pool = cluster.poolOf(view);
            HoldLimits.Near hold = pool == null ? null : HoldLimits.of(clusterName, pool, view, gates, clock.instant());
            if (hold == null) {
                continue;
            }
            least.computeIfAbsent(pool, p -> new HashMap<>())
                    .merge(hold.limit(), hold.left(), (a, b) -> a.compareTo(b) <= 0 ? a : b);
            if (hold.warn()) {
                String key = hold.gateId() + "/" + hold.limit();
                near.add(key);
                if (!warned.contains(key)) {
                    events.nearLimit(hold);
                }
            }
        }
        warned = near;
        metrics.holdLimits(least);
    }

    /** Pools of the cluster's nodes that a post-update hook gates. */
    private Set<String> postUpdatePools() {
        Set<String> pools = new TreeSet<>();
        for (Node node : cluster.nodes()) {
            String pool = cluster.poolOf(cluster.view(node));
            if (pool != null && hooks.get().stream().anyMatch(h -> h.gates(Stage.POST_UPDATE, pool))) {
                pools.add(pool);
            }
        }
        return pools;
    }
}
