package io.mcdhooks.bridge;

import io.mcdhooks.bridge.mco.ChangeClassifier;
import io.mcdhooks.bridge.mco.McnView;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.bridge.mco.RenderedConfig;
import io.mcdhooks.bridge.mco.RenderedConfigs;
import io.mcdhooks.bridge.publish.EventIds;
import io.mcdhooks.bridge.publish.Outgoing;
import io.mcdhooks.bridge.watch.NodeClassifier;
import io.mcdhooks.bridge.watch.NodeProgress;
import io.mcdhooks.bridge.watch.Observed;
import io.mcdhooks.bridge.watch.PoolClassifier;
import io.mcdhooks.bridge.watch.PoolProgress;
import io.mcdhooks.mco.disruption.NodeDisruptionPolicy;
import io.mcdhooks.mco.nodes.CandidateOrder;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.LifecycleEvent;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Transition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
    private final int lookaheadBatches;
    private final Clock clock;

    private final LifecycleEvents events;
    private final Map<String, NodeProgress> nodes = new HashMap<>();
    private final Map<String, String> nodeUids = new HashMap<>();
    private final Map<String, PoolProgress> pools = new HashMap<>();
    private final Map<String, PoolView> poolViews = new HashMap<>();
    private final RenderedConfigs renderedConfigs = new RenderedConfigs();
    /** The latest view of every node, for pre-update gates requested before the node is assigned. */
    private final Map<String, NodeView> nodeViews = new HashMap<>();
    /** Per pool, the target whose early pre-update gates were last requested for every node. */
    private final Map<String, String> earlyGatesFor = new HashMap<>();
    /**
     * Pre-update gates requested early (before their node is assigned): the node's assignment is
     * the same opening, not a new attempt.
     */
    private final Set<String> openedEarly = new HashSet<>();
    /**
     * Read back after a restart: the pre-update requests, and the assignments ("node target") that
     * were published. A request read back whose node's assignment to that target was not is one
     * asked early, before a restart forgot {@link #openedEarly}: the assignment seen now is still
     * its opening. (The two topics are read back interleaved, so this is settled at the assignment.)
     */
    private final Set<String> recoveredPreUpdate = new HashSet<>();

    private final Set<String> recoveredAssignments = new HashSet<>();
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

    /**
     * @param lookaheadBatches how many batches of a rolling pool's next nodes get their pre-update
     *     gate before they are assigned, where the change drains ({@code MCDHOOKS_PRE_UPDATE_LOOKAHEAD})
     */
    public BridgeState(String cluster, GatePolicy policy, Duration gateTimeout, int lookaheadBatches, Clock clock) {
        this.cluster = cluster;
        this.events = new LifecycleEvents(cluster, policy.enforcesSchedules());
        this.policy = policy;
        this.gateTimeout = gateTimeout;
        this.lookaheadBatches = lookaheadBatches;
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
        if (stage == Stage.PRE_UPDATE && event.toConfig() != null) {
            recoveredAssignments.add(name + " " + event.toConfig());
        }
    }

    /** Feeds back a gate request published before a restart. */
    public void recover(GateRequest request) {
        attempts.merge(request.gateId(), request.attempt(), Math::max);
        if (request.stage() == Stage.PRE_UPDATE && request.node() != null) {
            recoveredPreUpdate.add(request.gateId());
        }
    }

    public List<Outgoing> onPool(PoolView pool, boolean initial) {
        poolViews.put(pool.name(), pool);
        PoolProgress prior = pools.getOrDefault(pool.name(), PoolProgress.NONE);
        List<Observed> found = PoolClassifier.classify(prior, pool, initial);
        List<Outgoing> out = new ArrayList<>();
        Instant now = clock.instant();
        for (Observed o : found) {
            prior = prior.after(o);
            out.add(events.pool(pool, o, now));
            if (o.transition() == Transition.NEW_TARGET_CONFIG && policy.gates(Stage.POOL_PRE_UPDATE, pool.name())) {
                requestGate(Stage.POOL_PRE_UPDATE, pool.name(), null, pool.targetConfig(), now, true);
            }
        }
        pools.put(pool.name(), prior);
        if (!Objects.equals(earlyGatesFor.get(pool.name()), pool.targetConfig())) {
            earlyGatesFor.put(pool.name(), pool.targetConfig());
            // A new target seen now (not one found at start) is a new rollout: its early gates are new attempts.
            boolean newRollout = found.stream().anyMatch(o -> o.transition() == Transition.NEW_TARGET_CONFIG);
            requestOffCycleGates(pool, nodeViews.values(), now, newRollout);
        }
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
        nodeViews.put(node.name(), node);
        NodeProgress prior = nodes.getOrDefault(node.name(), NodeProgress.NONE);
        List<Observed> found = NodeClassifier.classify(prior, node, initial);
        List<Outgoing> out = new ArrayList<>();
        Instant now = clock.instant();
        String pool = poolOf(node);
        for (Observed o : found) {
            prior = prior.after(o);
            out.add(events.node(node, pool, o, now));
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
        PoolView poolView = pool == null ? null : poolViews.get(pool);
        if (poolView != null) {
            requestOffCycleGates(poolView, List.of(node), now, false);
            if (found.stream().anyMatch(o -> o.transition() == Transition.UPDATE_ASSIGNED)) {
                // The MCC took a node: the next in line move up into the lookahead.
                requestOffCycleGates(poolView, nextInLine(poolView), now, false);
            }
        }
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
        nodeViews.remove(name);
        NodeProgress prior = nodes.remove(name);
        if (prior == null) {
            return List.of();
        }
        List<Outgoing> out = new ArrayList<>();
        for (Observed o : NodeClassifier.classify(prior, null, false)) {
            out.add(events.nodeDeleted(name, nodeUids.get(name), prior.target(), o, clock.instant()));
        }
        nodeUids.remove(name);
        return out;
    }

    public List<Outgoing> onRenderedConfig(RenderedConfig config) {
        return renderedConfigs.put(config) ? reclassify() : releasePendingGates();
    }

    /** The cluster's node disruption policy changed (null: not published, or not served). */
    public List<Outgoing> onDisruptionPolicy(NodeDisruptionPolicy policy) {
        renderedConfigs.policy(policy);
        return reclassify();
    }

    /** What a change does may have changed: early gates dropped as draining are asked for again. */
    private List<Outgoing> reclassify() {
        earlyGatesFor.clear();
        Instant now = clock.instant();
        for (PoolView pool : poolViews.values()) {
            earlyGatesFor.put(pool.name(), pool.targetConfig());
            requestOffCycleGates(pool, nodeViews.values(), now, false);
        }
        return releasePendingGates();
    }

    /**
     * What moving a node from rendered config {@code from} to {@code to} does, by the MCO's rules;
     * null when the bridge cannot tell (policy or a config not read yet).
     */
    public GateRequest.Disruption disruption(String from, String to) {
        return renderedConfigs.disruption(from, to);
    }

    /**
     * Gates that open apart from a transition, for the nodes of a rolling pool:
     * <ul>
     *   <li>an <b>early</b> pre-update gate, with the pool's new target, before the node is
     *       assigned: a change that will not drain is applied as soon as the MCC assigns it, so its
     *       gate must have passed by then (the pool stays paused until it has, see {@code
     *       LeverPlan}). Whether the change drains is settled when the request's facts are known
     *       ({@link #releasePendingGates}): one that drains is held by its gate pod, so its gate is
     *       asked for early only for the nodes the MCC takes next ({@link #nextInLine}), and
     *       otherwise at assignment;
     *   <li>a <b>late</b> post-update gate for a node found Done on the target that the bridge never
     *       saw update (installed mid-rollout, or past its read-back): the levers hold it from the
     *       moment it is seen, and this gate is what releases it. Also once the pool is at rest, for a
     *       node still carrying the gatekeeper's taint: the levers lift it only for a released gate.
     * </ul>
     */
    private void requestOffCycleGates(PoolView pool, Collection<NodeView> candidates, Instant now, boolean newRollout) {
        String target = pool.targetConfig();
        if (target == null) {
            return;
        }
        // Going back to the config it reports is a rollout too: its nodes' pre-update gates are new attempts.
        boolean pre = (pool.rolling() || pool.reverting()) && policy.gates(Stage.PRE_UPDATE, pool.name());
        boolean post = policy.gates(Stage.POST_UPDATE, pool.name());
        for (NodeView node : candidates) {
            if ((!pre && !post) || !pool.name().equals(poolOf(node))) {
                continue;
            }
            if (pre && !target.equals(node.currentConfig()) && !target.equals(node.desiredConfig())) {
                pendGate(Stage.PRE_UPDATE, pool.name(), node, target, now, Timing.EARLY, newRollout);
            } else if (post
                    && (pool.rolling() || node.heldForUpdate())
                    && node.done()
                    && target.equals(node.currentConfig())
                    && !tracked(node, target)) {
                pendGate(Stage.POST_UPDATE, pool.name(), node, target, now, Timing.LATE, false);
            }
        }
    }

    /** Whether the bridge followed the node's update to {@code target} (then its gates open at their transitions). */
    private boolean tracked(NodeView node, String target) {
        return nodes.getOrDefault(node.name(), NodeProgress.NONE).tracks(target);
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
        String gateId = GateId.of(cluster, stage, node == null ? pool : node.name(), targetConfig);
        // Assigned after its early gate was asked: that request stands for this opening.
        boolean early = stage == Stage.PRE_UPDATE
                && (openedEarly.remove(gateId)
                        || node != null
                                && recoveredPreUpdate.remove(gateId)
                                && !recoveredAssignments.contains(node.name() + " " + targetConfig));
        boolean anew = observed && !early;
        pendGate(stage, pool, node, targetConfig, now, Timing.AT_TRANSITION, anew);
    }

    /** {@code observed}: a new opening of the gate, so a new attempt of one requested before. */
    private void pendGate(
            Stage stage,
            String pool,
            NodeView node,
            String targetConfig,
            Instant now,
            Timing timing,
            boolean observed) {
        String subject = node == null ? pool : node.name();
        String gateId = GateId.of(cluster, stage, subject, targetConfig);
        Integer last = attempts.get(gateId);
        if (pendingGates.containsKey(gateId) || (!observed && last != null)) {
            return;
        }
        int attempt = last == null ? 1 : last + 1;
        pendingGates.put(gateId, new PendingGate(gateId, attempt, stage, pool, node, targetConfig, now, timing));
    }

    /**
     * The nodes of a rolling pool the MCC will take next: the first {@code lookaheadBatches} times
     * {@code maxUnavailable} of those not assigned the target yet, in the MCC's order
     * ({@link CandidateOrder}). Their drain-held pre-update gates are asked for before their
     * assignment, so that with hooks that answer in time their gate pods are gone when their
     * drains begin; a check is then at most that many batches older than its node's drain.
     */
    private List<NodeView> nextInLine(PoolView pool) {
        String target = pool.targetConfig();
        if (lookaheadBatches == 0
                || !pool.rolling() && !pool.reverting()
                || !policy.gates(Stage.PRE_UPDATE, pool.name())) {
            return List.of();
        }
        List<NodeView> waiting = nodeViews.values().stream()
                .filter(n -> pool.name().equals(poolOf(n)))
                .filter(n -> !target.equals(n.currentConfig()) && !target.equals(n.desiredConfig()))
                .sorted(Comparator.comparing(NodeView::name))
                .toList();
        // Candidates with the same zone and age: the MCC's order among them is not defined; by name here.
        List<NodeView> order =
                CandidateOrder.rollout(pool.name(), waiting, NodeView::name, NodeView::zone, NodeView::created, null);
        int next = (int) Math.min(order.size(), (long) lookaheadBatches * pool.batch());
        return order.subList(0, next);
    }

    private List<Outgoing> releasePendingGates() {
        List<Outgoing> out = new ArrayList<>();
        Map<String, Set<String>> nextInLine = new HashMap<>();
        var it = pendingGates.values().iterator();
        while (it.hasNext()) {
            PendingGate gate = it.next();
            Optional<GateRequest> request = build(gate);
            if (request.isPresent()
                    && gate.timing() == Timing.EARLY
                    && ChangeClassifier.drains(request.get().disruption())
                    && !nextInLine
                            .computeIfAbsent(gate.pool(), p -> names(nextInLine(poolViews.get(p))))
                            .contains(gate.node().name())) {
                it.remove(); // its gate pod holds it: requested when the node is assigned or next in line
            } else if (request.isPresent()) {
                it.remove();
                attempts.put(gate.gateId(), gate.attempt());
                if (gate.timing() == Timing.EARLY) {
                    openedEarly.add(gate.gateId());
                }
                out.add(new Outgoing(
                        request.get(), EventIds.gateRequest(gate.gateId(), gate.attempt()), gate.requestedAt()));
            }
        }
        return out;
    }

    private static Set<String> names(List<NodeView> nodes) {
        var out = new HashSet<String>();
        nodes.forEach(n -> out.add(n.name()));
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
        GateRequest.Disruption disruption = disruption(current, gate.targetConfig());
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
                gate.requestedAt().plus(policy.deadline(gate.stage(), pool.name(), gateTimeout)),
                disruption,
                gate.timing() == Timing.LATE ? Boolean.TRUE : null));
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

    private record PendingGate(
            String gateId,
            int attempt,
            Stage stage,
            String pool,
            NodeView node,
            String targetConfig,
            Instant requestedAt,
            Timing timing) {}

    /** When a gate opens: at its transition, or apart from one ({@link #requestOffCycleGates}). */
    private enum Timing {
        AT_TRANSITION,
        /** a pre-update gate before its node is assigned, kept only if the change does not drain */
        EARLY,
        /** a post-update gate of a node found already done on its target */
        LATE
    }

    private record OwedGate(Stage stage, String target) {}
}
