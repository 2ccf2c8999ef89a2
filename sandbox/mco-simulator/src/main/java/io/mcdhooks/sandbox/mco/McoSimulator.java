package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A simulated Machine Config Operator acting on a Kubernetes API server: the operator's sync of
 * its ClusterOperator and MachineConfiguration, the MCC's render, node and drain controllers (which
 * run only while the MCC's pod can run, see {@link SimulatedDeployment}), one MCD per node, and the
 * kubelets' start of pods.
 *
 * <p>Everything it decides, it decides from what the API server says now (informers, plus the
 * answers to its own writes), so other writers can pause pools, cordon and taint nodes, or hold
 * drains with PodDisruptionBudgets while it runs. It writes only what the MCO writes: the MCO
 * annotations, {@code spec.unschedulable} with its {@code node.kubernetes.io/unschedulable} taint,
 * the {@code UpdateInProgress:PreferNoSchedule} taint, the {@code controlPlaneTopology}
 * annotation, node Ready during reboots, pool spec configuration and status, rendered
 * MachineConfigs, MachineConfigNodes, the status of {@code MachineConfiguration/cluster} and of the
 * {@code machine-config} ClusterOperator, pod status (kubelet), evictions and Events.
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
    private final SharedIndexInformer<GenericKubernetesResource> machineConfigurationInformer;
    private final SharedIndexInformer<GenericKubernetesResource> infrastructureInformer;
    private final NodeController nodeController;
    private final RenderController renderController;
    private final DrainController drainController;
    private final OperatorController operatorController;
    private final Kubelet kubelet;
    private final SimulatedDeployment controllerPod;
    private final SimulatedDeployment operatorPod;
    private final List<SimulatedDeployment> deployments = new CopyOnWriteArrayList<>();
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
        this.machineConfigurationInformer =
                client.genericKubernetesResources(Mco.MACHINE_CONFIGURATIONS).runnableInformer(0);
        this.infrastructureInformer =
                client.genericKubernetesResources(Mco.INFRASTRUCTURES).runnableInformer(0);
        podInformer.addIndexers(DrainController.podIndexers());
        this.sim = new SimContext(client, config, clock, new NodeCache(nodeInformer), configInformer, poolInformer);
        sim.clusterConfig(machineConfigurationInformer, infrastructureInformer);
        this.controllerPod = new SimulatedDeployment(
                "machine-config-controller", SimulatedDeployment.MCO_TOLERATIONS, SimulatedDeployment.MASTER_SELECTOR);
        this.operatorPod = new SimulatedDeployment(
                "machine-config-operator", SimulatedDeployment.MCO_TOLERATIONS, SimulatedDeployment.MASTER_SELECTOR);
        deployments.add(controllerPod);
        deployments.add(operatorPod);
        this.nodeController = new NodeController(sim);
        this.renderController = new RenderController(sim);
        this.drainController = new DrainController(sim, podInformer, budgetInformer);
        this.operatorController = new OperatorController(sim);
        this.kubelet = new Kubelet(sim, podInformer);
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
        podInformer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                kubelet.onPod(pod);
            }

            @Override
            public void onUpdate(Pod old, Pod pod) {
                kubelet.onPod(pod);
            }

            @Override
            public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
                drainController.onPodDeleted(pod);
            }
        });
        podInformer.run();
        budgetInformer.run();
        infrastructureInformer.addEventHandler(onAnyChange(nodeController::enqueueAll));
        infrastructureInformer.run();
        machineConfigurationInformer.addEventHandler(onAnyChange(operatorController::enqueue));
        machineConfigurationInformer.run();
        configInformer.addEventHandler(onAnyChange(renderController::enqueue));
        configInformer.run();
        poolInformer.addEventHandler(onAnyChange(() -> {
            renderController.enqueue();
            nodeController.enqueueAll();
            operatorController.enqueue();
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
        controllerPod.onChange(running -> {
            if (running) {
                drainController.start();
                renderController.enqueue();
                nodeController.enqueueAll();
            } else {
                drainController.stop();
            }
        });
        operatorPod.onChange(running -> operatorController.enqueue());
        drainController.onEviction(node -> deployments.forEach(d -> d.evictedFrom(node, sim.nodes.all())));
        // The MCO runs on control-plane nodes; a simulated cluster without any has it elsewhere.
        boolean controlPlane = sim.nodes.all().stream()
                .anyMatch(n -> n.getMetadata().getLabels() != null
                        && n.getMetadata()
                                .getLabels()
                                .keySet()
                                .containsAll(SimulatedDeployment.MASTER_SELECTOR.keySet()));
        if (controlPlane) {
            sim.deployments(controllerPod, operatorPod);
        }
        for (SimulatedDeployment d : deployments) {
            d.update(sim.nodes.all());
        }
        renderController.enqueue();
        nodeController.enqueueAll();
        operatorController.enqueue();
        LOG.atInfo()
                .addKeyValue("nodes", nodeInformer.getStore().list().size())
                .addKeyValue("timeScale", sim.config.timeScale())
                .log("MCO simulator started");
    }

    private void onNode(Node old, Node node) {
        sim.nodes.seen(node);
        for (SimulatedDeployment d : deployments) {
            d.onNode(node, sim.nodes::all);
        }
        kubelet.onNode(node);
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

    /**
     * A Deployment of one pod with these tolerations and node selector, placed as the scheduler
     * would and displaced by reboots and drains ({@link SimulatedDeployment}); e.g. for a test
     * harness to stop a process while its pod could not run.
     */
    public SimulatedDeployment deployment(String name, List<Toleration> tolerations, Map<String, String> nodeSelector) {
        var d = new SimulatedDeployment(name, tolerations, nodeSelector);
        deployments.add(d);
        d.update(sim.nodes.all());
        return d;
    }

    /** The MCC's pod: while it does not run, neither do the node, render and drain controllers. */
    public SimulatedDeployment controllerDeployment() {
        return controllerPod;
    }

    /** The MCC's {@code mcc_drain_err} gauge: 1 per node whose drain has failed for over an hour. */
    public Map<String, Double> drainErrors() {
        return drainController.drainErrors();
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
        for (SharedIndexInformer<?> informer : List.of(
                nodeInformer,
                poolInformer,
                configInformer,
                podInformer,
                budgetInformer,
                machineConfigurationInformer,
                infrastructureInformer)) {
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
}
