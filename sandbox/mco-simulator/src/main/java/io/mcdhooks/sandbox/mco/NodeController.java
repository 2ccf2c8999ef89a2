package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCC's node controller ({@code pkg/controller/node/node_controller.go} {@code updatePools},
 * {@code status.go} {@code calculateStatus}): per pool, copies the cluster's control-plane topology
 * onto its nodes, taints nodes that still have to be assigned the pool's target, hands it out within
 * maxUnavailable ({@link UpdatePlanner}; never while the pool is paused) and keeps the pool status.
 * Each sync reads the pool and its nodes afresh; nothing is remembered between syncs. It runs only
 * while the MCC's pod runs.
 */
final class NodeController {

    private static final Logger LOG = LoggerFactory.getLogger(NodeController.class);
    private static final String WORKER = "worker";
    private static final String MASTER = "master";

    private final SimContext sim;
    private final Map<String, AtomicBoolean> queued = new ConcurrentHashMap<>();
    private final Set<String> taintsInFlight = ConcurrentHashMap.newKeySet();
    // Parsed nodeSelectors by pool and resourceVersion: poolOf runs for every node event.
    private final Map<String, Map.Entry<String, LabelSelector>> selectors = new ConcurrentHashMap<>();

    NodeController(SimContext sim) {
        this.sim = sim;
    }

    /** Queues a sync of {@code pool} after the controller delay, unless one is queued already. */
    void enqueue(String pool) {
        if (pool == null) {
            return;
        }
        AtomicBoolean flag = queued.computeIfAbsent(pool, p -> new AtomicBoolean());
        if (flag.compareAndSet(false, true)) {
            sim.clock.schedule("pool/" + pool, sim.timings.controllerDelay(), () -> {
                flag.set(false);
                sync(pool);
            });
        }
    }

    void enqueueAll() {
        for (GenericKubernetesResource p : sim.pools.getStore().list()) {
            enqueue(p.getMetadata().getName());
        }
    }

    /** The pool a node belongs to: a custom pool if one selects it, else worker or master. */
    String poolOf(Node node) {
        Map<String, String> labels = node.getMetadata().getLabels() == null
                ? Map.of()
                : node.getMetadata().getLabels();
        String fallback = null;
        String custom = null;
        for (GenericKubernetesResource p : sim.pools.getStore().list()) {
            String name = p.getMetadata().getName();
            if (!DisruptionBudgets.selects(cachedSelector(p), labels)) {
                continue;
            }
            if (name.equals(WORKER) || name.equals(MASTER)) {
                fallback = fallback == null || name.equals(MASTER) ? name : fallback;
            } else if (custom == null || name.compareTo(custom) < 0) {
                custom = name;
            }
        }
        return custom != null ? custom : fallback;
    }

    private LabelSelector cachedSelector(GenericKubernetesResource pool) {
        String version = String.valueOf(pool.getMetadata().getResourceVersion());
        var cached = selectors.get(pool.getMetadata().getName());
        if (cached != null && cached.getKey().equals(version)) {
            return cached.getValue();
        }
        LabelSelector selector = nodeSelector(pool);
        selectors.put(pool.getMetadata().getName(), new AbstractMap.SimpleImmutableEntry<>(version, selector));
        return selector;
    }

    private void sync(String poolName) {
        if (!sim.mccRunning()) {
            return;
        }
        GenericKubernetesResource pool = sim.pools.getStore().getByKey(poolName);
        if (pool == null) {
            return;
        }
        Map<String, Object> spec = map(pool.getAdditionalProperties().get("spec"));
        String target = (String) map(spec.get("configuration")).get("name");
        if (target == null || target.isEmpty()) {
            return;
        }
        boolean paused = Boolean.TRUE.equals(spec.get("paused"));
        List<Node> nodes = new ArrayList<>();
        for (Node n : sim.nodes.all()) {
            if (poolName.equals(poolOf(n))) {
                nodes.add(n);
            }
        }
        // As the MCC: a paused pool gets its status synced and nothing else, taints included.
        if (!paused) {
            syncTopologyAnnotation(nodes);
            for (Node n : nodes) {
                syncTaint(n, target);
            }
            List<NodeUpdateState> views =
                    nodes.stream().map(NodeUpdateState::of).toList();
            MaxUnavailable max = MaxUnavailable.parse(spec.get("maxUnavailable"));
            UpdatePlanner.Plan plan = UpdatePlanner.plan(poolName, views, target, max, sim.config.operatorNode());
            if (plan.deferredOperatorNode() != null) {
                sim.events.pool(
                        poolName,
                        pool.getMetadata().getUid(),
                        "Normal",
                        "DeferringOperatorNodeUpdate",
                        "Deferring update of machine config operator node " + plan.deferredOperatorNode());
            }
            for (NodeUpdateState chosen : plan.chosen()) {
                // SetDesiredStateFromPool: desiredConfig, and no desiredImage in a pool without image mode
                sim.writer.annotate(
                        chosen.name(),
                        McdStep.ASSIGNED.annotations(target),
                        chosen.desiredImage() == null ? List.of() : List.of(Mco.DESIRED_IMAGE));
                sim.mcns.desired(chosen.name(), target);
                LOG.atDebug()
                        .addKeyValue("pool", poolName)
                        .addKeyValue("node", chosen.name())
                        .log("Set desiredConfig");
            }
            if (plan.chosen().size() == 1) {
                sim.events.pool(
                        poolName,
                        pool.getMetadata().getUid(),
                        "Normal",
                        "SetDesiredConfig",
                        "Targeted node " + plan.chosen().get(0).name() + " to MachineConfig: " + target);
            } else if (!plan.chosen().isEmpty()) {
                sim.events.pool(
                        poolName,
                        pool.getMetadata().getUid(),
                        "Normal",
                        "SetDesiredConfig",
                        "Set target for " + plan.chosen().size() + " nodes to MachineConfig: " + target);
            }
        }
        writeStatus(pool, nodes(poolName), target, paused);
    }

