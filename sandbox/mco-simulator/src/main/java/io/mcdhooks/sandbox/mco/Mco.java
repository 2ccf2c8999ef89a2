package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;

/** Names of the Machine Config Operator's API: group, kinds, annotation keys, taints. */
public final class Mco {

    public static final String GROUP = "machineconfiguration.openshift.io";
    public static final String VERSION = "v1";
    public static final String API_VERSION = GROUP + "/" + VERSION;

    private static final String PREFIX = GROUP + "/";
    /** Rendered config the node runs; written by the MCD, last, when the update is Done. */
    public static final String CURRENT_CONFIG = PREFIX + "currentConfig";
    /** Rendered config the node must move to; written by the MCC's node controller. */
    public static final String DESIRED_CONFIG = PREFIX + "desiredConfig";
    /** {@code Done}, {@code Working}, {@code Degraded} or {@code Unreconcilable}; written by the MCD. */
    public static final String STATE = PREFIX + "state";
    /** Error text when Degraded, {@code ""} otherwise; written by the MCD. */
    public static final String REASON = PREFIX + "reason";
    /** {@code drain-<rendered>} or {@code uncordon-<rendered>}; a request from the MCD. */
    public static final String DESIRED_DRAIN = PREFIX + "desiredDrain";
    /** Echo of {@link #DESIRED_DRAIN} once the drain controller has carried it out. */
    public static final String LAST_APPLIED_DRAIN = PREFIX + "lastAppliedDrain";
    /** {@code Rebooting} just before the reboot, {@code ""} after boot; written by the MCD. */
    public static final String POST_CONFIG_ACTION = PREFIX + "post-config-action";
    /** The cluster's {@code Infrastructure} topology, copied onto nodes by the MCC; the MCD reads it. */
    public static final String CONTROL_PLANE_TOPOLOGY = PREFIX + "controlPlaneTopology";
    /** Image-mode pools: the OS image the node runs; written by the MCD. */
    public static final String CURRENT_IMAGE = PREFIX + "currentImage";
    /** Image-mode pools: the OS image the node must move to; written (or removed) by the MCC. */
    public static final String DESIRED_IMAGE = PREFIX + "desiredImage";
    /** Label selecting the MachineConfigs of a role, e.g. {@code worker}. */
    public static final String ROLE_LABEL = PREFIX + "role";

    public static final String STATE_DONE = "Done";
    public static final String STATE_WORKING = "Working";
    public static final String STATE_DEGRADED = "Degraded";
    public static final String STATE_UNRECONCILABLE = "Unreconcilable";
    public static final String REBOOTING = "Rebooting";

    /** {@code Infrastructure.status.controlPlaneTopology} of a single-node cluster. */
    public static final String SINGLE_REPLICA = "SingleReplica";

    public static final String HIGHLY_AVAILABLE = "HighlyAvailable";
    /** Pools with this label are "required": the ClusterOperator waits for them. */
    public static final String REQUIRED_FOR_UPGRADE = "operator.machineconfiguration.openshift.io/required-for-upgrade";
    /** The name of the cluster-scoped singletons (MachineConfiguration, Infrastructure). */
    public static final String CLUSTER = "cluster";
    /** The MCO's ClusterOperator. */
    public static final String CLUSTER_OPERATOR = "machine-config";

    /** The taint the MCC puts on nodes that still have to update. */
    public static final String UPDATE_IN_PROGRESS_TAINT = "UpdateInProgress";
    /** The taint that mirrors {@code spec.unschedulable=true}. */
    public static final String UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";

    public static final String ZONE_LABEL = "topology.kubernetes.io/zone";

    /** Namespace of the MCO's events: the MCO records them all in its own namespace. */
    public static final String NAMESPACE = "openshift-machine-config-operator";

