package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCC's drain controller ({@code pkg/controller/drain/drain_controller.go}): carries out
 * {@code desiredDrain} requests and echoes them in {@code lastAppliedDrain}, only on success.
 *
 * <ul>
 *   <li>{@code handleNodeEvent}: a node is enqueued 5 s after it is added or its
 *       {@code desiredDrain} changes, and (4.18 on) its {@code spec.unschedulable}; 5 workers, one
 *       per node key ({@link WorkQueue}); a failed sync is requeued by the default controller rate
 *       limiter, dropped after 15 retries and added again after 1 min.
 *   <li>{@code drainNode}: cordons (again, from 4.18 on, when someone uncordoned mid-drain, which
 *       restarts the drain's clock), then one run of kubectl's drain helper: evicts every pod but
 *       DaemonSet and mirror pods through the Eviction API's rules ({@link DisruptionBudgets}),
 *       retries refused evictions every 5 s and waits for evicted pods to terminate, all within
 *       90 s. A failed run is requeued after 1 min, after 10 min of failing after 5 min with
 *       {@code DrainThresholdExceeded}; after 1 h each run also emits {@code DrainFailed} (4.18 on)
 *       and sets the {@code mcc_drain_err} gauge. From 4.18 on the node is read again after the
 *       drain: uncordoned meanwhile, no completion is written.
 *   <li>{@code cordonOrUncordonNode}: 5 tries at +0, 10, 30, 70, 150 s, each skipping the write if
 *       the node is in the wanted state and verifying by reading the node again.
 * </ul>
 *
 * Evicted ReplicaSet pods get a replacement at once on a node that admits them (the ReplicaSet
 * controller and the scheduler, collapsed); the {@link Kubelet} starts it. The controller runs only
 * while the MCC's pod runs ({@link #start}, {@link #stop}); a restart forgets ongoing drains.
 */
final class DrainController {

    private static final Logger LOG = LoggerFactory.getLogger(DrainController.class);
    private static final String BY_NODE = "spec.nodeName";
    private static final int WORKERS = 5;
    private static final int MAX_RETRIES = 15;
    private static final int CORDON_STEPS = 5;
    private static final Duration DROPPED_REQUEUE = Duration.ofMinutes(1);

    private final SimContext sim;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<PodDisruptionBudget> budgets;
    private final WorkQueue queue;
    private final Map<String, Instant> ongoingDrains = new ConcurrentHashMap<>();
    private final Map<String, Double> drainErrors = new ConcurrentHashMap<>();
    // Pods this controller evicted that are still terminating: never evicted twice.
    private final Set<String> terminating = ConcurrentHashMap.newKeySet();
    private final Map<String, Instant> terminatesAt = new ConcurrentHashMap<>();
    private final Random placement;
    private volatile Consumer<String> evictionListener = n -> {};
    private volatile boolean running = true;

    DrainController(SimContext sim, SharedIndexInformer<Pod> pods, SharedIndexInformer<PodDisruptionBudget> budgets) {
        this.sim = sim;
        this.pods = pods;
        this.budgets = budgets;
        this.placement = new Random(sim.config.seed());
        this.queue = new WorkQueue(sim.clock, WORKERS, this::syncNode);
    }

    /** The index the pod informer must carry. */
    static Map<String, Function<Pod, List<String>>> podIndexers() {
        return Map.of(
                BY_NODE,
                p -> p.getSpec() == null || p.getSpec().getNodeName() == null
                        ? List.of()
                        : List.of(p.getSpec().getNodeName()));
    }

    /** Told the node whose pods a drain evicts (pods of simulated Deployments move). */
    void onEviction(Consumer<String> listener) {
        this.evictionListener = listener;
    }

    /** {@code handleNodeEvent}. */
    void onNodeEvent(Node old, Node now) {
        if (!running) {
            return;
        }
        if (old != null
                && Objects.equals(desiredDrain(old), desiredDrain(now))
                && (!sim.config.drainControllerVersion().enqueuesOnUnschedulable()
                        || unschedulable(old) == unschedulable(now))) {
            return;
        }
        queue.addAfter(now.getMetadata().getName(), sim.timings.controllerDelay());
    }

    /** The MCC's pod went away: the controller's memory and queue are lost. */
    void stop() {
        running = false;
        queue.stop();
        ongoingDrains.clear();
    }

    /** The MCC's pod runs again: its informer lists every node (an add event each). */
    void start() {
        running = true;
        queue.start();
        for (Node n : sim.nodes.all()) {
            queue.addAfter(n.getMetadata().getName(), sim.timings.controllerDelay());
        }
    }

    /** {@code mcc_drain_err}: 1 for nodes whose drain has failed for over an hour. */
    Map<String, Double> drainErrors() {
        return Map.copyOf(drainErrors);
    }

    /** {@code syncNode}, holding a worker until {@code done}. */
    private void syncNode(String name, WorkQueue.Done done) {
        int gen = queue.generation();
        Node node = sim.nodes.get(name);
        if (node == null) {
            finish(name, null, done, gen);
            return;
        }
        String desired = desiredDrain(node);
        if (desired.equals(MachineConfigDaemon.annotation(node, Mco.LAST_APPLIED_DRAIN))) {
            finish(name, null, done, gen);
            return;
        }
        String verb = desired.split("-", 2)[0];
        switch (verb) {
            case "uncordon" ->
                cordonOrUncordon(gen, name, false, node, error -> {
                    if (error != null) {
                        sim.mcns.set(
                                name,
                                "UpdateComplete",
                                "Unknown",
                                "Uncordoned",
                                "Failed to Uncordon Node as part of completing upgrade phase",
                                "Uncordoned",
                                "Unknown",
                                "Error: Failed to UnCordon node. Error is: " + error
                                        + " The node is reporting Unschedulable = " + unschedulable(node));
                        finish(name, "failed to uncordon node " + name + ": " + error, done, gen);
                        return;
                    }
                    sim.mcns.set(
                            name,
                            "UpdateComplete",
                            "True",
                            "Uncordoned",
                            "Uncordoned Node as part of completing upgrade phase",
                            "Uncordoned",
                            "True",
                            "UnCordoned node. The node is reporting Unschedulable = " + unschedulable(node));
                    complete(name, desired, done, gen);
                });
            case "drain" ->
                drainNode(gen, node, desired, ok -> {
                    if (!ok) {
                        // drainNode requeued itself; the sync returns nil
                        finish(name, null, done, gen);
                        return;
                    }
                    if (sim.config.drainControllerVersion().rechecksCordonAfterDrain()
                            && !unschedulable(sim.nodes.get(name))) {
                        LOG.atInfo()
                                .addKeyValue("node", name)
                                .log("Externally uncordoned during drain, skipping completion annotation");
                        finish(name, null, done, gen);
                        return;
                    }
                    complete(name, desired, done, gen);
                });
            default -> finish(name, "node " + name + ": non-recognized drain verb detected " + verb, done, gen);
        }
    }

    /** Writes {@code lastAppliedDrain} (only after success). */
    private void complete(String name, String desired, WorkQueue.Done done, int gen) {
        if (!alive(gen)) {
            return;
        }
        try {
            sim.writer.annotate(name, Map.of(Mco.LAST_APPLIED_DRAIN, desired));
            finish(name, null, done, gen);
        } catch (KubernetesClientException e) {
            finish(name, "node " + name + ": failed to set node uncordoned annotation: " + e.getMessage(), done, gen);
        }
    }

    /** {@code handleErr}, then the worker is free. */
    private void finish(String name, String error, WorkQueue.Done done, int gen) {
        if (!alive(gen)) {
            return;
        }
        if (error == null) {
            queue.forget(name);
        } else if (queue.numRequeues(name) < MAX_RETRIES) {
            LOG.atDebug().addKeyValue("node", name).addKeyValue("error", error).log("Error syncing node");
            queue.addRateLimited(name);
        } else {
            LOG.atInfo().addKeyValue("node", name).addKeyValue("error", error).log("Dropping node out of the queue");
            queue.forget(name);
            queue.addAfter(name, DROPPED_REQUEUE);
        }
        done.done();
    }

    private void drainNode(int gen, Node node, String desired, Consumer<Boolean> then) {
        String name = node.getMetadata().getName();
        Instant now = sim.clock.now();
        Instant started = ongoingDrains.get(name);
        Duration duration = started == null ? Duration.ZERO : Duration.between(started, now);
        DrainControllerVersion version = sim.config.drainControllerVersion();
        if (started != null && duration.compareTo(sim.timings.drainControllerTimeout()) > 0) {
            if (version.emitsDrainFailed()) {
                event(
                        node,
                        "Warning",
                        "DrainFailed",
                        "node " + name + ": drain exceeded timeout: " + hours(sim.timings.drainControllerTimeout())
                                + ". Will continue to retry.");
            }
            drainErrors.put(name, 1.0);
        }
        Runnable drain = () -> {
            sim.mcns.set(
                    name,
                    "UpdateExecuted",
                    "Unknown",
                    "Drained",
                    "Draining Node as part of update executed phase",
                    "Drained",
                    "Unknown",
                    "Draining node. The drain will not be complete until desired drainer " + desired
                            + " matches current drainer "
                            + MachineConfigDaemon.annotation(node, Mco.LAST_APPLIED_DRAIN));
            evictionListener.accept(name);
            Instant deadline = sim.clock.now().plus(sim.timings.drainHelperTimeout());
            runDrain(gen, name, deadline, error -> {
                if (error == null) {
                    sim.mcns.set(
                            name,
                            "UpdateExecuted",
                            "Unknown",
                            "Drained",
                            "Drained Node as part of update executed phase",
                            "Drained",
                            "True",
                            "Drained node. The drain is complete as the desired drainer matches current drainer: "
                                    + desired);
                    ongoingDrains.remove(name);
                    drainErrors.remove(name);
                    then.accept(true);
                    return;
                }
                if (duration.compareTo(sim.timings.drainFailingThreshold()) > 0) {
                    event(
                            node,
                            "Warning",
                            "DrainThresholdExceeded",
                            "Drain failed. Drain has been failing for more than "
                                    + sim.timings.drainFailingThreshold().toMinutes() + " minutes. Waiting "
                                    + sim.timings.drainFailingRequeue().toMinutes()
                                    + " minutes then retrying. Error message from drain: " + error);
                    queue.addAfter(name, sim.timings.drainFailingRequeue());
                } else {
                    queue.addAfter(name, sim.timings.drainRequeue());
                }
                sim.mcns.set(
                        name,
                        "UpdateExecuted",
                        "Unknown",
                        "Drained",
                        "Node Drain has not succeeded",
                        "Drained",
                        "Unknown",
                        "Error: Node Drain has not succeeded. Error is: " + error
                                + " The drain will not be complete until desired drainer " + desired
                                + " matches current drainer "
                                + MachineConfigDaemon.annotation(sim.nodes.get(name), Mco.LAST_APPLIED_DRAIN));
                then.accept(false);
            });
        };
        boolean cordon = started == null || (version.recordonsExternalUncordon() && !unschedulable(node));
        if (!cordon) {
            drain.run();
            return;
        }
        if (started != null) {
            LOG.atInfo()
                    .addKeyValue("node", name)
                    .log("External actor has unexpectedly uncordoned node, cordoning again");
        }
        cordonOrUncordon(gen, name, true, node, error -> {
            if (error != null) {
                sim.mcns.set(
                        name,
                        "UpdateExecuted",
                        "Unknown",
                        "Cordoned",
                        "Failed to Cordon Node as part of In progress update phase",
                        "Cordoned",
                        "Unknown",
                        "Error: Failed to Cordon node. Error is " + error + ", The node is reporting Unschedulable = "
                                + unschedulable(node));
                then.accept(false);
                return;
            }
            ongoingDrains.put(name, sim.clock.now());
            sim.mcns.set(
                    name,
                    "UpdateExecuted",
                    "Unknown",
                    "Cordoned",
                    "Cordoned Node as part of update executed phase",
                    "Cordoned",
                    "True",
                    "Cordoned node. The node is reporting Unschedulable = " + unschedulable(node));
            drain.run();
        });
    }

    /**
     * One run of the drain helper ({@code RunNodeDrain}): evict, retry refusals every 5 s, wait
     * for the evicted pods to be gone; {@code then} gets null on success or the error.
     */
    private void runDrain(int gen, String name, Instant deadline, Consumer<String> then) {
        if (!alive(gen)) {
            return;
        }
        Optional<String> refused = evictAll(name);
        Instant now = sim.clock.now();
        if (refused.isPresent()) {
            if (now.plus(sim.timings.evictRetry()).isBefore(deadline)) {
                sim.clock.schedule("node/" + name, sim.timings.evictRetry(), () -> runDrain(gen, name, deadline, then));
            } else {
                then.accept(refused.get() + " (will retry after "
                        + sim.timings.evictRetry().toSeconds() + "s)");
            }
            return;
        }
        Instant gone = lastTermination(name);
        if (gone == null || !gone.isAfter(now)) {
            then.accept(null);
        } else if (gone.isAfter(deadline)) {
            sim.clock.schedule(
                    "node/" + name,
                    Duration.between(now, deadline),
                    () -> then.accept("global timeout reached: "
                            + sim.timings.drainHelperTimeout().toSeconds() + "s"));
        } else {
            sim.clock.schedule("node/" + name, Duration.between(now, gone), () -> runDrain(gen, name, deadline, then));
        }
    }

    /** When the last pod this controller evicted from {@code node} will be gone, or null. */
    private Instant lastTermination(String node) {
        Instant last = null;
        for (Pod p : pods.getIndexer().byIndex(BY_NODE, node)) {
            Instant at = terminatesAt.get(key(p));
            if (at != null && (last == null || at.isAfter(last))) {
                last = at;
            }
        }
        return last;
    }

    /** Evicts what may be evicted; the first refusal, if any. */
    private Optional<String> evictAll(String node) {
        Optional<String> refusal = Optional.empty();
        for (Pod pod : podsToEvict(node)) {
            if (terminating.contains(key(pod))) {
                continue;
            }
            // The list above may predate the pod's deletion, whose handler has since taken it out of
            // `terminating`: the informer drops a pod from its store before that handler runs, so a
            // pod still in the store now was never deleted. Evicting it again would make a second
            // replacement (seen in CI: four pods where two were evicted).
            if (pods.getStore().getByKey(key(pod)) == null) {
                continue;
            }
            String ns = pod.getMetadata().getNamespace();
            List<Pod> namespacePods = new ArrayList<>(pods.getIndexer().byIndex(Cache.NAMESPACE_INDEX, ns));
            List<PodDisruptionBudget> nsBudgets = budgets.getIndexer().byIndex(Cache.NAMESPACE_INDEX, ns);
            Optional<String> blocked = DisruptionBudgets.evictionBlocked(pod, nsBudgets, namespacePods, terminating);
            if (blocked.isPresent()) {
                if (refusal.isEmpty()) {
                    refusal = Optional.of("error when evicting pods/\""
                            + pod.getMetadata().getName() + "\" -n \"" + ns + "\": " + blocked.get());
                }
                continue;
            }
            evict(pod, node);
        }
        return refusal;
    }

    /**
     * The pod terminates and is gone after its grace period. (Kept as this controller's own
     * knowledge: the in-memory API server deletes an object at once when it gets a
     * deletionTimestamp, so the pod shows no deletionTimestamp meanwhile.)
     */
    private void evict(Pod pod, String node) {
        String ns = pod.getMetadata().getNamespace();
        String podName = pod.getMetadata().getName();
        String k = key(pod);
        terminating.add(k);
        Duration grace = sim.timings.podTermination();
        var slow = sim.fault(node, Fault.SlowDrain.class);
        if (slow != null) {
            grace = grace.plus(slow.extra());
        }
        grace = sim.jittered(node, grace);
        Instant at = sim.clock.now().plus(grace);
        terminatesAt.put(k, at);
        sim.clock.schedule("node/" + node, grace, () -> {
            try {
                sim.client.pods().inNamespace(ns).withName(podName).delete();
            } finally {
                terminatesAt.remove(k);
            }
        });
        reschedule(pod, node);
    }

    void onPodDeleted(Pod pod) {
        terminating.remove(key(pod));
        terminatesAt.remove(key(pod));
    }

    private List<Pod> podsToEvict(String node) {
        return pods.getIndexer().byIndex(BY_NODE, node).stream()
                .filter(p -> !ownedBy(p, "DaemonSet"))
                .filter(p -> p.getMetadata().getAnnotations() == null
                        || !p.getMetadata().getAnnotations().containsKey("kubernetes.io/config.mirror"))
                .toList();
    }

    /** A ReplicaSet replaces its evicted pod on another node that admits it, Pending until the kubelet starts it. */
    private void reschedule(Pod evicted, String fromNode) {
        if (!ownedBy(evicted, "ReplicaSet")) {
            return;
        }
        List<Toleration> tolerations = evicted.getSpec().getTolerations() == null
                ? List.of()
                : evicted.getSpec().getTolerations();
        Map<String, String> selector = evicted.getSpec().getNodeSelector() == null
                ? Map.of()
                : evicted.getSpec().getNodeSelector();
        List<Node> all = sim.nodes.all();
        for (int tries = 0; tries < 50 && !all.isEmpty(); tries++) {
            Node target;
            synchronized (placement) {
                target = all.get(placement.nextInt(all.size()));
            }
            if (target.getMetadata().getName().equals(fromNode) || !Scheduling.admits(target, tolerations, selector)) {
                continue;
            }
            String owner = evicted.getMetadata().getOwnerReferences().stream()
                    .filter(o -> "ReplicaSet".equals(o.getKind()))
                    .findFirst()
                    .map(OwnerReference::getName)
                    .orElse("pod");
            String suffix;
            synchronized (placement) {
                suffix = Long.toString(placement.nextLong() & 0xffffffffL, 36);
            }
            var replacement = new PodBuilder()
                    .withNewMetadata()
                    .withName(owner + "-" + suffix)
                    .withNamespace(evicted.getMetadata().getNamespace())
                    .withLabels(evicted.getMetadata().getLabels())
                    .withOwnerReferences(evicted.getMetadata().getOwnerReferences())
                    .endMetadata()
                    .withSpec(evicted.getSpec())
                    .editSpec()
                    .withNodeName(target.getMetadata().getName())
                    .endSpec()
                    .withNewStatus()
                    .withPhase("Pending")
                    .endStatus()
                    .build();
            sim.as(Identities.REPLICASET_CONTROLLER)
                    .client
                    .pods()
                    .inNamespace(evicted.getMetadata().getNamespace())
                    .resource(replacement)
                    .create();
            return;
        }
        LOG.atInfo().addKeyValue("node", fromNode).log("No schedulable node for an evicted pod");
    }

    /**
     * {@code cordonOrUncordonNode}: up to 5 tries (+0, 10, 30, 70, 150 s), each writing
     * {@code spec.unschedulable} unless the node already is in that state and then reading the
     * node back; {@code then} gets null on success or the last error.
     */
    private void cordonOrUncordon(int gen, String name, boolean desired, Node first, Consumer<String> then) {
        tryCordon(gen, name, desired, first, 0, sim.timings.cordonBackoff(), null, then);
    }

    private void tryCordon(
            int gen,
            String name,
            boolean desired,
            Node current,
            int step,
            Duration wait,
            String lastError,
            Consumer<String> then) {
        if (!alive(gen)) {
            return;
        }
        if (step == CORDON_STEPS) {
            String verb = desired ? "cordon" : "uncordon";
            then.accept("node " + name + ": failed to " + verb + " (" + CORDON_STEPS + " tries): [timed out waiting for"
                    + " the condition" + (lastError == null ? "" : ", " + lastError) + "]");
            return;
        }
        String error = null;
        Node next = current;
        try {
            if (current != null && unschedulable(current) != desired) {
                sim.writer.update(name, n -> setUnschedulable(n, desired));
            }
            next = sim.client.nodes().withName(name).get();
            if (next == null) {
                error = "node " + name + " not found";
            } else {
                sim.nodes.wrote(next);
                if (unschedulable(next) == desired) {
                    then.accept(null);
                    return;
                }
            }
        } catch (KubernetesClientException e) {
            error = e.getMessage();
        }
        String err = error == null ? lastError : error;
        Node retryWith = next;
        sim.clock.schedule(
                "node/" + name,
                wait,
                () -> tryCordon(gen, name, desired, retryWith, step + 1, wait.multipliedBy(2), err, then));
    }

    /** Cordon/uncordon, with the taint the node lifecycle controller mirrors it with (in one write). */
    static Node setUnschedulable(Node n, boolean unschedulable) {
        List<Taint> taints = n.getSpec().getTaints() == null
                ? new ArrayList<>()
                : new ArrayList<>(n.getSpec().getTaints());
        boolean hasTaint = taints.stream().anyMatch(DrainController::isUnschedulableTaint);
        if (unschedulable(n) == unschedulable && hasTaint == unschedulable) {
            return null;
        }
        taints.removeIf(DrainController::isUnschedulableTaint);
        if (unschedulable) {
            taints.add(new TaintBuilder()
                    .withKey(Mco.UNSCHEDULABLE_TAINT)
                    .withEffect("NoSchedule")
                    .build());
        }
        n.getSpec().setTaints(taints);
        n.getSpec().setUnschedulable(unschedulable ? Boolean.TRUE : null);
        return n;
    }

    private boolean alive(int gen) {
        return running && gen == queue.generation();
    }

    private static boolean isUnschedulableTaint(Taint t) {
        return Mco.UNSCHEDULABLE_TAINT.equals(t.getKey()) && "NoSchedule".equals(t.getEffect());
    }

    /** The drain controller records its events with the node controller's source component. */
    private void event(Node node, String type, String reason, String message) {
        sim.events.node(
                node.getMetadata().getName(),
                node.getMetadata().getUid(),
                type,
                reason,
                message,
                EventRecorder.NODE_CONTROLLER);
    }

    private static String hours(Duration d) {
        return d.toHours() + "h0m0s";
    }

    private static boolean ownedBy(Pod p, String kind) {
        return p.getMetadata().getOwnerReferences() != null
                && p.getMetadata().getOwnerReferences().stream().anyMatch(o -> kind.equals(o.getKind()));
    }

    static String key(Pod p) {
        return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    }

    private static String desiredDrain(Node n) {
        return MachineConfigDaemon.annotation(n, Mco.DESIRED_DRAIN);
    }

    private static boolean unschedulable(Node n) {
        return n != null
                && n.getSpec() != null
                && Boolean.TRUE.equals(n.getSpec().getUnschedulable());
    }
}
