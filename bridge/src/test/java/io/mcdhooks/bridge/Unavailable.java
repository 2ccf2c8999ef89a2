package io.mcdhooks.bridge;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.bridge.kube.McoInformers;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many nodes of a pool were unavailable at once, as the MCC counts them (cordoned, or not
 * Ready), at every change a watch sees: the most over a test, not a sample.
 */
final class Unavailable implements AutoCloseable {

    private final String role;
    private final Map<String, Boolean> out = new ConcurrentHashMap<>();
    private final AtomicInteger max = new AtomicInteger();
    private SharedIndexInformer<Node> informer;

    private Unavailable(String role) {
        this.role = role;
    }

    /** Starts watching the nodes of the pool {@code role} (its nodes carry node-role.kubernetes.io/<role>). */
    static Unavailable watch(KubernetesClient client, String role) {
        Unavailable u = new Unavailable(role);
        u.informer = client.nodes()
                .inform(McoInformers.levelHandler(
                        u::seen,
                        (node, unknown) -> u.out.remove(node.getMetadata().getName())));
        return u;
    }

    int max() {
        return max.get();
    }

    private synchronized void seen(Node node) {
        if (node.getMetadata().getLabels() == null
                || !node.getMetadata().getLabels().containsKey("node-role.kubernetes.io/" + role)) {
            return;
        }
        boolean unschedulable = Boolean.TRUE.equals(node.getSpec().getUnschedulable());
        boolean ready = node.getStatus() != null
                && node.getStatus().getConditions() != null
                && node.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        out.put(node.getMetadata().getName(), unschedulable || !ready);
        max.accumulateAndGet((int) out.values().stream().filter(b -> b).count(), Math::max);
    }

    @Override
    public void close() {
        informer.close();
    }
}
