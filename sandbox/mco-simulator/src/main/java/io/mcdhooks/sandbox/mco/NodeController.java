package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
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
 * The MCC's node controller: per pool, taints nodes that still have to update, hands out the
 * pool's target config within maxUnavailable (never while the pool is paused) and keeps the pool
 * status. Each sync reads the pool and its nodes afresh; nothing is remembered between syncs.
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
        List<NodeView> views = new ArrayList<>();
        for (Node n : sim.nodes.all()) {
            if (poolName.equals(poolOf(n))) {
                nodes.add(n);
                views.add(NodeView.of(n));
            }
        }
        writeStatus(pool, views, target, paused);
        // As the MCC: a paused pool gets its status synced and nothing else, taints included.
        if (paused) {
            return;
        }
        for (Node n : nodes) {
            syncTaint(n, target);
        }
        MaxUnavailable max = MaxUnavailable.parse(spec.get("maxUnavailable"));
        for (NodeView chosen : UpdatePlanner.select(views, target, max, sim.config.operatorNode())) {
            sim.writer.annotate(chosen.name(), McdStep.ASSIGNED.annotations(target));
            sim.mcns.desired(chosen.name(), target);
            sim.events.pool(
                    poolName,
                    pool.getMetadata().getUid(),
                    "Normal",
                    "SetDesiredConfig",
                    "Targeted node " + chosen.name() + " to MachineConfig " + target);
            LOG.atDebug()
                    .addKeyValue("pool", poolName)
                    .addKeyValue("node", chosen.name())
                    .log("Set desiredConfig");
        }
    }

    /** UpdateInProgress:PreferNoSchedule on every node not yet updated to the target. */
    private void syncTaint(Node n, String target) {
        boolean wanted = !NodeView.of(n).updatedTo(target);
        boolean present = n.getSpec().getTaints() != null
                && n.getSpec().getTaints().stream().anyMatch(NodeController::isOurTaint);
        String name = n.getMetadata().getName();
        if (wanted == present || !taintsInFlight.add(name)) {
            return;
        }
        sim.clock.run("node/" + name, () -> {
            try {
                sim.writer.update(name, fresh -> {
                    List<Taint> taints = fresh.getSpec().getTaints() == null
                            ? new ArrayList<>()
                            : new ArrayList<>(fresh.getSpec().getTaints());
                    boolean has = taints.stream().anyMatch(NodeController::isOurTaint);
                    if (has == wanted) {
                        return null;
                    }
                    if (wanted) {
                        taints.add(new TaintBuilder()
                                .withKey(Mco.UPDATE_IN_PROGRESS_TAINT)
                                .withEffect("PreferNoSchedule")
                                .build());
                    } else {
                        taints.removeIf(NodeController::isOurTaint);
                    }
                    fresh.getSpec().setTaints(taints);
                    return fresh;
                });
            } finally {
                taintsInFlight.remove(name);
            }
        });
    }

    private static boolean isOurTaint(Taint t) {
        return Mco.UPDATE_IN_PROGRESS_TAINT.equals(t.getKey()) && "PreferNoSchedule".equals(t.getEffect());
    }

    private void writeStatus(GenericKubernetesResource pool, List<NodeView> nodes, String target, boolean paused) {
        Map<String, Object> old = map(pool.getAdditionalProperties().get("status"));
        int machines = nodes.size();
        int updated = (int) nodes.stream().filter(n -> n.updatedTo(target)).count();
        int ready = (int)
                nodes.stream().filter(n -> n.updatedTo(target) && n.ready()).count();
        int unavailable = UpdatePlanner.unavailable(nodes).size();
        List<NodeView> degraded = nodes.stream().filter(NodeView::degraded).toList();
        boolean allUpdated = updated == machines;

        Map<String, Map<String, Object>> conditions = new LinkedHashMap<>();
        for (Object c : list(old.get("conditions"))) {
            Map<String, Object> m = map(c);
            conditions.put((String) m.get("type"), m);
        }
        String now = sim.clock.now().toString();
        String nodeDegradedMessage = degraded.isEmpty()
                ? ""
                : "Node " + degraded.get(0).name() + " is reporting: \""
                        + degradedReason(degraded.get(0).name()) + "\"";
        condition(conditions, "RenderDegraded", "False", "", "", now);
        condition(
                conditions,
                "NodeDegraded",
                degraded.isEmpty() ? "False" : "True",
                degraded.isEmpty() ? "" : degraded.size() + " nodes are reporting degraded status on sync",
                nodeDegradedMessage,
                now);
        condition(conditions, "Degraded", degraded.isEmpty() ? "False" : "True", "", "", now);
        condition(
                conditions,
                "Updated",
                allUpdated ? "True" : "False",
                "",
                allUpdated ? "All nodes are updated with MachineConfig " + target : "",
                now);
        if (paused && !allUpdated) {
            condition(conditions, "Updating", "False", "", "Pool is paused; will not update to " + target, now);
        } else {
            condition(
                    conditions,
                    "Updating",
                    allUpdated ? "False" : "True",
                    "",
                    allUpdated ? "" : "All nodes are updating to MachineConfig " + target,
                    now);
        }

        Map<String, Object> spec = map(pool.getAdditionalProperties().get("spec"));
        var status = new LinkedHashMap<String, Object>();
        status.put(
                "observedGeneration",
                pool.getMetadata().getGeneration() == null
                        ? 1
                        : pool.getMetadata().getGeneration());
        status.put(
                "configuration",
                allUpdated ? spec.get("configuration") : old.getOrDefault("configuration", spec.get("configuration")));
        status.put("machineCount", machines);
        status.put("updatedMachineCount", updated);
        status.put("readyMachineCount", ready);
        status.put("unavailableMachineCount", unavailable);
        status.put("degradedMachineCount", degraded.size());
        status.put("conditions", new ArrayList<>(conditions.values()));
        if (Objects.equals(normalise(status), normalise(old))) {
            return;
        }
        emitTransitionEvents(pool, old, conditions, target);
        Mco.pools(sim.client)
                .withName(pool.getMetadata().getName())
                .subresource("status")
                .patch(Mco.jsonPatch(), Mco.set("/status", status));
    }

    private void emitTransitionEvents(
            GenericKubernetesResource pool,
            Map<String, Object> old,
            Map<String, Map<String, Object>> now,
            String target) {
        String before = conditionStatus(old, "Updating");
        String after = (String) now.get("Updating").get("status");
        String uid = pool.getMetadata().getUid();
        String name = pool.getMetadata().getName();
        if ("True".equals(after) && !"True".equals(before)) {
            sim.events.pool(
                    name, uid, "Normal", "Updating", "Pool " + name + " is now updating to MachineConfig " + target);
        }
        String updatedBefore = conditionStatus(old, "Updated");
        if ("True".equals(now.get("Updated").get("status")) && "False".equals(updatedBefore)) {
            sim.events.pool(
                    name,
                    uid,
                    "Normal",
                    "Completed",
                    "Pool " + name + " has completed update to MachineConfig " + target);
        }
    }

    private String degradedReason(String node) {
        return MachineConfigDaemon.annotation(sim.nodes.get(node), Mco.REASON);
    }

    private static void condition(
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
