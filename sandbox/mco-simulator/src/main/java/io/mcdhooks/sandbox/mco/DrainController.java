package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCC's drain controller: carries out {@code desiredDrain} requests and echoes them in
 * {@code lastAppliedDrain}.
 *
 * <p>Drain: cordon (and re-cordon when someone uncordons mid-drain), evict every pod except
 * DaemonSet and mirror pods, honouring PodDisruptionBudgets. As kubectl's drain helper the MCO
 * uses, a refused eviction is retried every 5 s, and the drain has failed only when the helper's
 * 90 s are up; on failure retry after 1 min, after 10 min of failures emit DrainThresholdExceeded
 * and retry every 5 min, after 1 h also emit DrainFailed. Uncordon: {@code spec.unschedulable=false}. Evicted ReplicaSet pods are recreated at
 * once on another schedulable node (the ReplicaSet controller and scheduler, collapsed).
 */
final class DrainController {

    private static final Logger LOG = LoggerFactory.getLogger(DrainController.class);
    private static final String BY_NODE = "spec.nodeName";

    private final SimContext sim;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<PodDisruptionBudget> budgets;
    private final Map<String, Instant> ongoingDrains = new ConcurrentHashMap<>();
    private final Map<String, SimClock.Timer> queued = new ConcurrentHashMap<>();
    private final Map<String, Integer> completions = new ConcurrentHashMap<>();
    // The drain helper's current run per node, and when it last evicted a pod.
    private final Map<String, Instant> helperStarted = new ConcurrentHashMap<>();
    private final Map<String, Instant> lastEviction = new ConcurrentHashMap<>();
    // Deleted by us but maybe still in the informer: never evict or replace a pod twice.
    private final Set<String> evicted = ConcurrentHashMap.newKeySet();
    private final Random placement;

    DrainController(SimContext sim, SharedIndexInformer<Pod> pods, SharedIndexInformer<PodDisruptionBudget> budgets) {
        this.sim = sim;
        this.pods = pods;
        this.budgets = budgets;
        this.placement = new Random(sim.config.seed());
    }

    /** The index the pod informer must carry. */
    static Map<String, Function<Pod, List<String>>> podIndexers() {
        return Map.of(
                BY_NODE,
                p -> p.getSpec() == null || p.getSpec().getNodeName() == null
                        ? List.of()
                        : List.of(p.getSpec().getNodeName()));
    }

    /** As the MCO: react when desiredDrain or spec.unschedulable changes. */
    void onNodeEvent(Node old, Node now) {
        if (old != null
                && Objects.equals(annotation(old), annotation(now))
                && unschedulable(old) == unschedulable(now)) {
            return;
        }
        enqueue(now.getMetadata().getName(), sim.timings.controllerDelay());
    }

    void onPodDeleted(Pod pod) {
        evicted.remove(key(pod));
    }

    private void enqueue(String node, Duration delay) {
        queued.compute(node, (k, pending) -> {
            if (pending != null && pending.pending() && pending.remaining().compareTo(delay) <= 0) {
                return pending;
            }
            if (pending != null) {
                pending.cancel();
            }
            return sim.clock.schedule("node/" + node, delay, () -> sync(node));
        });
    }

    private void sync(String name) {
        Node node = sim.nodes.get(name);
        if (node == null) {
            return;
        }
        String desired = annotation(node);
        if (desired.isEmpty() || desired.equals(MachineConfigDaemon.annotation(node, Mco.LAST_APPLIED_DRAIN))) {
            return;
        }
        if (desired.startsWith("uncordon-")) {
            uncordon(name, desired);
        } else if (desired.startsWith("drain-")) {
            drain(node, desired);
        } else {
            LOG.atWarn()
                    .addKeyValue("node", name)
                    .addKeyValue("desiredDrain", desired)
                    .log("Unrecognised drain verb");
        }
    }

    private void uncordon(String name, String desired) {
        helperStarted.remove(name);
        sim.writer.update(name, n -> setUnschedulable(n, false));
        sim.mcns.set(
                name,
                "Uncordoned",
                "True",
                "UpdateCompleteUncordoned",
                "UnCordoned node. The node is reporting Unschedulable = false");
        sim.mcns.set(
                name, "UpdateComplete", "True", "Uncordoned", "Uncordoned Node as part of completing upgrade phase");
        sim.writer.annotate(name, Map.of(Mco.LAST_APPLIED_DRAIN, desired));
    }

