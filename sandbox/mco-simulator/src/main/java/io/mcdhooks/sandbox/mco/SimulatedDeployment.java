package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Where the one pod of a Deployment runs, judged from the nodes alone (no pod objects): it keeps
 * running on its node until that node stops being Ready (a reboot: graceful node shutdown ends
 * its pods) or is drained; then it runs again only once the scheduler finds a node that admits
 * it ({@link Scheduling#admits}: Ready, selector, cordon and NoSchedule/NoExecute taints against
 * its tolerations). So on a single node a taint or cordon the pod does not tolerate, set before
 * the reboot, keeps it from coming back.
 *
 * <p>The MCC (with its drain controller) and the operator run as such Deployments; tests ask
 * {@link McoSimulator#deployment} for one of their own, e.g. to stop a bridge while it could not
 * run.
 */
public final class SimulatedDeployment {

    /** The machine-config-controller Deployment's tolerations ({@code manifests/machineconfigcontroller/deployment.yaml}). */
    public static final List<Toleration> MCO_TOLERATIONS = List.of(
            toleration("node-role.kubernetes.io/master", "NoSchedule", null),
            toleration("node-role.kubernetes.io/control-plane", "NoSchedule", null),
            toleration("node.kubernetes.io/unreachable", "NoExecute", 120L),
            toleration("node.kubernetes.io/not-ready", "NoExecute", 120L));

    /** The MCO's Deployments run on control-plane nodes. */
    public static final Map<String, String> MASTER_SELECTOR = Map.of("node-role.kubernetes.io/master", "");

    private final String name;
    private final List<Toleration> tolerations;
    private final Map<String, String> nodeSelector;
    private final List<Consumer<Boolean>> listeners = new CopyOnWriteArrayList<>();
    private String node;

    SimulatedDeployment(String name, List<Toleration> tolerations, Map<String, String> nodeSelector) {
        this.name = name;
        this.tolerations = List.copyOf(tolerations);
        this.nodeSelector = Map.copyOf(nodeSelector);
    }

    public String name() {
        return name;
    }

    /** Whether its pod runs now. */
    public synchronized boolean running() {
        return node != null;
    }

    /** The node its pod runs on, or null. */
    public synchronized String node() {
        return node;
    }

    /** Called with the new value each time {@link #running()} changes. */
    public void onChange(Consumer<Boolean> listener) {
        listeners.add(listener);
    }

    /** Re-evaluates the placement against the nodes now. */
    void update(List<Node> nodes) {
        synchronized (this) {
            if (node != null) {
                Node current = find(nodes, node);
                if (current == null || !readyCondition(current)) {
                    node = null;
                }
            }
            if (node == null) {
                node = nodes.stream()
                        .filter(n -> Scheduling.admits(n, tolerations, nodeSelector))
                        .min(Comparator.comparing(n -> n.getMetadata().getName()))
                        .map(n -> n.getMetadata().getName())
                        .orElse(null);
            }
        }
        notifyIfChanged();
    }

    /** One node changed: O(1) unless the pod has to be placed anew. */
    void onNode(Node changed, Supplier<List<Node>> all) {
        String name = changed.getMetadata().getName();
        boolean place;
        synchronized (this) {
            if (node == null) {
                place = Scheduling.admits(changed, tolerations, nodeSelector);
            } else {
                place = name.equals(node) && !readyCondition(changed);
            }
        }
        if (place) {
            update(all.get());
        }
    }

    /** Its pod is evicted if it runs on {@code drained}; it is placed again elsewhere at once. */
    void evictedFrom(String drained, List<Node> nodes) {
        synchronized (this) {
            if (!drained.equals(node)) {
                return;
            }
            node = null;
        }
        notifyIfChanged();
        update(nodes.stream()
                .filter(n -> !n.getMetadata().getName().equals(drained))
                .toList());
    }

    private boolean reported;

    private void notifyIfChanged() {
        boolean now;
        synchronized (this) {
            now = node != null;
            if (now == reported) {
                return;
            }
            reported = now;
        }
        listeners.forEach(l -> l.accept(now));
    }

    private static Node find(List<Node> nodes, String name) {
        for (Node n : nodes) {
            if (n.getMetadata().getName().equals(name)) {
                return n;
            }
        }
        return null;
    }

    private static boolean readyCondition(Node n) {
        return n.getStatus() != null
                && n.getStatus().getConditions() != null
                && n.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static Toleration toleration(String key, String effect, Long seconds) {
        return new TolerationBuilder()
                .withKey(key)
                .withOperator("Exists")
                .withEffect(effect)
                .withTolerationSeconds(seconds)
                .build();
    }

    @Override
    public String toString() {
        return name + (node == null ? " (not running)" : " on " + node);
    }
}
