package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.mcdhooks.bridge.gate.AckedGates;
import io.mcdhooks.bridge.gate.Gate;
import io.mcdhooks.bridge.gate.GateObjects;
import io.mcdhooks.bridge.gate.Gatekeeper;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.mcdhooks.bridge.gate.PausePlan;
import io.mcdhooks.bridge.gate.PoolSchedules;
import io.mcdhooks.bridge.gate.PostUpdateHold;
import io.mcdhooks.bridge.gate.RegisteredHook;
import io.mcdhooks.bridge.mco.ChangeClassifier;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.bridge.mco.Views;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.Stage;
import io.vertx.core.Context;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the levers where {@link LeverPlan} wants them for the gates as Kafka knows them
 * ({@link AckedGates}): a node's levers are planned when the node, a decision on its gates or its
 * gate objects change; its pool's pause a turn of the event loop later, once for a burst.
 *
 * <p>Nothing is planned before {@link #start}: until the gates are rebuilt from Kafka and the
 * informers hold the whole cluster, a plan sees pools without their nodes and nodes without the
 * gates requested late, and levers planned then undid holds at every restart. Confined to the
 * gatekeeper's event loop.
 */
final class LeverReconciler {

    private static final Logger LOG = LoggerFactory.getLogger(LeverReconciler.class);

    private final String clusterName;
    private final Cluster cluster;
    private final Gatekeeper gatekeeper;
    private final AckedGates gates;
    private final Levers levers;
    private final Context context;
    private final Supplier<PostUpdateHold> mode;
    private final Clock clock;
    /** Whether a pool takes new nodes by its windows and pause; kept up to date by {@link ScheduleReporter}. */
    private final PoolSchedules schedules;

    private boolean planning;
    /** Pools whose pause is to be planned once the events queued now are handled. */
    private final Set<String> poolsToPlan = new LinkedHashSet<>();
    /** Per pool, the target and whether it rolls out, as its nodes' levers were last planned for. */
    private final Map<String, String> poolRollouts = new HashMap<>();
    /** How long a post-update gate may keep the drain controller's uncordon refused (MCDHOOKS_UNCORDON_HANDOVER). */
    private final Duration uncordonHandover;
    /** Nodes whose uncordon is being refused, and when their hold is to be handed over: planned again then. */
    private final Map<String, Instant> handovers = new HashMap<>();
    /** Told once per gate when its hold is handed over (a Kubernetes Event). */
    private final BiConsumer<NodeView, Gate> handedOver;
    /** Gates whose handover was told, while their node's uncordon is still refused. */
    private final Set<String> toldHandovers = new HashSet<>();
    /** Whether an operator's stop of a rollback holds a pool paused at its target ({@link PoolRollbacks#holdsPaused}). */
    private final BiPredicate<String, String> stoppedRollback;

    LeverReconciler(
            String clusterName,
            Cluster cluster,
            Gatekeeper gatekeeper,
            AckedGates gates,
            Levers levers,
            Context context,
            Supplier<PostUpdateHold> mode,
            PoolSchedules schedules,
            Duration uncordonHandover,
            BiConsumer<NodeView, Gate> handedOver,
            BiPredicate<String, String> stoppedRollback,
            Clock clock) {
        this.mode = mode;
        this.stoppedRollback = stoppedRollback;
        this.uncordonHandover = uncordonHandover;
        this.handedOver = handedOver;
        this.schedules = schedules;
        this.clock = clock;
        this.clusterName = clusterName;
        this.cluster = cluster;
        this.gatekeeper = gatekeeper;
        this.gates = gates;
        this.levers = levers;
        this.context = context;
    }

    /** From here on levers are planned, every one at once now: the gates and the cluster are known. */
    void start() {
        planning = true;
        everything();
    }

    /** What the hooks gate changed: every node's levers and every pool's pause. */
    void everything() {
        if (!planning) {
            return;
        }
        Set<String> pools = new HashSet<>();
        for (Node node : cluster.nodes()) {
            plan(node);
            String pool = cluster.poolOf(cluster.view(node));
            if (pool != null) {
                pools.add(pool);
            }
        }
        pools.forEach(this::planPause);
    }

    void nodeChanged(Node node) {
        plan(node);
        planPauseSoon(cluster.poolOf(cluster.view(node)));
    }

    /** A node was deleted: its gate pod and budget are removed, and its pool may go on without it. */
    void nodeDeleted(Node node) {
        levers.nodeDeleted(node.getMetadata().getName(), () -> {});
        planPauseSoon(cluster.poolOf(cluster.view(node)));
    }

    void poolChanged(GenericKubernetesResource pool) {
        String name = pool.getMetadata().getName();
        PoolView view = Views.pool(pool);
        if (!planning) {
            return;
        }
        // A node's levers read only its pool's target and whether it rolls out; the pool's status
        // counts change with every step of every node, and only the pause depends on them.
        String rollout = view.targetConfig() + (view.rolling() ? " rolling" : " at rest");
        if (!rollout.equals(poolRollouts.put(name, rollout))) {
            for (Node node : cluster.nodes()) {
                if (name.equals(cluster.poolOf(cluster.view(node)))) {
                    plan(node);
                }
            }
            planPause(name);
        } else {
            planPauseSoon(name);
        }
    }

    /**
     * Time passed: a pool's window may have opened or closed, a pause between nodes ended, a hold at
     * the uncordon handshake come due for its handover (its pool paused first, then the node).
     */
    void tick() {
        schedules.scheduled().forEach(this::planPauseSoon);
        Instant now = clock.instant();
        for (String name : List.copyOf(handovers.keySet())) {
            Node node = handovers.get(name).isAfter(now) ? null : cluster.node(name);
            if (node != null) {
                nodeChanged(node);
            }
        }
    }

    /** A gate pod or budget of {@code nodeName} came or went. */
    void gateObjectChanged(String nodeName) {
        Node node = cluster.node(nodeName);
        if (node != null) {
            nodeChanged(node);
        }
    }

    /** A decision, made or acknowledged by Kafka: its node's levers and its pool's pause. */
    void decided(GateDecision decision) {
        Node node = decision.node() == null ? null : cluster.node(decision.node());
        if (node != null) {
            plan(node);
        }
        planPauseSoon(decision.pool());
    }

    private void plan(Node node) {
        if (!planning) {
            return;
        }
        NodeView view = cluster.view(node);
        String poolName = cluster.poolOf(view);
        GenericKubernetesResource pool = poolName == null ? null : cluster.pool(poolName);
        PoolView poolView = pool == null ? null : Views.pool(pool);
        LeverPlan.NodeLevers want = LeverPlan.node(
                clusterName, poolView, view, enforcingHooks(), gates::gate, mode.get(), drains(poolView), handOver());
        String name = node.getMetadata().getName();
        if (mode.get() == PostUpdateHold.ADMISSION
                && LeverPlan.handsOver(clusterName, poolView, view, gates::gate, g -> true)) {
            Gate post = gates.gate(GateId.of(clusterName, Stage.POST_UPDATE, name, view.desiredConfig()));
            handovers.put(name, failed(post) ? clock.instant() : post.openedAt().plus(uncordonHandover));
            // Refused and marked, yet the plan lifts the marker: this is the handover's write.
            if (!want.hold() && toldHandovers.add(post.id())) {
                handedOver.accept(view, post);
            }
        } else if (handovers.remove(name) != null) {
            toldHandovers.remove(GateId.of(clusterName, Stage.POST_UPDATE, name, view.desiredConfig()));
        }
        levers.applyNode(node, want, () -> {
            Node latest = cluster.node(name);
            if (latest != null) {
                nodeChanged(latest);
            }
        });
    }

    /**
     * Plans a pool's pause after the events already queued on the event loop: a pool's pause
     * depends on all its nodes, so planning it on every node event, verdict or gate object scans
     * every node each time (quadratic in a 5,000-node rollout). A burst is planned once; while
     * the loop keeps up, one event still gets one plan, a turn of the loop later.
     */
    private void planPauseSoon(String pool) {
        if (!planning || pool == null) {
            return;
        }
        boolean first = poolsToPlan.isEmpty();
        poolsToPlan.add(pool);
        if (first) {
            context.runOnContext(v -> {
                List<String> pools = new ArrayList<>(poolsToPlan);
                poolsToPlan.clear();
                pools.forEach(this::planPause);
            });
        }
    }

    private void planPause(String poolName) {
        GenericKubernetesResource pool = cluster.pool(poolName);
        if (pool == null) {
            return;
        }
        List<NodeView> nodes = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            NodeView nodeView = cluster.view(node);
            if (poolName.equals(cluster.poolOf(nodeView))) {
                nodes.add(nodeView);
            }
        }
        PoolView view = Views.pool(pool);
        Boolean paused = PausePlan.poolPaused(
                clusterName,
                view,
                nodes,
                enforcingHooks(),
                gates::gate,
                levers::gatePodReady,
                drains(view),
                mode.get(),
                handOver());
        paused = PausePlan.withinSchedule(view, paused, schedules.open(poolName, clock.instant()));
        if (stoppedRollback.test(poolName, view.targetConfig())) {
            paused = true;
        }
        // A cordon on its way may land after an unpause planned without it: the MCC would then have
        // assigned a node on the strength of one that is out again (over maxUnavailable). The pool
        // stays paused until it has landed; its node's event plans the pause again.
        if (view.paused()
                && view.annotations().containsKey(GateObjects.PAUSED_BY)
                && !Boolean.TRUE.equals(paused)
                && nodes.stream().anyMatch(n -> levers.cordoning(n.name()))) {
            paused = true;
        }
        levers.applyPool(pool, paused, () -> planPauseSoon(poolName));
    }

    /** Whether a node's change to its target (its pool's, until it is assigned one) is known to drain it. */
    private Predicate<NodeView> drains(PoolView pool) {
        return node -> {
            String target = node.updating() ? node.desiredConfig() : pool == null ? null : pool.targetConfig();
            return ChangeClassifier.drains(cluster.disruption(node, target));
        };
    }

    /** Whether an open post-update gate's hold at the uncordon handshake is due for its handover now. */
    private Predicate<Gate> handOver() {
        Instant now = clock.instant();
        return gate -> failed(gate) || !now.isBefore(gate.openedAt().plus(uncordonHandover));
    }

    /** Blocked or timed out: its node is held until someone acts, far past any uncordon handshake. */
    private static boolean failed(Gate gate) {
        GateDecision last = gate == null ? null : gate.last();
        return last != null
                && !gate.released()
                && (last.decision() == GateDecision.Decision.BLOCKED
                        || last.decision() == GateDecision.Decision.TIMED_OUT);
    }

    /** Advisory hooks get gate requests, and their verdicts are recorded, but they pull no lever. */
    private List<RegisteredHook> enforcingHooks() {
        return gatekeeper.hooks().stream()
                .filter(h -> h.mode() == GateDecision.Mode.Enforcing)
                .toList();
    }
}