    private void drain(Node node, String desired) {
        String name = node.getMetadata().getName();
        Instant now = sim.clock.now();
        // A run of the drain helper spans its retries of refused evictions; the MCO's drainNode (its
        // DrainFailed check, its cordon) runs once per helper run.
        boolean newRun = !helperStarted.containsKey(name);
        Instant helperStart = helperStarted.computeIfAbsent(name, k -> now);
        Instant started = ongoingDrains.get(name);
        Duration failingFor = started == null ? Duration.ZERO : Duration.between(started, now);
        if (newRun && started != null && failingFor.compareTo(sim.timings.drainControllerTimeout()) > 0) {
            event(
                    node,
                    "Warning",
                    "DrainFailed",
                    "node " + name + ": drain exceeded timeout: " + sim.timings.drainControllerTimeout()
                            + ". Will continue to retry.");
        }
        if (started == null || !unschedulable(node)) {
            sim.writer.update(name, n -> setUnschedulable(n, true));
            ongoingDrains.put(name, now);
            sim.mcns.set(
                    name, "UpdateExecuted", "Unknown", "Cordoned", "Cordoned Node as part of update executed phase");
            sim.mcns.set(
                    name,
                    "Cordoned",
                    "True",
                    "UpdateExecutedCordoned",
                    "Cordoned node. The node is reporting Unschedulable = true");
        }
        if (newRun) {
            sim.mcns.set(
                    name,
                    "Drained",
                    "Unknown",
                    "UpdateExecutedDrained",
                    "Draining node. The drain will not be complete until desired drainer " + desired
                            + " matches current drainer");
        }
        Optional<String> blocked = evictAll(name);
        if (blocked.isPresent()
                && now.plus(sim.timings.evictRetry()).isBefore(helperStart.plus(sim.timings.drainHelperTimeout()))) {
            // Refused, but the helper tries again within its timeout: the drain has not failed yet.
            enqueue(name, sim.timings.evictRetry());
            return;
        }
        helperStarted.remove(name);
        if (blocked.isPresent()) {
            Duration retry = sim.timings.drainRequeue();
            if (failingFor.compareTo(sim.timings.drainFailingThreshold()) > 0) {
                retry = sim.timings.drainFailingRequeue();
                event(
                        node,
                        "Warning",
                        "DrainThresholdExceeded",
                        "Drain failed. Drain has been failing"
                                + " for more than "
                                + sim.timings.drainFailingThreshold().toMinutes()
                                + " minutes. Waiting " + retry.toMinutes() + " minutes then retrying. Error message"
                                + " from drain: " + blocked.get());
            }
            sim.mcns.set(
                    name,
                    "Drained",
                    "Unknown",
                    "UpdateExecutedDrained",
                    "Error: Node Drain has not succeeded. Error is: " + blocked.get());
            enqueue(name, retry);
            return;
        }
        // Evicted pods take their grace period to go, counted from the last eviction (pods evicted
        // before a refusal was retried are already on their way); a slow-drain fault stretches it.
        Duration grace = sim.timings.podTermination();
        var slow = sim.fault(name, Fault.SlowDrain.class);
        if (slow != null) {
            grace = grace.plus(slow.extra());
        }
        Instant evictedAt = lastEviction.getOrDefault(name, now);
        Duration wait = Duration.between(now, evictedAt.plus(sim.jittered(name, grace)));
        int token = completions.merge(name, 1, Integer::sum);
        sim.clock.schedule(
                "node/" + name, wait.isNegative() ? Duration.ZERO : wait, () -> complete(name, desired, token));
    }

    private void complete(String name, String desired, int token) {
        Node node = sim.nodes.get(name);
        if (node == null || completions.get(name) != token || !desired.equals(annotation(node))) {
            return;
        }
        if (!unschedulable(node)) {
            // Uncordoned during the drain: new pods may have landed. The Node event re-queues us.
            LOG.atInfo().addKeyValue("node", name).log("Externally uncordoned during drain");
            return;
        }
        if (!podsToEvict(name).isEmpty()) {
            enqueue(name, Duration.ZERO);
            return;
        }
        sim.mcns.set(
                name,
                "Drained",
                "True",
                "UpdateExecutedDrained",
                "Drained node. The drain is complete as the desired drainer matches current drainer: " + desired);
        ongoingDrains.remove(name);
        lastEviction.remove(name);
        sim.writer.annotate(name, Map.of(Mco.LAST_APPLIED_DRAIN, desired));
    }

