package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The kubelets of all nodes, for pods only: a pod bound to a Ready node that has no phase or is
 * Pending is started after {@code Timings.podStartup} (Running, Ready=True). A container whose image
 * matches {@link SimulatorConfig#unpullableImages()} cannot be pulled: the pod stays Pending with
 * the container waiting in {@code ErrImagePull}, then {@code ImagePullBackOff}, as long as the image
 * stays the same. Pods on a node that is not Ready wait for it. Status is written by JSON Patch on
 * the pod (the in-memory API server has no {@code pods/status} subresource of its own).
 */
final class Kubelet {

    private final SimContext sim;
    private final SharedIndexInformer<Pod> pods;
    private final Set<String> starting = ConcurrentHashMap.newKeySet();

    Kubelet(SimContext sim, SharedIndexInformer<Pod> pods) {
        this.sim = sim;
        this.pods = pods;
    }

    /** A pod was added or changed. */
    void onPod(Pod pod) {
        if (!needsStart(pod)) {
            return;
        }
        String node = pod.getSpec().getNodeName();
        if (!ready(sim.nodes.get(node))) {
            return;
        }
        String k = DrainController.key(pod);
        if (!starting.add(k)) {
            return;
        }
        sim.clock.schedule("node/" + node, sim.jittered(node, sim.timings.podStartup()), () -> start(k));
    }

    /** A node changed: start what waits on it once it is Ready. */
    void onNode(Node node) {
        if (!ready(node)) {
            return;
        }
        for (Pod p :
                pods.getIndexer().byIndex("spec.nodeName", node.getMetadata().getName())) {
            onPod(p);
        }
    }

    private void start(String k) {
        try {
            Pod pod = pods.getStore().getByKey(k);
            if (pod == null
                    || !needsStart(pod)
                    || !ready(sim.nodes.get(pod.getSpec().getNodeName()))) {
                return;
            }
            String unpullable = unpullableImage(pod);
            String now = sim.clock.now().toString();
            var status = new LinkedHashMap<String, Object>();
            if (unpullable == null) {
                status.put("phase", "Running");
                status.put(
                        "conditions",
                        List.of(
                                condition("Initialized", "True", now),
                                condition("Ready", "True", now),
                                condition("ContainersReady", "True", now),
                                condition("PodScheduled", "True", now)));
                status.put(
                        "containerStatuses",
                        containerStatuses(pod, c -> Map.of("running", Map.of("startedAt", now)), true));
                status.put("startTime", now);
                write(pod, status);
            } else {
                status.put("phase", "Pending");
                status.put(
                        "conditions",
                        List.of(
                                condition("Initialized", "True", now),
                                notReady("Ready", now),
                                notReady("ContainersReady", now),
                                condition("PodScheduled", "True", now)));
                status.put(
                        "containerStatuses",
                        containerStatuses(
                                pod,
                                c -> waiting(
                                        c,
                                        "ErrImagePull",
                                        "rpc error: code = Unknown desc = reading manifest for " + c.getImage()
                                                + ": manifest unknown"),
                                false));
                write(pod, status);
                sim.clock.schedule(
                        "node/" + pod.getSpec().getNodeName(), sim.timings.imagePullBackOff(), () -> backOff(k));
            }
        } finally {
            starting.remove(k);
        }
    }

    private void backOff(String k) {
        Pod pod = pods.getStore().getByKey(k);
        if (pod == null || unpullableImage(pod) == null || pod.getMetadata().getDeletionTimestamp() != null) {
            return;
        }
        var status = new LinkedHashMap<String, Object>();
        status.put("phase", "Pending");
        status.put(
                "conditions",
                pod.getStatus() == null ? List.of() : pod.getStatus().getConditions());
        status.put(
                "containerStatuses",
                containerStatuses(
                        pod,
                        c -> waiting(c, "ImagePullBackOff", "Back-off pulling image \"" + c.getImage() + "\""),
                        false));
        write(pod, status);
    }

    private boolean needsStart(Pod pod) {
        if (pod.getSpec() == null
                || pod.getSpec().getNodeName() == null
                || pod.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if (phase != null && !"Pending".equals(phase)) {
            return false;
        }
        // Pending because of an image that cannot be pulled: nothing more happens until it changes.
        return unpullableImage(pod) == null
                || pod.getStatus() == null
                || pod.getStatus().getContainerStatuses() == null
                || pod.getStatus().getContainerStatuses().isEmpty();
    }

    private String unpullableImage(Pod pod) {
        for (Container c : pod.getSpec().getContainers()) {
            if (c.getImage() != null
                    && sim.config.unpullableImages().matcher(c.getImage()).matches()) {
                return c.getImage();
            }
        }
        return null;
    }

    private List<Map<String, Object>> containerStatuses(
            Pod pod, Function<Container, Map<String, Object>> state, boolean ready) {
        var out = new ArrayList<Map<String, Object>>();
        for (Container c : pod.getSpec().getContainers()) {
            var s = new LinkedHashMap<String, Object>();
            s.put("name", c.getName());
            s.put("image", c.getImage());
            s.put("imageID", "");
            s.put("ready", ready);
            s.put("restartCount", 0);
            s.put("started", ready);
            s.put("state", state.apply(c));
            out.add(s);
        }
        return out;
    }

    private static Map<String, Object> waiting(Container c, String reason, String message) {
        return Map.of("waiting", Map.of("reason", reason, "message", message));
    }

    private void write(Pod pod, Map<String, Object> status) {
        try {
            sim.as(Identities.kubelet(pod.getSpec().getNodeName()))
                    .client
                    .pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .patch(Mco.jsonPatch(), Mco.set("/status", status));
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    private static Map<String, Object> condition(String type, String status, String now) {
        return Map.of("type", type, "status", status, "lastTransitionTime", now);
    }

    private static Map<String, Object> notReady(String type, String now) {
        return Map.of(
                "type", type,
                "status", "False",
                "reason", "ContainersNotReady",
                "message", "containers with unready status",
                "lastTransitionTime", now);
    }

    private static boolean ready(Node n) {
        return n != null
                && n.getStatus() != null
                && n.getStatus().getConditions() != null
                && n.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
