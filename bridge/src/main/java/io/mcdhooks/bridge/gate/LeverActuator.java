package io.mcdhooks.bridge.gate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.watch.McoInformers;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pulls the levers {@link LeverPlan} asks for, and only those: it pauses and unpauses pools,
 * taints, cordons and uncordons nodes, and creates and deletes gate pods with their
 * PodDisruptionBudgets in its own namespace. It never writes what the MCO owns (its annotations)
 * and only undoes what it did itself: it uncordons a node only if its own annotation says it
 * cordoned it, and unpauses a pool it has no say over only if it paused it.
 *
 * <p>Writes are blocking fabric8 calls on a named worker pool, one at a time per object; a write
 * that loses a race (409) or fails is simply planned again on the next reconcile, since every
 * write is derived from state.
 */
public final class LeverActuator {

    /** On a node the gatekeeper cordoned: the gate that keeps it cordoned. */
    public static final String CORDONED_FOR = "mcdhooks.io/cordoned-for";
    /** On a pool the gatekeeper paused. */
    public static final String PAUSED_BY = "mcdhooks.io/paused-by";

    public static final String GATEKEEPER = "gatekeeper";
    /** Labels of gate pods: the hash of the node they sit on (label values are short). */
    public static final String GATE_LABEL = "mcdhooks.io/gate";

    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String MANAGER = "mcdhooks-gatekeeper";

