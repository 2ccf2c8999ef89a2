package io.mcdhooks.bridge.ui;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.mcdhooks.bridge.gate.Gate;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Feeds the rollout's {@link RolloutHistory} from what the bridge already knows: on every node
 * event that node's phase, and on every {@link #sample} (once a second) every node's and pool's
 * phase and the verdicts of every gate. A phase a gate decided (a check begun, a hold, a release)
 * is dated by the gate's own times rather than by when it was seen. Runs on the bridge's event
 * loop, which owns the gatekeeper's state; the informer caches are read as they are.
 */
public final class RolloutObserver {

    /** A hook that keeps a node's gate closed, as the gate's last decision says. */
    public record Blocking(String hook, String stage, String state, String reason, String message) {}

    /** A node as last observed. */
    public record NodeNow(String pool, String zone, NodePhase phase, List<Blocking> blocking) {}

    private final String cluster;
    private final Supplier<? extends Collection<Node>> nodes;
    private final Supplier<? extends Collection<GenericKubernetesResource>> pools;
    private final Supplier<? extends Collection<Gate>> gates;
    private final Function<String, Gate> gate;
    private final RolloutHistory history = new RolloutHistory();
    private final Map<String, NodeNow> current = new HashMap<>();
    /** Released gates whose verdicts were noted already, as they were then: only a change is read again. */
    private final Map<String, Gate> marked = new HashMap<>();

    /**
     * @param gates every gate the gatekeeper holds (empty without one)
     * @param gate  the gate of an id, or {@code null}: a gate's id names its stage, subject and
     *              target, so a node's gates are found without a scan
     */
    public RolloutObserver(
            String cluster,
            Supplier<? extends Collection<Node>> nodes,
            Supplier<? extends Collection<GenericKubernetesResource>> pools,
            Supplier<? extends Collection<Gate>> gates,
            Function<String, Gate> gate) {
        this.cluster = cluster;
        this.nodes = nodes;
        this.pools = pools;
        this.gates = gates;
        this.gate = gate;
    }

    public RolloutHistory history() {
        return history;
    }

    /** Each node as last observed, by name. */
    public Map<String, NodeNow> current() {
        return Map.copyOf(current);
    }

    /**
     * Observes everything now; returns the nodes per pool and phase (for the {@code mcdhooks_nodes}
     * gauge). Nodes that match no pool are left out of the counts.
     */
    public Map<String, Map<String, Long>> sample(Instant now) {
        List<GenericKubernetesResource> poolList = sortedPools();
        Set<String> poolNames = new HashSet<>();
        for (GenericKubernetesResource pool : poolList) {
            poolNames.add(pool.getMetadata().getName());
            observePool(pool, now);
        }
        Set<String> nodeNames = new HashSet<>();
        Map<String, Map<String, Long>> counts = new TreeMap<>();
        for (Node node : nodes.get()) {
            nodeNames.add(node.getMetadata().getName());
            NodeNow seen = observe(node, poolList, now);
            if (seen.pool() != null) {
                counts.computeIfAbsent(seen.pool(), p -> new TreeMap<>())
                        .merge(seen.phase().name(), 1L, Long::sum);
            }
        }
        history.retain(nodeNames, poolNames);
        current.keySet().retainAll(nodeNames);
        mark(gates.get(), now);
        return counts;
    }

    /** A node changed: its phase now (call once the gate requests its change opens have been handled). */
    public void onNode(Node node, Instant now) {
        observe(node, sortedPools(), now);
    }

    public void onNodeDeleted(String name) {
        current.remove(name);
    }

    private NodeNow observe(Node node, List<GenericKubernetesResource> poolList, Instant now) {
        String name = node.getMetadata().getName();
        String pool = StatusPage.poolOf(node, poolList);
        String target = pool == null ? null : target(poolList, pool);
        Gate pre = gateOf(Stage.PRE_UPDATE, name, target);
        Gate post = gateOf(Stage.POST_UPDATE, name, target);
        NodePhase phase = NodePhase.of(node.getMetadata().getAnnotations(), target, last(pre), last(post));
        RolloutHistory.Row row = history.node(name);
        RolloutHistory.Span was = row == null ? null : row.current();
        Instant at = was == null ? now : dated(NodePhase.valueOf(was.phase()), phase, pre, post, now);
        history.nodePhase(name, pool, phase.name(), phase.label(), at);
        List<Blocking> blocking = new ArrayList<>();
        for (Gate gate : new Gate[] {pre, post}) {
            if (gate != null && !gate.released() && gate.last() != null) {
                GateDecision d = gate.last();
                for (GateDecision.HookStatus h : d.hooks()) {
                    if (d.blockingHooks().contains(h.hook())) {
                        blocking.add(new Blocking(
                                h.hook(), d.stage().wire(), h.state().name(), h.reason(), h.message()));
                    }
                }
            }
        }
        Map<String, String> labels = node.getMetadata().getLabels();
        NodeNow seen =
                new NodeNow(pool, labels == null ? null : labels.get(McoApi.ZONE_LABEL), phase, List.copyOf(blocking));
        current.put(name, seen);
        return seen;
    }

