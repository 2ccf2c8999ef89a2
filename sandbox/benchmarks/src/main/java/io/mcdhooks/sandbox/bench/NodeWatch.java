package io.mcdhooks.sandbox.bench;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.bridge.gate.GateObjects;
import io.mcdhooks.bridge.gate.LeverPlan;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A node informer of the harness's own: {@link #when} completes with the {@link System#nanoTime()}
 * at which a watch event first showed a node in the state asked for.
 */
final class NodeWatch implements AutoCloseable {

    private record Waiter(Predicate<Node> condition, CompletableFuture<Long> seen) {}

    private final KubernetesClient client;
    private final SharedIndexInformer<Node> informer;
    private final Map<String, List<Waiter>> waiters = new ConcurrentHashMap<>();

    /** Watches with {@code client}, which it closes. */
    NodeWatch(KubernetesClient client) {
        this.client = client;
        informer = inform(client, this::seen);
    }

    /** A node informer that hands every node added or updated to {@code seen}, on its thread. */
    static SharedIndexInformer<Node> inform(KubernetesClient client, Consumer<Node> seen) {
        return client.nodes()
                .inform(
                        new ResourceEventHandler<>() {
                            @Override
                            public void onAdd(Node node) {
                                seen.accept(node);
                            }

                            @Override
                            public void onUpdate(Node old, Node node) {
                                seen.accept(node);
                            }

                            @Override
                            public void onDelete(Node node, boolean unknown) {}
                        },
                        0);
    }

    /** Register before the change that should lead there: only later events count. */
    CompletableFuture<Long> when(String node, Predicate<Node> condition) {
        Waiter waiter = new Waiter(condition, new CompletableFuture<>());
        waiters.computeIfAbsent(node, n -> new CopyOnWriteArrayList<>()).add(waiter);
        return waiter.seen();
    }

    private void seen(Node node) {
        long now = System.nanoTime();
        List<Waiter> list = waiters.get(node.getMetadata().getName());
        if (list == null) {
            return;
        }
        for (Waiter waiter : list) {
            if (waiter.condition().test(node)) {
                waiter.seen().complete(now);
                list.remove(waiter);
            }
        }
    }

    static boolean tainted(Node node) {
        return node.getSpec().getTaints() != null
                && node.getSpec().getTaints().stream().anyMatch(t -> LeverPlan.POST_UPDATE_TAINT.equals(t.getKey()));
    }

    static boolean cordonedByGatekeeper(Node node) {
        return Boolean.TRUE.equals(node.getSpec().getUnschedulable())
                && node.getMetadata().getAnnotations() != null
                && node.getMetadata().getAnnotations().containsKey(GateObjects.CORDONED_FOR);
    }

    /** Released from its post-update gate: neither tainted nor cordoned. */
    static boolean released(Node node) {
        return !tainted(node) && !Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    }

    static String annotation(Node node, String key) {
        return node.getMetadata().getAnnotations() == null
                ? null
                : node.getMetadata().getAnnotations().get(key);
    }

    @Override
    public void close() {
        informer.close();
        client.close();
    }
}
