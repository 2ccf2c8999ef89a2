package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.sandbox.mco.disruption.NodeDisruptionPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/** What the simulated controllers and daemons share. */
final class SimContext {

    final KubernetesClient client;
    final SimulatorConfig config;
    final Timings timings;
    final SimClock clock;
    final NodeCache nodes;
    final ClusterWriter writer;
    final EventRecorder events;
    final MachineConfigNodes mcns;
    final SharedIndexInformer<GenericKubernetesResource> machineConfigs;
    final SharedIndexInformer<GenericKubernetesResource> pools;
    private volatile SharedIndexInformer<GenericKubernetesResource> machineConfigurations;
    private volatile SharedIndexInformer<GenericKubernetesResource> infrastructures;
    private volatile SimulatedDeployment controller;
    private volatile SimulatedDeployment operator;
    private final Map<String, List<Fault>> faults = new ConcurrentHashMap<>();
    private final Map<String, Random> randoms = new ConcurrentHashMap<>();

    SimContext(
            KubernetesClient client,
            SimulatorConfig config,
            SimClock clock,
            NodeCache nodes,
            SharedIndexInformer<GenericKubernetesResource> machineConfigs,
            SharedIndexInformer<GenericKubernetesResource> pools) {
        this.client = client;
        this.config = config;
        this.timings = config.timings();
        this.clock = clock;
        this.nodes = nodes;
        this.writer = new ClusterWriter(client, nodes);
        this.events = new EventRecorder(client, clock, config.seed());
        this.mcns = new MachineConfigNodes(client, clock, nodes, config.machineConfigNodes());
        this.machineConfigs = machineConfigs;
        this.pools = pools;
    }

    /** The informers of the cluster-scoped singletons the MCO reads. */
    void clusterConfig(
            SharedIndexInformer<GenericKubernetesResource> machineConfigurations,
            SharedIndexInformer<GenericKubernetesResource> infrastructures) {
        this.machineConfigurations = machineConfigurations;
        this.infrastructures = infrastructures;
    }

    /** Where the MCC (node, render and drain controllers) and the operator run. */
    void deployments(SimulatedDeployment controller, SimulatedDeployment operator) {
        this.controller = controller;
        this.operator = operator;
    }

    boolean mccRunning() {
        return controller == null || controller.running();
    }

    boolean operatorRunning() {
        return operator == null || operator.running();
    }

    /** {@code MachineConfiguration/cluster}, or null. */
    GenericKubernetesResource machineConfiguration() {
        return machineConfigurations == null
                ? null
                : machineConfigurations.getStore().getByKey(Mco.CLUSTER);
    }

    /**
     * The policy the operator published in {@code MachineConfiguration/cluster}
     * {@code status.nodeDisruptionPolicyStatus}, or null while it has not (or is not current).
     */
    NodeDisruptionPolicy disruptionPolicy() {
        GenericKubernetesResource mc = machineConfiguration();
        if (mc == null) {
            return null;
        }
        Map<String, Object> status =
                NodeController.map(mc.getAdditionalProperties().get("status"));
        Object policies =
                NodeController.map(status.get("nodeDisruptionPolicyStatus")).get("clusterPolicies");
        long generation =
                mc.getMetadata().getGeneration() == null ? 1 : mc.getMetadata().getGeneration();
        if (!(policies instanceof Map<?, ?>)
                || !(status.get("observedGeneration") instanceof Number observed)
                || observed.longValue() != generation) {
            return null;
        }
        return NodeDisruptionPolicy.fromStatus(NodeController.map(policies));
    }

    /** {@code Infrastructure/cluster} {@code status.controlPlaneTopology}, or null. */
    String controlPlaneTopology() {
        GenericKubernetesResource infra =
                infrastructures == null ? null : infrastructures.getStore().getByKey(Mco.CLUSTER);
        if (infra == null) {
            return null;
        }
        Object topology = NodeController.map(infra.getAdditionalProperties().get("status"))
                .get("controlPlaneTopology");
        return topology instanceof String s ? s : null;
    }

    /** {@code base} with this node's seeded jitter. */
    Duration jittered(String node, Duration base) {
        if (config.jitter() == 0) {
            return base;
        }
        Random r = randoms.computeIfAbsent(node, n -> new Random(config.seed() ^ n.hashCode()));
        double factor;
        synchronized (r) {
            factor = 1 + config.jitter() * (2 * r.nextDouble() - 1);
        }
        return Duration.ofNanos((long) (base.toNanos() * factor));
    }

    List<Fault> faults(String node) {
        return faults.getOrDefault(node, List.of());
    }

    <F extends Fault> F fault(String node, Class<F> type) {
        for (Fault f : faults(node)) {
            if (type.isInstance(f)) {
                return type.cast(f);
            }
        }
        return null;
    }

    void addFault(String node, Fault fault) {
        faults.merge(node, List.of(fault), (a, b) -> {
            var out = new ArrayList<>(a);
            out.addAll(b);
            return List.copyOf(out);
        });
    }

    void clearFaults(String node) {
        faults.remove(node);
    }

    /** The spec of a rendered MachineConfig, or an empty map if it is unknown. */
    @SuppressWarnings("unchecked")
    Map<String, Object> renderedSpec(String name) {
        GenericKubernetesResource mc = machineConfigs.getStore().getByKey(name);
        if (mc == null) {
            mc = Mco.machineConfigs(client).withName(name).get();
        }
        Object spec = mc == null ? null : mc.getAdditionalProperties().get("spec");
        return spec instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }
}
