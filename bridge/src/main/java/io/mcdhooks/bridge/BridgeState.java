package io.mcdhooks.bridge;

import io.mcdhooks.bridge.mco.McnView;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.bridge.mco.RenderedConfig;
import io.mcdhooks.bridge.publish.EventIds;
import io.mcdhooks.bridge.publish.Outgoing;
import io.mcdhooks.bridge.watch.NodeClassifier;
import io.mcdhooks.bridge.watch.NodeProgress;
import io.mcdhooks.bridge.watch.Observed;
import io.mcdhooks.bridge.watch.PoolClassifier;
import io.mcdhooks.bridge.watch.PoolProgress;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.LifecycleEvent;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Transition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The bridge's memory and judgement, without I/O: what has been published about every node and
 * pool, and, for each new observation, the lifecycle events and gate requests to publish.
 *
 * <p>Gate requests open at the moments the gatekeeper can still act on a stock cluster:
 * {@code pool-pre-update} when a pool gets a new target config, {@code pre-update} when a node is
 * assigned the update (before its drain can finish), {@code post-update} when the node is back
 * from its reboot on the new config (before it is uncordoned). A gate request waits until the
 * facts hooks need (the pool, the target rendered config) are known; it is never dropped.
 *
 * <p>Not thread-safe: one event loop owns it.
 */
public final class BridgeState {

    private final String cluster;
    private final GatePolicy policy;
    private final Duration gateTimeout;
    private final Clock clock;

    private final Map<String, NodeProgress> nodes = new HashMap<>();
    private final Map<String, String> nodeUids = new HashMap<>();
    private final Map<String, PoolProgress> pools = new HashMap<>();
    private final Map<String, PoolView> poolViews = new HashMap<>();
    private final Map<String, RenderedConfig> renderedConfigs = new HashMap<>();
    /**
     * The latest attempt requested of each gate. A gate comes back (a rollback, then a roll
     * forward to a config seen before): its next request is a new attempt, which asks every hook
     * again, and verdicts for older attempts are stale.
     */
    private final Map<String, Integer> attempts = new HashMap<>();
    /** Gate requests waiting for their pool or rendered config, by gate id, in arrival order. */
    private final Map<String, PendingGate> pendingGates = new LinkedHashMap<>();
    /**
     * Gates whose opening transition was read back as published but whose request may not have
     * been (a crash between the two sends), by node or pool name. Settled when the object is next
     * seen: requested then if it was not, and if the object still waits at that gate.
     */
    private final Map<String, List<OwedGate>> owedGates = new HashMap<>();

    public BridgeState(String cluster, GatePolicy policy, Duration gateTimeout, Clock clock) {
        this.cluster = cluster;
        this.policy = policy;
        this.gateTimeout = gateTimeout;
        this.clock = clock;
    }

    /** Feeds back a lifecycle event published before a restart. */
    public void recover(LifecycleEvent event) {
        String target = event.toImage() == null
                ? event.toConfig()
                : event.toConfig() == null ? event.toImage() : event.toConfig() + "@" + event.toImage();
        String discriminator = event.transition() == Transition.DEGRADED ? event.reason() : "";
        Observed observed = new Observed(event.transition(), target, true, discriminator);
        String name = event.object().name();
        if (event.object().kind() == LifecycleEvent.ObjectRef.Kind.Node) {
            nodes.put(name, nodes.getOrDefault(name, NodeProgress.NONE).after(observed));
        } else {
            pools.put(name, pools.getOrDefault(name, PoolProgress.NONE).after(observed));
        }
        Stage stage = switch (event.transition()) {
            case NEW_TARGET_CONFIG -> Stage.POOL_PRE_UPDATE;
            case UPDATE_ASSIGNED -> Stage.PRE_UPDATE;
            case RESUMED -> Stage.POST_UPDATE;
            default -> null;
        };
        if (stage != null && event.toConfig() != null) {
            owedGates.computeIfAbsent(name, n -> new ArrayList<>()).add(new OwedGate(stage, event.toConfig()));
        }
    }

