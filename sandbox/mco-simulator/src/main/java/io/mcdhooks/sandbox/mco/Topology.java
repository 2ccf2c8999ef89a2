package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * An OpenShift-like starting state: pools, base MachineConfigs and their rendered configs, nodes
 * that are Done on them, workload and DaemonSet pods, PodDisruptionBudgets.
 *
 * <p>Nodes are named {@code master-<i>}, {@code worker-<i>} and {@code <custom>-<i>}, spread
 * round-robin over the zones, created oldest first in index order (so the node controller's
 * "zone, then age" order is predictable). Custom-pool nodes carry both the worker and their own
 * role label and the custom pool selects both roles' MachineConfigs, as in OpenShift.
 */
public final class Topology {

    /** The OS image the base MachineConfigs carry. */
    public static final String DEFAULT_OS_IMAGE = "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:"
            + "d0b8a6779d0de1cdd4fa8497ac1b900c7314fa5288928eb115a5e81c5b80434e";

    public static final String WORKLOAD_NAMESPACE = "workloads";
    public static final String DAEMONSET_NAMESPACE = "openshift-dns";
    private static final String ROLE_PREFIX = "node-role.kubernetes.io/";

    private final Builder b;

    private Topology(Builder builder) {
        this.b = builder;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static String masterName(int i) {
        return "master-" + i;
    }

    public static String workerName(int i) {
        return "worker-" + i;
    }

    /** Names of a pool's nodes in creation order. */
    public List<String> nodeNames(String pool) {
        int count = pool.equals("master")
                ? b.masters
                : pool.equals("worker") ? b.workers : pool.equals(b.customPool) ? b.customNodes : 0;
        var out = new ArrayList<String>();
        for (int i = 0; i < count; i++) {
            out.add(pool + "-" + i);
        }
        return out;
    }

    /** Creates everything on the API server (nodes and pods in parallel). */
    public void apply(KubernetesClient client) {
        var pools = new ArrayList<GenericKubernetesResource>();
        pools.add(pool(
                "master",
                Map.of("matchLabels", Map.of(ROLE_PREFIX + "master", "")),
                Map.of("matchLabels", Map.of(Mco.ROLE_LABEL, "master"))));
        pools.add(pool(
                "worker",
                Map.of("matchLabels", Map.of(ROLE_PREFIX + "worker", "")),
                Map.of("matchLabels", Map.of(Mco.ROLE_LABEL, "worker"))));
        if (b.customPool != null) {
            pools.add(pool(
                    b.customPool,
                    Map.of("matchLabels", Map.of(ROLE_PREFIX + b.customPool, "")),
                    Map.of(
                            "matchExpressions",
                            List.of(Map.of(
                                    "key",
                                    Mco.ROLE_LABEL,
                                    "operator",
                                    "In",
                                    "values",
                                    List.of("worker", b.customPool))))));
        }
        var configs = new ArrayList<GenericKubernetesResource>();
        for (String role : poolOrder()) {
            configs.add(baseConfig(role));
            configs.add(sshConfig(role));
        }
        for (GenericKubernetesResource mc : configs) {
            Mco.machineConfigs(client).resource(mc).create();
        }
        var rendered = new LinkedHashMap<String, String>();
        for (GenericKubernetesResource pool : pools) {
            GenericKubernetesResource created = Mco.pools(client).resource(pool).create();
            Renderer.Rendered r =
                    Renderer.render(pool.getMetadata().getName(), RenderController.sources(created, configs));
            Mco.machineConfigs(client)
                    .resource(RenderController.renderedObject(created, r))
                    .create();
            Map<String, Object> configuration = RenderController.configuration(r);
            Mco.pools(client)
                    .withName(pool.getMetadata().getName())
                    .patch(Mco.jsonPatch(), Mco.set("/spec/configuration", configuration));
            Mco.pools(client)
                    .withName(pool.getMetadata().getName())
                    .subresource("status")
                    .patch(
                            Mco.jsonPatch(),
                            Mco.set("/status", Map.of("configuration", configuration, "observedGeneration", 1)));
            rendered.put(pool.getMetadata().getName(), r.name());
        }
        for (String ns : List.of(WORKLOAD_NAMESPACE, DAEMONSET_NAMESPACE, Mco.NAMESPACE)) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(ns)
                            .endMetadata()
                            .build())
                    .create();
        }
        createClusterObjects(client);
        var tasks = new ArrayList<Runnable>();
        Instant created = b.firstCreated;
        int index = 0;
        for (String pool : poolOrder()) {
            for (String name : nodeNames(pool)) {
                Node node = node(name, pool, rendered.get(pool), created, index++);
                tasks.add(() -> client.nodes().resource(node).create());
                for (Pod pod : pods(name, pool)) {
                    tasks.add(() -> client.pods()
                            .inNamespace(pod.getMetadata().getNamespace())
                            .resource(pod)
                            .create());
                }
                created = created.plus(Duration.ofSeconds(1));
            }
        }
        for (PodDisruptionBudget pdb : b.budgets) {
            tasks.add(() -> client.policy()
                    .v1()
                    .podDisruptionBudget()
                    .inNamespace(pdb.getMetadata().getNamespace())
                    .resource(pdb)
                    .create());
        }
        runAll(tasks);
    }

    /**
     * {@code Infrastructure/cluster} with the control-plane topology, an empty
     * {@code MachineConfiguration/cluster} (optionally with an administrator's node disruption
     * policy) and the {@code machine-config} ClusterOperator; the simulator fills their status.
     */
    private void createClusterObjects(KubernetesClient client) {
        Mco.infrastructure(client)
                .create(new GenericKubernetesResourceBuilder()
                        .withApiVersion("config.openshift.io/v1")
                        .withKind("Infrastructure")
                        .withNewMetadata()
                        .withName(Mco.CLUSTER)
                        .endMetadata()
                        .addToAdditionalProperties("spec", Map.of())
                        .build());
        Mco.infrastructure(client)
                .subresource("status")
                .patch(
                        Mco.jsonPatch(),
                        Mco.set(
                                "/status",
                                Map.of(
                                        "controlPlaneTopology", controlPlaneTopology(),
                                        "infrastructureTopology", controlPlaneTopology())));
        var spec = new LinkedHashMap<String, Object>();
        spec.put("managementState", "Managed");
        if (b.nodeDisruptionPolicy != null) {
            spec.put("nodeDisruptionPolicy", b.nodeDisruptionPolicy);
        }
        Mco.machineConfiguration(client)
                .create(new GenericKubernetesResourceBuilder()
                        .withApiVersion("operator.openshift.io/v1")
                        .withKind("MachineConfiguration")
                        .withNewMetadata()
                        .withName(Mco.CLUSTER)
                        .endMetadata()
                        .addToAdditionalProperties("spec", spec)
                        .build());
    }

    /** The cluster's control-plane topology: as set, else SingleReplica for a one-node cluster. */
    public String controlPlaneTopology() {
        if (b.controlPlaneTopology != null) {
            return b.controlPlaneTopology;
        }
        return singleNode() ? Mco.SINGLE_REPLICA : Mco.HIGHLY_AVAILABLE;
    }

    private List<String> poolOrder() {
        var out = new ArrayList<>(List.of("master", "worker"));
        if (b.customPool != null) {
            out.add(b.customPool);
        }
        return out;
    }

    private GenericKubernetesResource pool(
            String name, Map<String, Object> nodeSelector, Map<String, Object> configSelector) {
        var spec = new LinkedHashMap<String, Object>();
        spec.put("machineConfigSelector", configSelector);
        spec.put("nodeSelector", nodeSelector);
        spec.put("paused", b.paused.contains(name));
        spec.put(
                "maxUnavailable",
                b.maxUnavailable.getOrDefault(name, MaxUnavailable.DEFAULT).toFieldValue());
        var labels = new LinkedHashMap<String, String>();
        labels.put("pools.operator.machineconfiguration.openshift.io/" + name, "");
        if (name.equals("master") || name.equals("worker")) {
            labels.put(Mco.GROUP + "/mco-built-in", "");
        }
        if (name.equals("master")) {
            labels.put(Mco.REQUIRED_FOR_UPGRADE, "");
        }
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(Mco.API_VERSION)
                .withKind("MachineConfigPool")
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .addToAdditionalProperties("spec", spec)
                .build();
    }

    private GenericKubernetesResource baseConfig(String role) {
        var spec = new LinkedHashMap<String, Object>();
        spec.put(
                "config",
                Map.of(
                        "ignition",
                        Map.of("version", "3.4.0"),
                        "storage",
                        Map.of(
                                "files",
                                List.of(Map.of(
                                        "path",
                                        "/etc/kubernetes/kubelet.conf",
                                        "mode",
                                        420,
                                        "overwrite",
                                        true,
                                        "contents",
                                        Map.of("source", "data:,role%3D" + role)))),
                        "systemd",
                        Map.of("units", List.of(Map.of("name", "kubelet.service", "enabled", true)))));
        spec.put("extensions", List.of());
        spec.put("fips", false);
        spec.put("kernelArguments", List.of("systemd.unified_cgroup_hierarchy=1", "cgroup_no_v1=\"all\"", "psi=1"));
        spec.put("kernelType", "default");
        spec.put("osImageURL", b.osImageUrl);
        GenericKubernetesResource mc = MachineConfigs.of("00-" + role, role, spec);
        // Like the MCO's own 00-<role>: generated by the controller, so a user's osImageURL wins.
        mc.getMetadata().setAnnotations(Map.of(RenderController.GENERATED_BY, RenderController.CONTROLLER_VERSION));
        return mc;
    }

    private GenericKubernetesResource sshConfig(String role) {
        return MachineConfigs.sshKeys(
                "99-" + role + "-ssh", role, List.of("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAISimulated"));
    }

    private Node node(String name, String pool, String rendered, Instant created, int index) {
        var labels = new LinkedHashMap<String, String>();
        labels.put("kubernetes.io/arch", "amd64");
        labels.put("kubernetes.io/hostname", name);
        labels.put("kubernetes.io/os", "linux");
        labels.put("node.openshift.io/os_id", "rhcos");
        labels.put(ROLE_PREFIX + (pool.equals("master") ? "master" : "worker"), "");
        if (!pool.equals("master") && !pool.equals("worker")) {
            labels.put(ROLE_PREFIX + pool, "");
        }
        labels.put("topology.kubernetes.io/region", b.region);
        labels.put(Mco.ZONE_LABEL, b.zones.get(index % b.zones.size()));
        var annotations = new LinkedHashMap<String, String>();
        annotations.put(Mco.CONTROL_PLANE_TOPOLOGY, controlPlaneTopology());
        annotations.put(Mco.CURRENT_CONFIG, rendered);
        annotations.put(Mco.DESIRED_CONFIG, rendered);
        annotations.put(Mco.DESIRED_DRAIN, "uncordon-" + rendered);
        annotations.put(Mco.LAST_APPLIED_DRAIN, "uncordon-" + rendered);
        annotations.put(Mco.REASON, "");
        annotations.put(Mco.STATE, Mco.STATE_DONE);
        String since = created.toString();
        var builder = new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .withAnnotations(annotations)
                .withCreationTimestamp(since)
                .endMetadata()
                .withNewSpec()
                .withProviderID("simulated:///" + name)
                .endSpec()
                .withNewStatus()
                .withConditions(
                        new NodeCondition(
                                since,
                                since,
                                "kubelet has sufficient memory available",
                                "KubeletHasSufficientMemory",
                                "False",
                                "MemoryPressure"),
                        new NodeCondition(
                                since,
                                since,
                                "kubelet has no disk pressure",
                                "KubeletHasNoDiskPressure",
                                "False",
                                "DiskPressure"),
                        new NodeCondition(
                                since,
                                since,
                                "kubelet has sufficient PID available",
                                "KubeletHasSufficientPID",
                                "False",
                                "PIDPressure"),
                        new NodeCondition(
                                since, since, "kubelet is posting ready status", "KubeletReady", "True", "Ready"))
                .endStatus();
        if (pool.equals("master") && !Mco.SINGLE_REPLICA.equals(controlPlaneTopology())) {
            builder.editSpec()
                    .addToTaints(new TaintBuilder()
                            .withKey(ROLE_PREFIX + "master")
                            .withEffect("NoSchedule")
                            .build())
                    .endSpec();
        }
        return builder.build();
    }

    private boolean singleNode() {
        return b.masters + b.workers + b.customNodes == 1;
    }

    private List<Pod> pods(String node, String pool) {
        var out = new ArrayList<Pod>();
        for (int i = 0; i < b.daemonSetPodsPerNode; i++) {
            out.add(pod(
                    DAEMONSET_NAMESPACE,
                    "dns-default-" + i + "-" + node,
                    Map.of("app", "dns-" + i),
                    "apps/v1",
                    "DaemonSet",
                    "dns-default-" + i,
                    node));
        }
        if (!pool.equals("master")) {
            for (int i = 0; i < b.workloadPodsPerNode; i++) {
                String app = "app-" + i;
                out.add(pod(
                        WORKLOAD_NAMESPACE,
                        app + "-" + node,
                        Map.of("app", app),
                        "apps/v1",
                        "ReplicaSet",
                        app + "-5d4f8c",
                        node));
            }
        }
        return out;
    }

    private static Pod pod(
            String ns,
            String name,
            Map<String, String> labels,
            String ownerApi,
            String ownerKind,
            String ownerName,
            String node) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .withLabels(labels)
                .addNewOwnerReference()
                .withApiVersion(ownerApi)
                .withKind(ownerKind)
                .withName(ownerName)
                .withUid(ownerName)
                .withController(true)
                .endOwnerReference()
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("main")
                .withImage("registry.example/" + labels.get("app"))
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .endCondition()
                .addNewCondition()
                .withType("ContainersReady")
                .withStatus("True")
                .endCondition()
                .addNewCondition()
                .withType("PodScheduled")
                .withStatus("True")
                .endCondition()
                .endStatus()
                .build();
    }

    private static void runAll(List<Runnable> tasks) {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            var futures = new ArrayList<Future<?>>();
            for (Runnable t : tasks) {
                futures.add(pool.submit(t));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the topology", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not create the topology", e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** Builds a {@link Topology}. Defaults: 3 masters, 3 workers, 3 zones, maxUnavailable 1. */
    public static final class Builder {
        private int masters = 3;
        private int workers = 3;
        private String customPool;
        private int customNodes;
        private List<String> zones = List.of("us-east-2a", "us-east-2b", "us-east-2c");
        private String region = "us-east-2";
        private final Map<String, MaxUnavailable> maxUnavailable = new LinkedHashMap<>();
        private final Set<String> paused = new HashSet<>();
        private int workloadPodsPerNode;
        private int daemonSetPodsPerNode;
        private final List<PodDisruptionBudget> budgets = new ArrayList<>();
        private String osImageUrl = DEFAULT_OS_IMAGE;
        private String controlPlaneTopology;
        private Map<String, Object> nodeDisruptionPolicy;
        private Instant firstCreated = Instant.parse("2024-11-20T22:39:20Z");

        public Builder masters(int n) {
            this.masters = n;
            return this;
        }

        public Builder workers(int n) {
            this.workers = n;
            return this;
        }

        /** A custom pool (e.g. {@code infra}) with its own node role label and {@code n} nodes. */
        public Builder customPool(String name, int n) {
            if (name.equals("master") || name.equals("worker")) {
                throw new IllegalArgumentException("not a custom pool: " + name);
            }
            this.customPool = name;
            this.customNodes = n;
            return this;
        }

        public Builder zones(String... names) {
            this.zones = List.of(names);
            return this;
        }

        public Builder maxUnavailable(String pool, MaxUnavailable value) {
            this.maxUnavailable.put(pool, Objects.requireNonNull(value));
            return this;
        }

        /** Creates the pool with {@code spec.paused=true}. */
        public Builder paused(String pool) {
            this.paused.add(pool);
            return this;
        }

        /** Pods owned by ReplicaSets {@code app-<i>-…} on every non-master node. */
        public Builder workloadPodsPerNode(int n) {
            this.workloadPodsPerNode = n;
            return this;
        }

        /** Pods owned by DaemonSets on every node (the drain skips them). */
        public Builder daemonSetPodsPerNode(int n) {
            this.daemonSetPodsPerNode = n;
            return this;
        }

        public Builder podDisruptionBudget(PodDisruptionBudget budget) {
            this.budgets.add(budget);
            return this;
        }

        public Builder osImageUrl(String url) {
            this.osImageUrl = url;
            return this;
        }

        /**
         * {@code Infrastructure.status.controlPlaneTopology}: {@code HighlyAvailable} or
         * {@code SingleReplica} (default: SingleReplica for a cluster of one node).
         */
        public Builder controlPlaneTopology(String topology) {
            if (!Mco.SINGLE_REPLICA.equals(topology) && !Mco.HIGHLY_AVAILABLE.equals(topology)) {
                throw new IllegalArgumentException(
                        "controlPlaneTopology must be SingleReplica or HighlyAvailable: " + topology);
            }
            this.controlPlaneTopology = topology;
            return this;
        }

        /** An administrator's {@code MachineConfiguration.spec.nodeDisruptionPolicy} (API form). */
        public Builder nodeDisruptionPolicy(Map<String, Object> policy) {
            this.nodeDisruptionPolicy = Map.copyOf(policy);
            return this;
        }

        public Topology build() {
            if (masters < 0 || workers < 0 || customNodes < 0 || zones.isEmpty()) {
                throw new IllegalArgumentException("node counts must be >= 0 and zones non-empty");
            }
            return new Topology(this);
        }
    }
}