    /**
     * When the phase the node is in now began: a gate's check at its opening, a hold when it was
     * decided, the phase after a gate when it was released; else now (an annotation changed).
     */
    private static Instant dated(NodePhase was, NodePhase phase, Gate pre, Gate post, Instant now) {
        if (was == phase) {
            return now;
        }
        Instant at = switch (phase) {
            case PRE_UPDATE_CHECK -> opened(pre);
            case POST_UPDATE_CHECK -> opened(post);
            case HELD_PRE_UPDATE -> decided(pre);
            case HELD_POST_UPDATE -> decided(post);
            default ->
                switch (was) {
                    case PRE_UPDATE_CHECK, HELD_PRE_UPDATE -> released(pre);
                    case POST_UPDATE_CHECK, HELD_POST_UPDATE -> released(post);
                    default -> null;
                };
        };
        return at == null || at.isAfter(now) ? now : at;
    }

    private void observePool(GenericKubernetesResource pool, Instant now) {
        String name = pool.getMetadata().getName();
        String target = string(pool.get("spec", "configuration", "name"));
        String currentConfig = string(pool.get("status", "configuration", "name"));
        long machines = number(pool.get("status", "machineCount"));
        long updated = number(pool.get("status", "updatedMachineCount"));
        Gate gate = gateOf(Stage.POOL_PRE_UPDATE, name, target);
        PoolPhase phase;
        Instant at = now;
        if (gate != null && !gate.released() && gate.last() != null) {
            boolean checking = gate.last().decision() == GateDecision.Decision.OPENED;
            phase = checking ? PoolPhase.POOL_CHECK : PoolPhase.HELD_POOL;
            at = checking ? gate.openedAt() : gate.last().decidedAt();
        } else if (target != null && (!target.equals(currentConfig) || updated < machines)) {
            phase = PoolPhase.ROLLING;
            Instant releasedAt = released(gate);
            at = releasedAt == null ? now : releasedAt;
        } else {
            phase = PoolPhase.AT_REST;
        }
        RolloutHistory.Row row = history.pool(name);
        boolean first = row == null || row.current() == null;
        history.poolPhase(name, phase.name(), phase.label(), first || at.isAfter(now) ? now : at);
    }

    /** Every verdict and timeout of every gate, on its node's or pool's row. */
    private void mark(Collection<Gate> gateList, Instant now) {
        Set<String> ids = new HashSet<>();
        for (Gate gate : gateList) {
            ids.add(gate.id());
            // A released gate changes only by a new attempt or a late verdict: a new Gate object.
            if (gate.released() && marked.get(gate.id()) == gate) {
                continue;
            }
            GateMarks marks = new GateMarks(gate);
            for (Gate.Slot slot : gate.hooks().values()) {
                Verdict v = slot.latest();
                if (v != null && v.outcome() != Outcome.PENDING) {
                    marks.mark(history, slot.hook(), v.outcome().name(), v.reason(), v.producedAt());
                }
                if (slot.timedOut(now)) {
                    marks.mark(history, slot.hook(), "TIMED_OUT", null, slot.deadline());
                }
            }
            if (gate.released()) {
                marked.put(gate.id(), gate);
            }
        }
        marked.keySet().retainAll(ids);
    }

    /** Where a gate's marks go. */
    private record GateMarks(Gate gate) {
        void mark(RolloutHistory history, String hook, String outcome, String reason, Instant at) {
            var r = gate.request();
            var mark = new RolloutHistory.Mark(
                    r.gateId() + "#" + r.attempt(), r.stage().wire(), hook, outcome, reason, at);
            if (r.node() != null) {
                history.nodeMark(r.node().name(), mark);
            } else {
                history.poolMark(r.pool().name(), mark);
            }
        }
    }

    private Gate gateOf(Stage stage, String subject, String target) {
        return target == null ? null : gate.apply(GateId.of(cluster, stage, subject, target));
    }

    private List<GenericKubernetesResource> sortedPools() {
        return pools.get().stream()
                .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
                .toList();
    }

    private static String target(List<GenericKubernetesResource> poolList, String pool) {
        for (GenericKubernetesResource p : poolList) {
            if (Objects.equals(p.getMetadata().getName(), pool)) {
                return string(p.get("spec", "configuration", "name"));
            }
        }
        return null;
    }

    private static GateDecision last(Gate gate) {
        return gate == null ? null : gate.last();
    }

    private static Instant opened(Gate gate) {
        return gate == null ? null : gate.openedAt();
    }

    private static Instant decided(Gate gate) {
        return gate == null || gate.last() == null ? null : gate.last().decidedAt();
    }

    private static Instant released(Gate gate) {
        return gate != null && gate.released() ? decided(gate) : null;
    }

    private static String string(Object value) {
        return value == null ? null : value.toString();
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : 0;
    }
}
