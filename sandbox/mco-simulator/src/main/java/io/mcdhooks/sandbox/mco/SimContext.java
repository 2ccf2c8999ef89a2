package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.mco.disruption.NodeDisruptionPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the simulated controllers and daemons share. Its client, writer, events and
 * MachineConfigNodes write as the MCC ({@link Identities#MACHINE_CONFIG_CONTROLLER}); {@link #as}
 * gives the same context writing as another actor (the MCD of a node, a kubelet).
 */
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
    private final Map<String, List<Fault>> faults;
    private final Map<String, Random> randoms;
    private final KubernetesClient base;
    private final Map<Identity, SimContext> actors;
    /** The context the per-actor views share the cluster's configuration and the MCC's deployments with. */
    private final SimContext root;

    private volatile SharedIndexInformer<GenericKubernetesResource> machineConfigurations;
    private volatile SharedIndexInformer<GenericKubernetesResource> infrastructures;
    private volatile SimulatedDeployment controller;
    private volatile SimulatedDeployment operator;

    SimContext(
            KubernetesClient client,
            SimulatorConfig config,
            SimClock clock,
            NodeCache nodes,
            SharedIndexInformer<GenericKubernetesResource> machineConfigs,
            SharedIndexInformer<GenericKubernetesResource> pools) {
        this.base = client;
        this.client = Identities.MACHINE_CONFIG_CONTROLLER.client(client);
        this.config = config;
        this.timings = config.timings();
        this.clock = clock;
        this.nodes = nodes;
        this.writer = new ClusterWriter(this.client, nodes);
        this.events = new EventRecorder(this.client, clock, config.seed());
        this.mcns = new MachineConfigNodes(this.client, clock, nodes, config.machineConfigNodes());
        this.machineConfigs = machineConfigs;
        this.pools = pools;
        this.faults = new ConcurrentHashMap<>();
        this.randoms = new ConcurrentHashMap<>();
        this.actors = new ConcurrentHashMap<>();
        this.root = this;
    }

    /** {@code shared} writing as {@code actor}: every field but the writing ones is {@code shared}'s. */
    private SimContext(SimContext shared, Identity actor) {
        this.base = shared.base;
        this.client = actor.client(shared.base);
        this.config = shared.config;
        this.timings = shared.timings;
        this.clock = shared.clock;
        this.nodes = shared.nodes;
        this.writer = new ClusterWriter(client, nodes);
        this.events = shared.events.as(client);
        this.mcns = shared.mcns.as(client);
        this.machineConfigs = shared.machineConfigs;
        this.pools = shared.pools;
        this.faults = shared.faults;
        this.randoms = shared.randoms;
        this.actors = shared.actors;
        this.root = shared.root;
    }

    /** This context writing as {@code actor} (see {@link Identities}); one per actor, kept. */
    SimContext as(Identity actor) {
        return actors.computeIfAbsent(actor, a -> new SimContext(this, a));
    }

    /** The informers of the cluster-scoped singletons the MCO reads. */
    void clusterConfig(
            SharedIndexInformer<GenericKubernetesResource> machineConfigurations,
            SharedIndexInformer<GenericKubernetesResource> infrastructures) {
        root.machineConfigurations = machineConfigurations;
        root.infrastructures = infrastructures;
    }

    /** Where the MCC (node, render and drain controllers) and the operator run. */
    void deployments(SimulatedDeployment controller, SimulatedDeployment operator) {
        root.controller = controller;
        root.operator = operator;
    }

    boolean mccRunning() {
        return root.controller == null || root.controller.running();
    }

    boolean operatorRunning() {
        return root.operator == null || root.operator.running();
    }

    /** {@code MachineConfiguration/cluster}, or null. */
    GenericKubernetesResource machineConfiguration() {
        var informer = root.machineConfigurations;
        return informer == null ? null : informer.getStore().getByKey(Mco.CLUSTER);
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
        GenericKubernetesResource infra = root.infrastructures == null
                ? null
                : root.infrastructures.getStore().getByKey(Mco.CLUSTER);
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
