package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.bridge.gate.GateObjects;
import io.mcdhooks.bridge.gate.GatePodHealth;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.mcdhooks.bridge.gate.LeverWrites;
import io.mcdhooks.bridge.kube.McoInformers;
import io.mcdhooks.bridge.mco.McoApi;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Pulls the levers through the Kubernetes API, and only those {@link LeverPlan} asks for: it
 * pauses and unpauses pools, taints, cordons and uncordons nodes, and creates and deletes gate
 * pods with their PodDisruptionBudgets in its own namespace ({@link GateObjects}); what to write
 * is {@link LeverWrites}'. It watches the gate pods and budgets it made, to know which exist.
 *
 * <p>Writes are blocking fabric8 calls on the gatekeeper's worker pool, one at a time per object;
 * a write that loses a race (409) or fails is planned again from the latest state after a
 * back-off (200 ms, doubling to 10 s), since every write is derived from state. Runs on the
 * gatekeeper's event loop.
 */
final class LeverActuator implements Levers {

    private static final Logger LOG = LoggerFactory.getLogger(LeverActuator.class);
    private static final long RESYNC_MILLIS = Duration.ofMinutes(5).toMillis();
    private static final long RETRY_FIRST_MILLIS = 200;
    private static final long RETRY_LONGEST_MILLIS = Duration.ofSeconds(10).toMillis();
    private static final int WARN_AFTER_FAILURES = 5;

    private final KubernetesClient client;
    private final String namespace;
    private final String pauseImage;
    private final WorkerExecutor worker;
    private final Context context;
    private final Set<String> inFlight = new HashSet<>();
    /** Objects whose write was skipped while another was in flight, with how to plan them again. */
    private final Map<String, Runnable> skipped = new HashMap<>();
    /** Objects whose last writes failed, with how many in a row: the back-off before the next. */
    private final Map<String, Integer> failures = new HashMap<>();
    /** Retries waiting for their back-off: cancelled on stop, so a gatekeeper that stopped writes nothing. */
    private final Set<Long> retryTimers = new HashSet<>();

    private boolean stopped;

    /** Nodes a cordoning write of which is in flight. */
    private final Set<String> cordoning = new HashSet<>();

    private final Set<String> gatePods = new HashSet<>();
    /** Gate pods that exist but do not hold (not Running and Ready), by node, with why. */
    private final Map<String, String> notHolding = new HashMap<>();

    private final Set<String> gateBudgets = new HashSet<>();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

    LeverActuator(
            KubernetesClient client, WorkerExecutor worker, Context context, String namespace, String pauseImage) {
        this.client = client;
        this.worker = worker;
        this.context = context;
        this.namespace = namespace;
        this.pauseImage = pauseImage;
    }

    @Override
    public Future<Void> watch(Consumer<String> changed) {
        SharedIndexInformer<Pod> pods = client.pods()
                .inNamespace(namespace)
                .withLabel(GateObjects.MANAGED_BY, GateObjects.MANAGER)
                .runnableInformer(RESYNC_MILLIS);
        pods.addEventHandler(McoInformers.levelHandler(
                p -> context.runOnContext(v -> seenPod(p, true, changed)),
                (p, unknown) -> context.runOnContext(v -> seenPod(p, false, changed))));
        SharedIndexInformer<PodDisruptionBudget> budgets = client.policy()
                .v1()
                .podDisruptionBudget()
                .inNamespace(namespace)
                .withLabel(GateObjects.MANAGED_BY, GateObjects.MANAGER)
                .runnableInformer(RESYNC_MILLIS);
        budgets.addEventHandler(McoInformers.levelHandler(
                b -> context.runOnContext(v -> seen(gateBudgets, b, true, changed)),
                (b, unknown) -> context.runOnContext(v -> seen(gateBudgets, b, false, changed))));
        informers.add(pods);
        informers.add(budgets);
        return Future.all(
                        Future.fromCompletionStage(pods.start(), context),
                        Future.fromCompletionStage(budgets.start(), context))
                .mapEmpty();
    }

