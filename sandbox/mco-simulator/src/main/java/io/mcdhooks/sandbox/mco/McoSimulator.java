package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A simulated Machine Config Operator acting on a Kubernetes API server: the MCC's render, node
 * and drain controllers and one MCD per node.
 *
 * <p>Everything it decides, it decides from what the API server says now (informers, plus the
 * answers to its own writes), so other writers can pause pools, cordon and taint nodes, or hold
 * drains with PodDisruptionBudgets while it runs. It writes only what the MCO writes: the MCO
 * annotations, {@code spec.unschedulable} with its {@code node.kubernetes.io/unschedulable} taint,
 * the {@code UpdateInProgress:PreferNoSchedule} taint, node Ready during reboots, pool spec
 * configuration and status, rendered MachineConfigs, MachineConfigNodes, evictions and Events.
 *
 * <pre>{@code
 * try (var cluster = InMemoryCluster.start()) {
 *   Topology.builder().workers(10).build().apply(cluster.client());
 *   try (var mco = McoSimulator.start(cluster.client(), SimulatorConfig.defaults())) {
 *     mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));
 *     // watch the nodes go through the update
 *   }
 * }
 * }</pre>
 */
public final class McoSimulator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(McoSimulator.class);

    private final KubernetesClient client;
    private final SimContext sim;
    private final SharedIndexInformer<Node> nodeInformer;
    private final SharedIndexInformer<GenericKubernetesResource> poolInformer;
    private final SharedIndexInformer<GenericKubernetesResource> configInformer;
    private final SharedIndexInformer<Pod> podInformer;
    private final SharedIndexInformer<PodDisruptionBudget> budgetInformer;
    private final NodeController nodeController;
    private final RenderController renderController;
    private final DrainController drainController;
    private final Map<String, MachineConfigDaemon> daemons = new ConcurrentHashMap<>();

    private McoSimulator(KubernetesClient client, SimulatorConfig config) {
        this.client = client;
        var clock = new SimClock(config.timeScale(), Instant.now(), config.workerThreads());
        this.nodeInformer = client.nodes().runnableInformer(0);
        this.poolInformer = Mco.pools(client).runnableInformer(0);
        this.configInformer = Mco.machineConfigs(client).runnableInformer(0);
        this.podInformer = client.pods().inAnyNamespace().runnableInformer(0);
        this.budgetInformer =
                client.policy().v1().podDisruptionBudget().inAnyNamespace().runnableInformer(0);
        podInformer.addIndexers(DrainController.podIndexers());
        this.sim = new SimContext(client, config, clock, new NodeCache(nodeInformer), configInformer, poolInformer);
        this.nodeController = new NodeController(sim);
        this.renderController = new RenderController(sim);
        this.drainController = new DrainController(sim, podInformer, budgetInformer);
    }

    /**
     * Starts the simulator on whatever the API server holds (see {@link Topology}) and returns once
     * its caches are synced. MachineConfigNodes are created in the background, one per node.
     */
    public static McoSimulator start(KubernetesClient client, SimulatorConfig config) {
        var simulator = new McoSimulator(client, config);
        try {
            simulator.startInformers();
        } catch (RuntimeException e) {
            simulator.close();
            throw e;
        }
        return simulator;
    }

    private void startInformers() {
        podInformer.addEventHandler(onDelete(drainController::onPodDeleted));
        podInformer.run();
        budgetInformer.run();
        configInformer.addEventHandler(onAnyChange(renderController::enqueue));
        configInformer.run();
        poolInformer.addEventHandler(onAnyChange(() -> {
            renderController.enqueue();
            nodeController.enqueueAll();
        }));
        poolInformer.run();
        nodeInformer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Node node) {
                onNode(null, node);
            }

            @Override
            public void onUpdate(Node old, Node node) {
                onNode(old, node);
            }

            @Override
            public void onDelete(Node node, boolean unknownFinalState) {
                nodeController.enqueue(nodeController.poolOf(node));
            }
        });
        nodeInformer.run();
        renderController.enqueue();
        nodeController.enqueueAll();
        LOG.atInfo()
                .addKeyValue("nodes", nodeInformer.getStore().list().size())
                .addKeyValue("timeScale", sim.config.timeScale())
                .log("MCO simulator started");
    }

    private void onNode(Node old, Node node) {
        sim.nodes.seen(node);
        String name = node.getMetadata().getName();
        String pool = nodeController.poolOf(node);
        if (pool == null) {
            return;
        }
        if (old == null) {
            sim.clock.run(
                    "node/" + name,
                    () -> sim.mcns.ensure(name, pool, MachineConfigDaemon.annotation(node, Mco.CURRENT_CONFIG)));
        }
        daemons.computeIfAbsent(name, n -> new MachineConfigDaemon(sim, n)).reconcile();
        drainController.onNodeEvent(old, node);
        nodeController.enqueue(pool);
    }

    /**
     * Creates or replaces a MachineConfig (see {@link MachineConfigs}); the render controller then
     * moves the selecting pools' {@code spec.configuration}, paused or not.
     */
    public GenericKubernetesResource applyMachineConfig(GenericKubernetesResource machineConfig) {
        var resource = Mco.machineConfigs(client).resource(machineConfig);
        GenericKubernetesResource existing = Mco.machineConfigs(client)
                .withName(machineConfig.getMetadata().getName())
                .get();
        if (existing == null) {
            return resource.create();
        }
        machineConfig.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
        return resource.update();
    }

    /** Injects a fault into one node's machine; it holds until {@link #clearFaults}. */
    public void injectFault(String node, Fault fault) {
        sim.addFault(node, fault);
    }

    /** Removes a node's faults; a Degraded MCD retries, a node stuck in reboot boots. */
    public void clearFaults(String node) {
        sim.clearFaults(node);
        MachineConfigDaemon daemon = daemons.get(node);
        if (daemon != null) {
            daemon.faultsCleared();
        }
    }

    /** The faults currently injected into {@code node}. */
    public List<Fault> faults(String node) {
        return sim.faults(node);
    }

    /** The simulated clock (event timestamps use it). */
    public SimClock clock() {
        return sim.clock;
    }

    public SimulatorConfig config() {
        return sim.config;
    }

    @Override
    public void close() {
        sim.clock.close();
        for (SharedIndexInformer<?> informer :
                List.of(nodeInformer, poolInformer, configInformer, podInformer, budgetInformer)) {
            informer.close();
        }
    }

    private static <T> ResourceEventHandler<T> onAnyChange(Runnable action) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                action.run();
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                action.run();
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                action.run();
            }
        };
    }

    private static <T> ResourceEventHandler<T> onDelete(Consumer<T> action) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {}

            @Override
            public void onUpdate(T oldObj, T newObj) {}

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                action.accept(obj);
            }
        };
    }
}
