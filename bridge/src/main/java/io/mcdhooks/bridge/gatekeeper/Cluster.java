package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.rollback.ConfigSnapshot;
import io.mcdhooks.schemas.GateRequest;
import java.util.List;
import java.util.Optional;

/** What the gatekeeper needs of the bridge: its caches of the cluster, and its judgement of pools. */
public interface Cluster {

    Node node(String name);

    List<Node> nodes();

    GenericKubernetesResource pool(String name);

    NodeView view(Node node);

    String poolOf(NodeView node);

    /**
     * What moving {@code node} from its current config to {@code target} does, by the MCO's rules;
     * null when not known (the policy or a rendered config not read yet): treated as not draining.
     */
    GateRequest.Disruption disruption(NodeView node, String target);

    /** A MachineConfig as the informer has it, or null. */
    GenericKubernetesResource machineConfig(String name);

    /** The snapshot of the MachineConfigs {@code renderedConfig} of {@code pool} was made from, if recorded. */
    Optional<ConfigSnapshot> snapshot(String pool, String renderedConfig);
}