    private static final Logger LOG = LoggerFactory.getLogger(LeverActuator.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final String namespace;
    private final String pauseImage;
    private final WorkerExecutor worker;
    private final Set<String> inFlight = new HashSet<>();
    /** Objects whose write was skipped while another was in flight, with how to plan them again. */
    private final Map<String, Runnable> skipped = new HashMap<>();

    private final Set<String> gatePods = new HashSet<>();
    private final Set<String> gateBudgets = new HashSet<>();

    public LeverActuator(Vertx vertx, KubernetesClient client, String namespace, String pauseImage) {
        this.client = client;
        this.namespace = namespace;
        this.pauseImage = pauseImage;
        this.worker = vertx.createSharedWorkerExecutor("kubernetes-levers", 4);
    }

    /** Whether the gate pod and its budget for {@code node} exist, as last seen by the informers. */
    public boolean gatePodReady(String node) {
        String name = gateName(node);
        return gatePods.contains(name) && gateBudgets.contains(name);
    }

    public void seenGatePod(String name, boolean exists) {
        if (exists) {
            gatePods.add(name);
        } else {
            gatePods.remove(name);
        }
    }

    public void seenGateBudget(String name, boolean exists) {
        gateBudgets.remove(name);
        if (exists) {
            gateBudgets.add(name);
        }
    }

    /** A node is gone: its gate pod goes with it, and its budget must not stay behind. */
    public void nodeDeleted(String node, Runnable planAgain) {
        String name = gateName(node);
        if (gatePods.contains(name) || gateBudgets.contains(name)) {
            run("gate/" + node, planAgain, () -> {
                deleteGate(node);
                return null;
            });
        }
    }

    /**
     * Brings {@code node}'s levers to {@code want}; {@code current} is the node as last seen.
     * {@code planAgain} runs once a write ends that made this call skip one of its own.
     */
    public void applyNode(Node current, LeverPlan.NodeLevers want, Runnable planAgain) {
        String name = current.getMetadata().getName();
        boolean tainted = hasTaint(current);
        boolean cordoned = Boolean.TRUE.equals(current.getSpec().getUnschedulable());
        String ourCordon = annotation(current, CORDONED_FOR);
        boolean needTaint = want.postUpdateTaint() != tainted;
        boolean needCordon = want.cordon() && !cordoned;
        boolean needUncordon = !want.cordon() && ourCordon != null;
        if (needCordon && !needTaint) {
            // The race that matters: the MCD's uncordon lands, and the MCC may pick the next node
            // as soon as this one looks Done. A merge patch needs no read first and cannot lose
            // an optimistic-lock race, so the cordon is back within one round trip.
            run("node/" + name, planAgain, () -> {
                cordon(name, want.postUpdateGate());
                return null;
            });
        } else if (needTaint || needCordon || needUncordon) {
            run("node/" + name, planAgain, () -> {
                editNode(name, want);
                return null;
            });
        }
        boolean podReady = gatePodReady(name);
        if (want.gatePod() && !podReady) {
            run("gate/" + name, planAgain, () -> {
                createGate(name);
                return null;
            });
        } else if (!want.gatePod() && (gatePods.contains(gateName(name)) || gateBudgets.contains(gateName(name)))) {
            run("gate/" + name, planAgain, () -> {
                deleteGate(name);
                return null;
            });
        }
    }

    /**
     * Brings {@code pool}'s pause to {@code paused}; {@code null}: no say, only undo a pause of its
     * own. {@code planAgain} as for {@link #applyNode}.
     */
    public void applyPool(GenericKubernetesResource pool, Boolean paused, Runnable planAgain) {
        boolean isPaused = Boolean.TRUE.equals(pool.get("spec", "paused"));
        String ours = pool.getMetadata().getAnnotations() == null
                ? null
                : pool.getMetadata().getAnnotations().get(PAUSED_BY);
        Boolean target = paused != null ? paused : ours != null && isPaused ? Boolean.FALSE : null;
        if (target == null || target == isPaused && (target ? ours != null : ours == null)) {
            return;
        }
        String name = pool.getMetadata().getName();
        run("pool/" + name, planAgain, () -> {
            client.genericKubernetesResources(McoInformers.context(McoApi.POOL_KIND, "v1"))
                    .withName(name)
                    .edit(p -> {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> spec = new HashMap<>((Map<String, Object>)
                                p.getAdditionalProperties().getOrDefault("spec", Map.of()));
                        spec.put("paused", target);
                        p.setAdditionalProperty("spec", spec);
                        Map<String, String> annotations = p.getMetadata().getAnnotations() == null
                                ? new HashMap<>()
                                : new HashMap<>(p.getMetadata().getAnnotations());
                        if (target) {
                            annotations.put(PAUSED_BY, GATEKEEPER);
                        } else {
                            annotations.remove(PAUSED_BY);
                        }
                        p.getMetadata().setAnnotations(annotations);
                        return p;
                    });
            LOG.atInfo().addKeyValue("pool", name).log(target ? "paused pool" : "unpaused pool");
            return null;
        });
    }

    private void cordon(String name, String gateId) {
        String patch = JSON.createObjectNode()
                .<ObjectNode>set("spec", JSON.createObjectNode().put("unschedulable", true))
                .set(
                        "metadata",
                        JSON.createObjectNode()
                                .set("annotations", JSON.createObjectNode().put(CORDONED_FOR, gateId)))
                .toString();
        client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }

    private void editNode(String name, LeverPlan.NodeLevers want) {
        Node node = client.nodes().withName(name).get();
        if (node == null) {
            return;
        }
        boolean changed = false;
        List<Taint> taints = node.getSpec().getTaints() == null
                ? new ArrayList<>()
                : new ArrayList<>(node.getSpec().getTaints());
        boolean tainted = taints.stream().anyMatch(t -> LeverPlan.POST_UPDATE_TAINT.equals(t.getKey()));
        if (want.postUpdateTaint() && !tainted) {
            taints.add(new TaintBuilder()
                    .withKey(LeverPlan.POST_UPDATE_TAINT)
                    .withValue(GATEKEEPER)
                    .withEffect("NoSchedule")
                    .build());
            changed = true;
        } else if (!want.postUpdateTaint() && tainted) {
            taints.removeIf(t -> LeverPlan.POST_UPDATE_TAINT.equals(t.getKey()));
            changed = true;
        }
        node.getSpec().setTaints(taints);
        Map<String, String> annotations = node.getMetadata().getAnnotations() == null
                ? new HashMap<>()
                : new HashMap<>(node.getMetadata().getAnnotations());
        if (want.cordon() && !Boolean.TRUE.equals(node.getSpec().getUnschedulable())) {
            // Only a cordon this gatekeeper set carries its mark; only those does it ever lift.
            node.getSpec().setUnschedulable(true);
            annotations.put(CORDONED_FOR, want.postUpdateGate());
            changed = true;
        } else if (!want.cordon() && annotations.remove(CORDONED_FOR) != null) {
            node.getSpec().setUnschedulable(false);
            changed = true;
        }
        if (!changed) {
            return;
        }
        node.getMetadata().setAnnotations(annotations);
        // Optimistic lock: the MCD and the drain controller write this node too.
        client.nodes()
                .resource(node)
                .lockResourceVersion(node.getMetadata().getResourceVersion())
                .update();
    }

    private void createGate(String node) {
        String name = gateName(node);
        Map<String, String> labels = Map.of(GATE_LABEL, hash(node), MANAGED_BY, MANAGER);
        if (client.policy()
                        .v1()
                        .podDisruptionBudget()
                        .inNamespace(namespace)
                        .withName(name)
                        .get()
                == null) {
            client.policy()
                    .v1()
                    .podDisruptionBudget()
                    .inNamespace(namespace)
                    .resource(new PodDisruptionBudgetBuilder()
                            .withNewMetadata()
                            .withName(name)
                            .withNamespace(namespace)
                            .withLabels(labels)
                            .addToAnnotations("mcdhooks.io/node", node)
                            .endMetadata()
                            .withNewSpec()
                            .withMaxUnavailable(new IntOrString(0))
                            .withNewSelector()
                            .withMatchLabels(Map.of(GATE_LABEL, hash(node)))
                            .endSelector()
                            .endSpec()
                            .build())
                    .create();
        }
        if (client.pods().inNamespace(namespace).withName(name).get() == null) {
            client.pods()
                    .inNamespace(namespace)
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withName(name)
                            .withNamespace(namespace)
                            .withLabels(labels)
                            .addToAnnotations("mcdhooks.io/node", node)
                            .endMetadata()
                            .withNewSpec()
                            .withNodeName(node)
                            // It must sit on a cordoned, tainted node: the whole point is to be there.
                            .addNewToleration()
                            .withOperator("Exists")
                            .endToleration()
                            .withTerminationGracePeriodSeconds(0L)
                            .withAutomountServiceAccountToken(false)
                            // Admitted under Pod Security "restricted" and OpenShift's restricted-v2: no UID is
                            // set, so OpenShift picks one from the namespace's range.
                            .withNewSecurityContext()
                            .withRunAsNonRoot(true)
                            .withNewSeccompProfile()
                            .withType("RuntimeDefault")
                            .endSeccompProfile()
                            .endSecurityContext()
                            .addNewContainer()
                            .withName("gate")
                            .withImage(pauseImage)
                            .withNewSecurityContext()
                            .withAllowPrivilegeEscalation(false)
                            .withReadOnlyRootFilesystem(true)
                            .withNewCapabilities()
                            .withDrop("ALL")
                            .endCapabilities()
                            .endSecurityContext()
                            .withNewResources()
                            .addToRequests("cpu", new Quantity("1m"))
                            .addToRequests("memory", new Quantity("8Mi"))
                            .endResources()
                            .endContainer()
                            .endSpec()
                            .build())
                    .create();
        }
        LOG.atInfo().addKeyValue("node", node).log("gate pod in place: the node's drain cannot finish");
    }