    /** Evicts what may be evicted; the first refusal, if any. */
    private Optional<String> evictAll(String node) {
        Optional<String> refusal = Optional.empty();
        Set<String> gone = new HashSet<>();
        for (Pod pod : podsToEvict(node)) {
            String ns = pod.getMetadata().getNamespace();
            List<Pod> namespacePods = new ArrayList<>();
            for (Pod p : pods.getIndexer().byIndex(Cache.NAMESPACE_INDEX, ns)) {
                if (!gone.contains(key(p)) && !evicted.contains(key(p))) {
                    namespacePods.add(p);
                }
            }
            List<PodDisruptionBudget> nsBudgets = budgets.getIndexer().byIndex(Cache.NAMESPACE_INDEX, ns);
            Optional<String> blocked = DisruptionBudgets.evictionBlocked(pod, nsBudgets, namespacePods);
            if (blocked.isPresent()) {
                if (refusal.isEmpty()) {
                    refusal = Optional.of("error when evicting pods/\""
                            + pod.getMetadata().getName() + "\" -n \"" + ns + "\": " + blocked.get());
                }
                continue;
            }
            evicted.add(key(pod));
            lastEviction.put(node, sim.clock.now());
            sim.client
                    .pods()
                    .inNamespace(ns)
                    .withName(pod.getMetadata().getName())
                    .delete();
            gone.add(key(pod));
            reschedule(pod, node);
        }
        return refusal;
    }

    private List<Pod> podsToEvict(String node) {
        return pods.getIndexer().byIndex(BY_NODE, node).stream()
                .filter(p -> !ownedBy(p, "DaemonSet"))
                .filter(p -> !evicted.contains(key(p)))
                .filter(p -> p.getMetadata().getAnnotations() == null
                        || !p.getMetadata().getAnnotations().containsKey("kubernetes.io/config.mirror"))
                .toList();
    }

    /** A ReplicaSet replaces its evicted pod on some other schedulable node. */
    private void reschedule(Pod evicted, String fromNode) {
        if (!ownedBy(evicted, "ReplicaSet")) {
            return;
        }
        List<Node> all = sim.nodes.all();
        for (int tries = 0; tries < 50 && !all.isEmpty(); tries++) {
            Node target;
            synchronized (placement) {
                target = all.get(placement.nextInt(all.size()));
            }
            if (target.getMetadata().getName().equals(fromNode) || !schedulable(target)) {
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
                    .withPhase("Running")
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

    private static boolean schedulable(Node n) {
        if (unschedulable(n) || !NodeView.of(n).ready()) {
            return false;
        }
        return n.getSpec().getTaints() == null
                || n.getSpec().getTaints().stream()
                        .noneMatch(t -> "NoSchedule".equals(t.getEffect()) || "NoExecute".equals(t.getEffect()));
    }

    /** Cordon/uncordon, with the taint the node lifecycle controller mirrors it with. */
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

    private static boolean isUnschedulableTaint(Taint t) {
        return Mco.UNSCHEDULABLE_TAINT.equals(t.getKey()) && "NoSchedule".equals(t.getEffect());
    }

    private void event(Node node, String type, String reason, String message) {
        sim.events.node(
                node.getMetadata().getName(),
                node.getMetadata().getUid(),
                type,
                reason,
                message,
                EventRecorder.DRAIN_CONTROLLER);
    }

    private static boolean ownedBy(Pod p, String kind) {
        return p.getMetadata().getOwnerReferences() != null
                && p.getMetadata().getOwnerReferences().stream().anyMatch(o -> kind.equals(o.getKind()));
    }

    private static String key(Pod p) {
        return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    }

    private static String annotation(Node n) {
        return MachineConfigDaemon.annotation(n, Mco.DESIRED_DRAIN);
    }

    private static boolean unschedulable(Node n) {
        return n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable());
    }
}