    private List<NodeUpdateState> nodes(String poolName) {
        List<NodeUpdateState> out = new ArrayList<>();
        for (Node n : sim.nodes.all()) {
            if (poolName.equals(poolOf(n))) {
                out.add(NodeUpdateState.of(n));
            }
        }
        return out;
    }

    /** {@code setClusterConfigAnnotation}: the Infrastructure's controlPlaneTopology on every node. */
    private void syncTopologyAnnotation(List<Node> nodes) {
        String topology = sim.controlPlaneTopology();
        if (topology == null || topology.isEmpty()) {
            return;
        }
        for (Node n : nodes) {
            if (!topology.equals(MachineConfigDaemon.annotation(n, Mco.CONTROL_PLANE_TOPOLOGY))) {
                sim.writer.annotate(n.getMetadata().getName(), Map.of(Mco.CONTROL_PLANE_TOPOLOGY, topology));
            }
        }
    }

    /**
     * UpdateInProgress:PreferNoSchedule on nodes whose {@code desiredConfig} is not the target yet,
     * removed once it is (at assignment). As the MCC, the whole taint list is written from a read
     * of the node, without a resourceVersion: a taint someone adds in between is lost.
     */
    private void syncTaint(Node n, String target) {
        boolean wanted = !NodeUpdateState.of(n).targets(target);
        boolean present = n.getSpec().getTaints() != null
                && n.getSpec().getTaints().stream().anyMatch(NodeController::isOurTaint);
        String name = n.getMetadata().getName();
        if (wanted == present || !taintsInFlight.add(name)) {
            return;
        }
        sim.clock.run("node/" + name, () -> {
            Node fresh;
            try {
                fresh = sim.client.nodes().withName(name).get();
            } catch (RuntimeException e) {
                taintsInFlight.remove(name);
                throw e;
            }
            if (fresh == null) {
                taintsInFlight.remove(name);
                return;
            }
            List<Taint> taints = fresh.getSpec().getTaints() == null
                    ? new ArrayList<>()
                    : new ArrayList<>(fresh.getSpec().getTaints());
            boolean has = taints.stream().anyMatch(NodeController::isOurTaint);
            if (has == wanted) {
                taintsInFlight.remove(name);
                return;
            }
            if (wanted) {
                taints.add(new TaintBuilder()
                        .withKey(Mco.UPDATE_IN_PROGRESS_TAINT)
                        .withEffect("PreferNoSchedule")
                        .build());
            } else {
                taints.removeIf(NodeController::isOurTaint);
            }
            Runnable write = () -> {
                try {
                    Node updated =
                            sim.client.nodes().withName(name).patch(Mco.jsonPatch(), Mco.set("/spec/taints", taints));
                    sim.nodes.wrote(updated);
                } finally {
                    taintsInFlight.remove(name);
                }
            };
            Duration window = sim.timings.taintWriteWindow();
            if (window.isZero()) {
                write.run();
            } else {
                sim.clock.schedule("node/" + name, window, write);
            }
        });
    }

    private static boolean isOurTaint(Taint t) {
        return Mco.UPDATE_IN_PROGRESS_TAINT.equals(t.getKey()) && "PreferNoSchedule".equals(t.getEffect());
    }