    public static final ResourceDefinitionContext POOLS = context("MachineConfigPool");
    public static final ResourceDefinitionContext MACHINE_CONFIGS = context("MachineConfig");
    public static final ResourceDefinitionContext MACHINE_CONFIG_NODES = context("MachineConfigNode");
    /** {@code operator.openshift.io/v1 MachineConfiguration}: the node disruption policy and its status. */
    public static final ResourceDefinitionContext MACHINE_CONFIGURATIONS =
            context("operator.openshift.io", "MachineConfiguration");
    /** {@code config.openshift.io/v1 Infrastructure}: {@code status.controlPlaneTopology}. */
    public static final ResourceDefinitionContext INFRASTRUCTURES = context("config.openshift.io", "Infrastructure");
    /** {@code config.openshift.io/v1 ClusterOperator}. */
    public static final ResourceDefinitionContext CLUSTER_OPERATORS = context("config.openshift.io", "ClusterOperator");

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private Mco() {}

    /** The patch type of {@link #set}. */
    static PatchContext jsonPatch() {
        return PatchContext.of(PatchType.JSON);
    }

    /**
     * A JSON Patch that sets {@code path} to {@code value} ({@code add} replaces an existing
     * member). The mock API server appends arrays in a JSON merge patch instead of replacing them,
     * so anything holding a list is written this way.
     */
    static String set(String path, Object value) {
        return SERIALIZATION.asJson(List.of(Map.of("op", "add", "path", path, "value", value)));
    }

    /** A JSON Patch {@code add} operation, for {@link #ops}. */
    static Map<String, Object> add(String path, Object value) {
        return Map.of("op", "add", "path", path, "value", value);
    }

    /** A JSON Patch of several operations. */
    @SafeVarargs
    static String ops(Map<String, Object>... operations) {
        return SERIALIZATION.asJson(List.of(operations));
    }

    /** Converts a generic map (e.g. a pool's nodeSelector) into a model type. */
    static <T> T convert(Object value, Class<T> type) {
        return SERIALIZATION.convertValue(value, type);
    }

    /** MachineConfigPools as generic resources. */
    public static NonNamespaceOperation<
                    GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            pools(KubernetesClient client) {
        return client.genericKubernetesResources(POOLS);
    }

    /**
     * Adds {@code annotations} to pool {@code name} with a merge patch, as {@code oc annotate
     * mcp/NAME} does: no read first, so it cannot lose a race with the controllers writing the pool.
     */
    public static void annotatePool(KubernetesClient client, String name, Map<String, String> annotations) {
        pools(client)
                .withName(name)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        SERIALIZATION.asJson(Map.of("metadata", Map.of("annotations", annotations))));
    }

    /** MachineConfigs (sources and rendered) as generic resources. */
    public static NonNamespaceOperation<
                    GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            machineConfigs(KubernetesClient client) {
        return client.genericKubernetesResources(MACHINE_CONFIGS);
    }

    /** MachineConfigNodes (v1) as generic resources. */
    public static NonNamespaceOperation<
                    GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            machineConfigNodes(KubernetesClient client) {
        return client.genericKubernetesResources(MACHINE_CONFIG_NODES);
    }

    /** The MCO's MachineConfiguration {@code cluster} (node disruption policy) as a generic resource. */
    public static Resource<GenericKubernetesResource> machineConfiguration(KubernetesClient client) {
        return client.genericKubernetesResources(MACHINE_CONFIGURATIONS).withName(CLUSTER);
    }

    /** The cluster's Infrastructure {@code cluster} as a generic resource. */
    public static Resource<GenericKubernetesResource> infrastructure(KubernetesClient client) {
        return client.genericKubernetesResources(INFRASTRUCTURES).withName(CLUSTER);
    }

    /** The ClusterOperator {@code machine-config} as a generic resource. */
    public static Resource<GenericKubernetesResource> clusterOperator(KubernetesClient client) {
        return client.genericKubernetesResources(CLUSTER_OPERATORS).withName(CLUSTER_OPERATOR);
    }

    private static ResourceDefinitionContext context(String kind) {
        return context(GROUP, kind);
    }

    private static ResourceDefinitionContext context(String group, String kind) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group)
                .withVersion(VERSION)
                .withKind(kind)
                .withPlural(kind.toLowerCase() + "s")
                .withNamespaced(false)
                .build();
    }
}
