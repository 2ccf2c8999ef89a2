package io.mcdhooks.sandbox.bench;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.bridge.gate.GateObjects;
import io.mcdhooks.sandbox.mco.Mco;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The profile of row 6: when each worker reached each step of its update, as the harness's own
 * node watch saw it, so that a slower rollout says where its time went. A node is <em>in
 * flight</em> from being assigned the target until it is done and, where a gatekeeper holds it,
 * released; {@link #occupancy} is how much of the pool's maxUnavailable the rollout kept busy.
 */
final class RolloutTrace implements AutoCloseable {

    /** The steps of a node's update, in order. */
    enum Step {
        ASSIGNED,
        DRAINED,
        REBOOTING,
        /** Back from the reboot, the MCD asking for the uncordon, and the node uncordoned (hold released). */
        UNCORDONED,
        DONE,
        RELEASED
    }

    private final String before;
    private final Map<String, Map<Step, Long>> seen = new ConcurrentHashMap<>();
    private final SharedIndexInformer<Node> informer;
    private final SharedIndexInformer<Pod> gatePods;
    /** When each worker's gate pod went: before its assignment, the drain never waits for it. */
    private final Map<String, Long> gatePodGone = new ConcurrentHashMap<>();

    private final long start;

    /**
     * Starts watching workers' way from the config {@code before} to whichever comes next, with
     * {@code client}, which it leaves open. Start it before the change, so no step is missed.
     */
    RolloutTrace(KubernetesClient client, String before) {
        this.before = before;
        this.start = System.nanoTime();
        informer = NodeWatch.inform(client, this::record);
        gatePods = client.pods().inNamespace(BenchBridge.NAMESPACE).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {}

            @Override
            public void onUpdate(Pod old, Pod pod) {}

            @Override
            public void onDelete(Pod pod, boolean unknown) {
                String name = pod.getMetadata().getName();
                if (name.startsWith(GATE_POD_PREFIX)) {
                    gatePodGone.putIfAbsent(name.substring(GATE_POD_PREFIX.length()), System.nanoTime());
                }
            }
        });
    }

    private static final String GATE_POD_PREFIX = "mcdhooks-gate-";

    private void record(Node node) {
        Map<String, String> labels = node.getMetadata().getLabels();
        if (labels == null || !labels.containsKey("node-role.kubernetes.io/" + BenchBridge.POOL)) {
            return;
        }
        long now = System.nanoTime();
        String desired = NodeWatch.annotation(node, Mco.DESIRED_CONFIG);
        if (desired == null || desired.equals(before)) {
            return;
        }
        Map<Step, Long> steps = seen.computeIfAbsent(node.getMetadata().getName(), n -> new ConcurrentHashMap<>());
        steps.putIfAbsent(Step.ASSIGNED, now);
        if (("drain-" + desired).equals(NodeWatch.annotation(node, Mco.LAST_APPLIED_DRAIN))) {
            steps.putIfAbsent(Step.DRAINED, now);
        }
        if (Mco.REBOOTING.equals(NodeWatch.annotation(node, Mco.POST_CONFIG_ACTION))) {
            steps.putIfAbsent(Step.REBOOTING, now);
        }
        if (steps.containsKey(Step.REBOOTING)
                && ("uncordon-" + desired).equals(NodeWatch.annotation(node, Mco.DESIRED_DRAIN))
                && !Boolean.TRUE.equals(node.getSpec().getUnschedulable())
                && NodeWatch.annotation(node, GateObjects.HOLD) == null) {
            steps.putIfAbsent(Step.UNCORDONED, now);
        }
        boolean done = desired.equals(NodeWatch.annotation(node, Mco.CURRENT_CONFIG))
                && Mco.STATE_DONE.equals(NodeWatch.annotation(node, Mco.STATE));
        if (done) {
            steps.putIfAbsent(Step.DONE, now);
            if (NodeWatch.released(node)) {
                steps.putIfAbsent(Step.RELEASED, now);
            }
        }
    }

    /** Time from the step before to each step, over the workers that reached both. */
    Map<Step, Latency.Stats> phases() {
        Map<Step, Latency> phases = new EnumMap<>(Step.class);
        for (Map<Step, Long> steps : seen.values()) {
            Step previous = null;
            for (Step step : Step.values()) {
                Long at = steps.get(step);
                if (at != null && previous != null && steps.get(previous) != null) {
                    phases.computeIfAbsent(step, s -> new Latency()).record(at - steps.get(previous));
                }
                previous = step;
            }
        }
        Map<Step, Latency.Stats> stats = new EnumMap<>(Step.class);
        phases.forEach((step, latency) -> stats.put(step, latency.stats()));
        return stats;
    }

    /**
     * Node-seconds in flight over {@code maxUnavailable} × the rollout's time: 1 when the MCO kept
     * every slot busy from the first assignment to the last release.
     */
    double occupancy(int maxUnavailable) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        double inFlight = 0;
        for (Map<Step, Long> steps : seen.values()) {
            Long from = steps.get(Step.ASSIGNED);
            Long to = steps.get(Step.RELEASED);
            if (from == null || to == null) {
                continue;
            }
            first = Math.min(first, from);
            last = Math.max(last, to);
            inFlight += to - from;
        }
        return last <= first ? 0 : inFlight / ((double) (last - first) * maxUnavailable);
    }

    /** Seconds from the start of the trace to the first assignment. */
    double secondsToFirstAssignment() {
        long first = seen.values().stream()
                .map(s -> s.get(Step.ASSIGNED))
                .filter(Objects::nonNull)
                .mapToLong(Long::longValue)
                .min()
                .orElse(start);
        return (first - start) / 1e9;
    }

    /**
     * One line: time to the first assignment, occupancy, each phase's p50 / p99 in ms, and where
     * gate pods were, how many had gone before their node was assigned and how long the others
     * stayed after.
     */
    String summary(int maxUnavailable) {
        StringBuilder line = new StringBuilder(String.format(
                "first assignment after %.1f s, occupancy %.0f %%",
                secondsToFirstAssignment(), occupancy(maxUnavailable) * 100));
        phases().forEach((step, stats) -> line.append(String.format(
                ", →%s p50 %.0f ms p99 %.0f ms", step.name().toLowerCase(Locale.ROOT), stats.p50(), stats.p99())));
        if (!gatePodGone.isEmpty()) {
            int early = 0;
            Latency after = new Latency();
            for (var e : gatePodGone.entrySet()) {
                Long assigned = seen.getOrDefault(e.getKey(), Map.of()).get(Step.ASSIGNED);
                if (assigned == null || e.getValue() <= assigned) {
                    early++;
                } else {
                    after.record(e.getValue() - assigned);
                }
            }
            line.append(String.format(", gate pods gone before assignment %d of %d", early, gatePodGone.size()));
            if (early < gatePodGone.size()) {
                Latency.Stats stats = after.stats();
                line.append(String.format(", the others after p50 %.0f ms p99 %.0f ms", stats.p50(), stats.p99()));
            }
        }
        return line.toString();
    }

    @Override
    public void close() {
        informer.close();
        gatePods.close();
    }
}
