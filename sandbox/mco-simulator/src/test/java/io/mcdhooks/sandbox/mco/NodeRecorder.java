package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test helper: watches Nodes with its own informer and records, per node, every change of an MCO
 * annotation as {@code key=value} in arrival order, plus the most nodes ever unavailable at once
 * per pool (by the MCO's definition) as seen through the watch.
 */
final class NodeRecorder implements AutoCloseable {

    private final SharedIndexInformer<Node> informer;
    private final Map<String, List<String>> changes = new ConcurrentHashMap<>();
    private final Map<String, Boolean> unavailable = new ConcurrentHashMap<>();
    private int unavailableNow;
    private final AtomicInteger maxUnavailable = new AtomicInteger();

    NodeRecorder(KubernetesClient client) {
        this.informer = client.nodes().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Node node) {
                onUpdate(null, node);
            }

            @Override
            public void onUpdate(Node old, Node node) {
                record(old, node);
            }

            @Override
            public void onDelete(Node node, boolean unknown) {}
        });
    }

    private synchronized void record(Node old, Node node) {
        String name = node.getMetadata().getName();
        if (old != null) {
            var list = changes.computeIfAbsent(name, n -> new ArrayList<>());
            // keys in step order, so the three written together by DONE read in a fixed order
            for (String key : List.of(
                    Mco.DESIRED_CONFIG, Mco.STATE, Mco.DESIRED_DRAIN, Mco.LAST_APPLIED_DRAIN, Mco.POST_CONFIG_ACTION)) {
                String before = annotation(old, key);
                String after = annotation(node, key);
                if (!Objects.equals(before, after) && after != null) {
                    list.add(key + "=" + after);
                }
            }
        }
        if (name.startsWith("worker-")) {
            boolean now = NodeUpdateState.of(node).unavailable();
            Boolean before = unavailable.put(name, now);
            unavailableNow += (now ? 1 : 0) - (Boolean.TRUE.equals(before) ? 1 : 0);
            maxUnavailable.accumulateAndGet(unavailableNow, Math::max);
        }
    }

    /** The recorded annotation changes of {@code node}. */
    synchronized List<String> changes(String node) {
        return List.copyOf(changes.getOrDefault(node, List.of()));
    }

    /** Worker nodes unavailable now, as last seen. */
    synchronized int unavailableWorkers() {
        return unavailableNow;
    }

    /** Most worker nodes ever seen unavailable at the same time. */
    int maxUnavailableWorkers() {
        return maxUnavailable.get();
    }

    private static String annotation(Node n, String key) {
        return n.getMetadata().getAnnotations() == null
                ? null
                : n.getMetadata().getAnnotations().get(key);
    }

    @Override
    public void close() {
        informer.close();
    }
}