    /** {@code calculateStatus} ({@code pkg/controller/node/status.go}) and its write. */
    private void writeStatus(
            GenericKubernetesResource pool, List<NodeUpdateState> nodes, String target, boolean paused) {
        Map<String, Object> old = map(pool.getAdditionalProperties().get("status"));
        int machines = nodes.size();
        int updated = (int) nodes.stream().filter(n -> n.updatedTo(target)).count();
        int ready = (int)
                nodes.stream().filter(n -> n.updatedTo(target) && n.ready()).count();
        int unavailable = UpdatePlanner.unavailable(nodes).size();
        List<NodeUpdateState> degraded =
                nodes.stream().filter(NodeUpdateState::degraded).toList();
        // Updated only when every node is updated and ready and none is unavailable: a Done but
        // cordoned node keeps the pool (and status.configuration) where it was.
        boolean allUpdated = updated == machines && ready == machines && unavailable == 0;

        Map<String, Map<String, Object>> conditions = new LinkedHashMap<>();
        for (Object c : list(old.get("conditions"))) {
            Map<String, Object> m = map(c);
            conditions.put((String) m.get("type"), m);
        }
        String now = sim.clock.now().toString();
        boolean renderDegraded = "True".equals(conditionStatus(old, "RenderDegraded"));
        if (!conditions.containsKey("RenderDegraded")) {
            condition(conditions, "RenderDegraded", "False", "", "", now);
        }
        String nodeDegradedMessage = String.join(
                ", ",
                degraded.stream()
                        .map(d -> "Node " + d.name() + " is reporting: \"" + degradedReason(d.name()) + "\"")
                        .toList());
        condition(
                conditions,
                "NodeDegraded",
                degraded.isEmpty() ? "False" : "True",
                degraded.isEmpty() ? "" : degraded.size() + " nodes are reporting degraded status on sync",
                nodeDegradedMessage,
                now);
        boolean poolDegraded = !degraded.isEmpty() || renderDegraded;
        condition(conditions, "Degraded", poolDegraded ? "True" : "False", "", "", now);
        String line = "MachineConfig " + target;
        if (allUpdated) {
            condition(conditions, "Updated", "True", "", "All nodes are updated with " + line, now);
            condition(conditions, "Updating", "False", "", "", now);
        } else {
            condition(conditions, "Updated", "False", "", "", now);
            if (paused) {
                condition(conditions, "Updating", "False", "", "Pool is paused; will not update to " + line, now);
            } else {
                condition(conditions, "Updating", "True", "", "All nodes are updating to " + line, now);
            }
        }

        Map<String, Object> spec = map(pool.getAdditionalProperties().get("spec"));
        Object configuration =
                allUpdated ? spec.get("configuration") : old.getOrDefault("configuration", spec.get("configuration"));
        var status = new LinkedHashMap<String, Object>();
        status.put(
                "observedGeneration",
                pool.getMetadata().getGeneration() == null
                        ? 1
                        : pool.getMetadata().getGeneration());
        status.put("configuration", configuration);
        status.put("machineCount", machines);
        status.put("updatedMachineCount", updated);
        status.put("readyMachineCount", ready);
        status.put("unavailableMachineCount", unavailable);
        status.put("degradedMachineCount", degraded.size());
        status.put("conditions", new ArrayList<>(conditions.values()));
        if (Objects.equals(normalise(status), normalise(old))) {
            return;
        }
        Mco.pools(sim.client)
                .withName(pool.getMetadata().getName())
                .subresource("status")
                .patch(Mco.jsonPatch(), Mco.set("/status", status));
        String before = (String) map(old.get("configuration")).get("name");
        String after = (String) map(configuration).get("name");
        if (before != null && !before.equals(after)) {
            String name = pool.getMetadata().getName();
            sim.events.pool(
                    name,
                    pool.getMetadata().getUid(),
                    "Normal",
                    "Completed",
                    "Pool " + name + " has completed update to " + line);
        }
    }

    private String degradedReason(String node) {
        return MachineConfigDaemon.annotation(sim.nodes.get(node), Mco.REASON);
    }

    /** Sets a condition; lastTransitionTime moves only when its status changes. */
    static void condition(
            Map<String, Map<String, Object>> conditions,
            String type,
            String status,
            String reason,
            String message,
            String now) {
        Map<String, Object> old = conditions.get(type);
        String since = old != null && status.equals(old.get("status")) ? (String) old.get("lastTransitionTime") : now;
        var c = new LinkedHashMap<String, Object>();
        c.put("lastTransitionTime", since);
        c.put("message", message);
        c.put("reason", reason);
        c.put("status", status);
        c.put("type", type);
        conditions.put(type, c);
    }

    private static String conditionStatus(Map<String, Object> status, String type) {
        for (Object c : list(status.get("conditions"))) {
            if (type.equals(map(c).get("type"))) {
                return (String) map(c).get("status");
            }
        }
        return null;
    }

    /** Compares through canonical JSON: numbers from the API may be Integer or Long. */
    private static String normalise(Object o) {
        return Canonical.json(o);
    }

    static LabelSelector nodeSelector(GenericKubernetesResource pool) {
        Object selector = map(pool.getAdditionalProperties().get("spec")).get("nodeSelector");
        return selector == null ? null : Mco.convert(selector, LabelSelector.class);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    static List<?> list(Object o) {
        return o instanceof List<?> l ? l : List.of();
    }
}