    /** Feeds back a gate request published before a restart. */
    public void recover(GateRequest request) {
        attempts.merge(request.gateId(), request.attempt(), Math::max);
    }

    public List<Outgoing> onPool(PoolView pool, boolean initial) {
        poolViews.put(pool.name(), pool);
        PoolProgress prior = pools.getOrDefault(pool.name(), PoolProgress.NONE);
        List<Observed> found = PoolClassifier.classify(prior, pool, initial);
        List<Outgoing> out = new ArrayList<>();
        Instant now = clock.instant();
        for (Observed o : found) {
            prior = prior.after(o);
            out.add(poolEvent(pool, o, now));
            if (o.transition() == Transition.NEW_TARGET_CONFIG && policy.gates(Stage.POOL_PRE_UPDATE, pool.name())) {
                requestGate(Stage.POOL_PRE_UPDATE, pool.name(), null, pool.targetConfig(), now, true);
            }
        }
        pools.put(pool.name(), prior);
        for (OwedGate owed : settleOwed(pool.name())) {
            if (owed.stage() == Stage.POOL_PRE_UPDATE
                    && owed.target().equals(pool.targetConfig())
                    && pool.rolling()
                    && policy.gates(Stage.POOL_PRE_UPDATE, pool.name())) {
                requestGate(Stage.POOL_PRE_UPDATE, pool.name(), null, pool.targetConfig(), now, false);
            }
        }
        out.addAll(releasePendingGates());
        return out;
    }

    public List<Outgoing> onNode(NodeView node, boolean initial) {
        nodeUids.put(node.name(), node.uid());
        NodeProgress prior = nodes.getOrDefault(node.name(), NodeProgress.NONE);
        List<Observed> found = NodeClassifier.classify(prior, node, initial);
        List<Outgoing> out = new ArrayList<>();
        Instant now = clock.instant();
        String pool = poolOf(node);
        for (Observed o : found) {
            prior = prior.after(o);
            out.add(nodeEvent(node, pool, o, now));
            Stage stage = switch (o.transition()) {
                case UPDATE_ASSIGNED -> Stage.PRE_UPDATE;
                case RESUMED -> Stage.POST_UPDATE;
                default -> null;
            };
            if (stage != null && pool != null && policy.gates(stage, pool)) {
                requestGate(stage, pool, node, node.desiredConfig(), now, true);
            }
        }
        nodes.put(node.name(), prior);
        for (OwedGate owed : settleOwed(node.name())) {
            // A pre-update gate matters while the update is under way, a post-update one until it is released.
            boolean waits = owed.stage() == Stage.POST_UPDATE || node.updating();
            if (waits
                    && owed.target().equals(node.desiredConfig())
                    && pool != null
                    && policy.gates(owed.stage(), pool)) {
                requestGate(owed.stage(), pool, node, node.desiredConfig(), now, false);
            }
        }
        out.addAll(releasePendingGates());
        return out;
    }

    private List<OwedGate> settleOwed(String name) {
        List<OwedGate> owed = owedGates.remove(name);
        return owed == null ? List.of() : owed;
    }

    public List<Outgoing> onNodeDeleted(String name) {
        NodeProgress prior = nodes.remove(name);
        if (prior == null) {
            return List.of();
        }
        List<Outgoing> out = new ArrayList<>();
        for (Observed o : NodeClassifier.classify(prior, null, false)) {
            LifecycleEvent event = new LifecycleEvent(
                    cluster,
                    new LifecycleEvent.ObjectRef(LifecycleEvent.ObjectRef.Kind.Node, name, nodeUids.get(name), null),
                    McoApi.poolOfRenderedConfig(prior.target()),
                    o.transition(),
                    null,
                    prior.target(),
                    null,
                    null,
                    null,
                    null,
                    null,
                    clock.instant(),
                    o.late());
            out.add(new Outgoing(event, lifecycleId("Node", nodeUids.getOrDefault(name, name), o), clock.instant()));
        }
        nodeUids.remove(name);
        return out;
    }

    public List<Outgoing> onRenderedConfig(RenderedConfig config) {
        renderedConfigs.put(config.name(), config);
        return releasePendingGates();
    }