    private void seenPod(Pod pod, boolean exists, Consumer<String> changed) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String node = annotations == null ? null : annotations.get(GateObjects.NODE_ANNOTATION);
        if (node != null) {
            String why = exists ? GatePodHealth.whyNotHolding(pod) : null;
            if (why == null) {
                notHolding.remove(node);
            } else {
                notHolding.put(node, why);
            }
        }
        seen(gatePods, pod, exists, changed);
    }

    private static void seen(Set<String> names, HasMetadata object, boolean exists, Consumer<String> changed) {
        if (exists) {
            names.add(object.getMetadata().getName());
        } else {
            names.remove(object.getMetadata().getName());
        }
        Map<String, String> annotations = object.getMetadata().getAnnotations();
        String node = annotations == null ? null : annotations.get(GateObjects.NODE_ANNOTATION);
        if (node != null) {
            changed.accept(node);
        }
    }

    @Override
    public boolean gatePodReady(String node) {
        String name = GateObjects.gateName(node);
        return gatePods.contains(name) && gateBudgets.contains(name) && !notHolding.containsKey(node);
    }

    @Override
    public boolean cordoning(String node) {
        return cordoning.contains(node);
    }

    @Override
    public Map<String, String> gatePodsNotHolding() {
        return Map.copyOf(notHolding);
    }

    @Override
    public void nodeDeleted(String node, Runnable planAgain) {
        if (gateObjectsExist(node)) {
            run("gate/" + node, planAgain, () -> deleteGate(node));
        }
    }

    @Override
    public void applyNode(Node current, LeverPlan.NodeLevers want, Runnable planAgain) {
        String name = current.getMetadata().getName();
        // Marked while on its way, so that the pool's pause waits for it (LeverReconciler).
        String cordons = want.cordon() && !Boolean.TRUE.equals(current.getSpec().getUnschedulable()) ? name : null;
        switch (LeverWrites.node(current, want)) {
            // The race that matters: the MCD's uncordon lands, and the MCC may pick the next node
            // as soon as this one looks Done. A merge patch needs no read first and cannot lose
            // an optimistic-lock race, so the cordon is back within one round trip.
            case CORDON ->
                run("node/" + name, planAgain, () -> cordon(name, want.postUpdateGate(), want.hold()), cordons);
            case EDIT -> run("node/" + name, planAgain, () -> editNode(name, want), cordons);
            case NONE -> {}
        }
        if (want.gatePod() && !gateObjectsComplete(name)) {
            run("gate/" + name, planAgain, () -> createGate(name));
        } else if (!want.gatePod() && gateObjectsExist(name)) {
            run("gate/" + name, planAgain, () -> deleteGate(name));
        }
    }

    @Override
    public void applyPool(GenericKubernetesResource pool, Boolean paused, Runnable planAgain) {
        Boolean target = LeverWrites.poolPause(pool, paused);
        if (target == null) {
            return;
        }
        String name = pool.getMetadata().getName();
        run("pool/" + name, planAgain, () -> {
            client.genericKubernetesResources(McoInformers.context(McoApi.POOL_KIND, "v1"))
                    .withName(name)
                    .edit(p -> {
                        LeverWrites.pause(p, target);
                        return p;
                    });
            LOG.atInfo().addKeyValue("pool", name).log(target ? "paused pool" : "unpaused pool");
            return null;
        });
    }

    @Override
    public void stop() {
        stopped = true;
        retryTimers.forEach(context.owner()::cancelTimer);
        retryTimers.clear();
        informers.forEach(SharedIndexInformer::stop);
    }

    private boolean gateObjectsComplete(String node) {
        String name = GateObjects.gateName(node);
        return gatePods.contains(name) && gateBudgets.contains(name);
    }

    private boolean gateObjectsExist(String node) {
        String name = GateObjects.gateName(node);
        return gatePods.contains(name) || gateBudgets.contains(name);
    }

    private Void cordon(String name, String gateId, boolean hold) {
        client.nodes()
                .withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), LeverWrites.cordonPatch(gateId, hold));
        return null;
    }

    private Void editNode(String name, LeverPlan.NodeLevers want) {
        Node node = client.nodes().withName(name).get();
        if (node == null || !LeverWrites.edit(node, want)) {
            return null;
        }
        // Optimistic lock: the MCD and the drain controller write this node too.
        client.nodes()
                .resource(node)
                .lockResourceVersion(node.getMetadata().getResourceVersion())
                .update();
        return null;
    }

    private Void createGate(String node) {
        String name = GateObjects.gateName(node);
        var budgets = client.policy().v1().podDisruptionBudget().inNamespace(namespace);
        if (budgets.withName(name).get() == null) {
            budgets.resource(GateObjects.budget(node, namespace)).create();
        }
        if (client.pods().inNamespace(namespace).withName(name).get() == null) {
            client.pods()
                    .inNamespace(namespace)
                    .resource(GateObjects.pod(node, namespace, pauseImage))
                    .create();
        }
        LOG.atInfo().addKeyValue("node", node).log("gate pod in place: the node's drain cannot finish");
        return null;
    }

    private Void deleteGate(String node) {
        String name = GateObjects.gateName(node);
        client.pods().inNamespace(namespace).withName(name).delete();
        client.policy()
                .v1()
                .podDisruptionBudget()
                .inNamespace(namespace)
                .withName(name)
                .delete();
        LOG.atInfo().addKeyValue("node", node).log("gate pod removed: the node's drain may finish");
        return null;
    }

    /**
     * One write per object at a time. A write asked for while another is in flight is skipped,
     * but not lost: when the one in flight ends, the caller is asked to plan again from the
     * object as then known (nothing else may come to heal it before the informer's resync).
     */
    private void run(String key, Runnable planAgain, Callable<Void> write) {
        run(key, planAgain, write, null);
    }

    /** @param cordons the node this write cordons, or null */
    private void run(String key, Runnable planAgain, Callable<Void> write, String cordons) {
        if (!inFlight.add(key)) {
            skipped.put(key, planAgain);
            return;
        }
        if (cordons != null) {
            cordoning.add(cordons);
        }
        worker.executeBlocking(write, false).onComplete(r -> {
            inFlight.remove(key);
            if (cordons != null) {
                cordoning.remove(cordons);
            }
            Runnable again = skipped.remove(key);
            if (r.succeeded()) {
                failures.remove(key);
            } else {
                // Planned again after a back-off, not on the next event: a write refused by a
                // server error, or by a conflict with nothing to change, brings no event, and a
                // lever left where it was holds a node or a pool until something else happens.
                int failed = failures.merge(key, 1, Integer::sum);
                long delay = Math.min(RETRY_LONGEST_MILLIS, RETRY_FIRST_MILLIS << Math.min(failed - 1, 6));
                Throwable e = r.cause();
                boolean conflict = e instanceof KubernetesClientException k && k.getCode() == 409;
                // A write refused again and again (an admission policy, RBAC) is worth a look.
                LOG.atLevel(failed == WARN_AFTER_FAILURES ? Level.WARN : Level.DEBUG)
                        .addKeyValue("object", key)
                        .addKeyValue("failures", failed)
                        .setCause(e)
                        .log("write {}; planning again in {} ms", conflict ? "lost a race" : "failed", delay);
                Runnable retry = again != null ? again : planAgain;
                if (!stopped) {
                    long[] id = new long[1];
                    id[0] = context.owner().setTimer(delay, t -> {
                        retryTimers.remove(id[0]);
                        retry.run();
                    });
                    retryTimers.add(id[0]);
                }
                return;
            }
            if (again != null) {
                again.run();
            }
        });
    }
}
