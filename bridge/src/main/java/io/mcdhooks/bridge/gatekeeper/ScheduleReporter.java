package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.mcdhooks.bridge.gate.PoolSchedules;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.Views;
import io.mcdhooks.bridge.metrics.BridgeMetrics;
import java.time.Clock;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps {@link PoolSchedules} up to date from the pools and nodes the gatekeeper sees, and says
 * when a pool's schedule opens, closes or cannot be read: a log line, an Event on the pool and
 * the {@code mcdhooks_pool_schedule} gauge. The pause itself is {@link LeverReconciler}'s.
 * Confined to the gatekeeper's event loop.
 */
final class ScheduleReporter {

    private static final Logger LOG = LoggerFactory.getLogger(ScheduleReporter.class);

    private final Cluster cluster;
    private final PoolSchedules schedules;
    private final GateEvents events;
    private final BridgeMetrics metrics;
    private final Clock clock;

    ScheduleReporter(Cluster cluster, PoolSchedules schedules, GateEvents events, BridgeMetrics metrics, Clock clock) {
        this.cluster = cluster;
        this.schedules = schedules;
        this.events = events;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** Each pool's schedule now, for the status page. */
    Map<String, PoolSchedules.Status> statuses() {
        return schedules.statuses(clock.instant());
    }

    void poolChanged(GenericKubernetesResource pool) {
        schedules.pool(Views.pool(pool), clock.instant()).ifPresent(this::report);
    }

    void nodeChanged(Node node) {
        NodeView view = cluster.view(node);
        schedules.node(cluster.poolOf(view), view, clock.instant());
    }

    void nodeDeleted(Node node) {
        schedules.nodeDeleted(node.getMetadata().getName(), clock.instant());
    }

    /** Time passed: windows open and close, pauses end. */
    void tick() {
        schedules.tick(clock.instant()).forEach(this::report);
        metrics.schedules(schedules.states(clock.instant()));
    }

    private void report(PoolSchedules.Change change) {
        if (change.state() == PoolSchedules.State.INVALID) {
            LOG.atWarn()
                    .addKeyValue("pool", change.pool())
                    .log(
                            "the pool's schedule does not parse, so it takes no new node until it is fixed: {}",
                            change.description());
        } else {
            LOG.atInfo()
                    .addKeyValue("pool", change.pool())
                    .addKeyValue("schedule", change.state().label())
                    .log("{}", change.description());
        }
        events.schedule(change);
    }
}