    private void deleteGate(String node) {
        String name = gateName(node);
        client.pods().inNamespace(namespace).withName(name).delete();
        client.policy()
                .v1()
                .podDisruptionBudget()
                .inNamespace(namespace)
                .withName(name)
                .delete();
        LOG.atInfo().addKeyValue("node", node).log("gate pod removed: the node's drain may finish");
    }

    /**
     * One write per object at a time. A write asked for while another is in flight is skipped,
     * but not lost: when the one in flight ends, the caller is asked to plan again from the
     * object as then known (nothing else may come to heal it before the informer's resync).
     */
    private void run(String key, Runnable planAgain, Callable<Void> write) {
        if (!inFlight.add(key)) {
            skipped.put(key, planAgain);
            return;
        }
        Future<Void> result = worker.executeBlocking(write, false);
        result.onComplete(r -> {
            inFlight.remove(key);
            if (r.failed()) {
                Throwable e = r.cause();
                boolean conflict = e instanceof KubernetesClientException k && k.getCode() == 409;
                LOG.atDebug()
                        .addKeyValue("object", key)
                        .log("write {}; planning again", conflict ? "lost a race" : "failed", e);
            }
            Runnable again = skipped.remove(key);
            if (again != null) {
                again.run();
            }
        });
    }

    public static String gateName(String node) {
        String name = "mcdhooks-gate-" + node;
        return name.length() <= 253 ? name : "mcdhooks-gate-" + hash(node);
    }

    private static boolean hasTaint(Node node) {
        return node.getSpec().getTaints() != null
                && node.getSpec().getTaints().stream().anyMatch(t -> LeverPlan.POST_UPDATE_TAINT.equals(t.getKey()));
    }

    private static String annotation(Node node, String key) {
        return node.getMetadata().getAnnotations() == null
                ? null
                : node.getMetadata().getAnnotations().get(key);
    }

    static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always there", e);
        }
    }
}