    /** Gate requests still waiting for facts, for readiness reporting. */
    public int pendingGateCount() {
        return pendingGates.size();
    }

    /**
     * Requests a gate. {@code observed}: its opening transition was just seen, so this is a new
     * request of the gate, one attempt past any before. Otherwise (a request owed since before a
     * restart) only a gate never requested is.
     */
    private void requestGate(
            Stage stage, String pool, NodeView node, String targetConfig, Instant now, boolean observed) {
        if (targetConfig == null) {
            return;
        }
        String subject = node == null ? pool : node.name();
        String gateId = GateId.of(cluster, stage, subject, targetConfig);
        Integer last = attempts.get(gateId);
        if (pendingGates.containsKey(gateId) || (!observed && last != null)) {
            return;
        }
        int attempt = last == null ? 1 : last + 1;
        pendingGates.put(gateId, new PendingGate(gateId, attempt, stage, pool, node, targetConfig, now));
    }

    private List<Outgoing> releasePendingGates() {
        List<Outgoing> out = new ArrayList<>();
        var it = pendingGates.values().iterator();
        while (it.hasNext()) {
            PendingGate gate = it.next();
            Optional<GateRequest> request = build(gate);
            if (request.isPresent()) {
                it.remove();
                attempts.put(gate.gateId(), gate.attempt());
                out.add(new Outgoing(
                        request.get(), EventIds.gateRequest(gate.gateId(), gate.attempt()), gate.requestedAt()));
            }
        }
        return out;
    }

    private Optional<GateRequest> build(PendingGate gate) {
        PoolView pool = poolViews.get(gate.pool());
        RenderedConfig target = renderedConfigs.get(gate.targetConfig());
        if (pool == null || target == null) {
            return Optional.empty();
        }
        NodeView node = gate.node();
        GateRequest.NodeFacts nodeFacts =
                node == null ? null : new GateRequest.NodeFacts(node.name(), node.zone(), node.labels());
        String current = node == null ? pool.currentConfig() : node.currentConfig();
        return Optional.of(new GateRequest(
                cluster,
                gate.gateId(),
                gate.attempt(),
                gate.stage(),
                new GateRequest.PoolFacts(pool.name(), pool.maxUnavailable(), pool.machineCount()),
                nodeFacts,
                current,
                gate.targetConfig(),
                new GateRequest.TargetFacts(
                        target.osImageURL(),
                        target.kernelType(),
                        target.extensions(),
                        target.kernelArguments(),
                        node == null ? null : node.desiredImage()),
                gate.requestedAt(),
                gate.requestedAt().plus(policy.deadline(gate.stage(), pool.name(), gateTimeout))));
    }

    /**
     * The node's pool: its MachineConfigNode says so where there is one; otherwise the pool whose
     * selector matches (a custom pool wins over {@code worker}, as in the MCO); otherwise the
     * pool named in its desired rendered config.
     */
    public String poolOf(NodeView node) {
        McnView mcn = node.mcn();
        if (mcn != null && mcn.pool() != null) {
            return mcn.pool();
        }
        String match = null;
        for (PoolView pool : poolViews.values()) {
            if (pool.selects(node.labels()) && (match == null || "worker".equals(match))) {
                match = pool.name();
            }
        }
        return match != null ? match : McoApi.poolOfRenderedConfig(node.desiredConfig());
    }

    private Outgoing nodeEvent(NodeView node, String pool, Observed o, Instant now) {
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
                o.late());
        return new Outgoing(event, lifecycleId("Node", node.uid() == null ? node.name() : node.uid(), o), now);
    }

    private Outgoing poolEvent(PoolView pool, Observed o, Instant now) {
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
                o.late());
        return new Outgoing(
                event, lifecycleId("MachineConfigPool", pool.uid() == null ? pool.name() : pool.uid(), o), now);
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

    private record PendingGate(
            String gateId,
            int attempt,
            Stage stage,
            String pool,
            NodeView node,
            String targetConfig,
            Instant requestedAt) {}

    private record OwedGate(Stage stage, String target) {}
}
