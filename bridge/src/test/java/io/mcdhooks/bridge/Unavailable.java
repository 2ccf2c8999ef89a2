package io.mcdhooks.bridge;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.bridge.gate.GateObjects;
import io.mcdhooks.bridge.kube.McoInformers;
import io.mcdhooks.sandbox.mco.Mco;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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
    private volatile String atMax = "none";
    /** Each node's changes as the watch saw them, up to the moment the most were out: the story a failure tells. */
    private final List<String> history = new ArrayList<>();

    private final Map<String, String> last = new HashMap<>();
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

    /** Which nodes were out when the most were, and when: what a failure shows. */
    String atMax() {
        return atMax;
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
        String name = node.getMetadata().getName();
        out.put(name, unschedulable || !ready);
        String line = describe(node, unschedulable, ready);
        if (!line.equals(last.put(name, line)) && history.size() < 400) {
            history.add(Instant.now() + " " + name + ": " + line);
        }
        List<String> now = out.entrySet().stream()
                .filter(Map.Entry::getValue)
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
        if (now.size() > max.get()) {
            max.set(now.size());
            atMax = now + " at " + Instant.now() + ", after:\n" + String.join("\n", history);
        }
    }

    private static String describe(Node node, boolean unschedulable, boolean ready) {
        Map<String, String> a = node.getMetadata().getAnnotations() == null
                ? Map.of()
                : node.getMetadata().getAnnotations();
        return (unschedulable ? "cordoned" : "schedulable") + (ready ? "" : " NotReady") + " current "
                + a.get(Mco.CURRENT_CONFIG) + " desired " + a.get(Mco.DESIRED_CONFIG) + " " + a.get(Mco.STATE)
                + " drain " + a.get(Mco.DESIRED_DRAIN) + "/" + a.get(Mco.LAST_APPLIED_DRAIN) + " hold "
                + a.get(GateObjects.HOLD);
    }

    @Override
    public void close() {
        informer.close();
    }
}
