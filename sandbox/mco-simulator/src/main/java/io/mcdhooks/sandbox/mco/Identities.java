package io.mcdhooks.sandbox.mco;

/**
 * The identities the simulated cluster's actors write under, as kube-apiserver sees the real ones.
 *
 * <ul>
 *   <li>The MCC's render, node and drain controllers run in one pod with the
 *       {@code machine-config-controller} service account
 *       ({@code manifests/machineconfigcontroller/deployment.yaml}).
 *   <li>The MCD writes with its pod's {@code machine-config-daemon} token, the same service account
 *       on every node: {@code cmd/machine-config-daemon/start.go} reads only the API server's URL from
 *       the kubelet's kubeconfig and builds its clients from the in-cluster config
 *       ({@code internal/clients/builder.go} {@code NewBuilder("")} → {@code rest.InClusterConfig}). It
 *       never writes as {@code system:node:<name>}. Its bound token names the node it runs on
 *       ({@code authentication.kubernetes.io/node-name}), which the MCO's own {@code mcn-guards}
 *       policy checks.
 *   <li>The kubelet posts its Node's status as {@code system:node:<name>}; the node lifecycle
 *       controller of kube-controller-manager (its own service account, as OpenShift runs it with
 *       {@code --use-service-account-credentials}) marks a silent node {@code Ready=Unknown}, and the
 *       ReplicaSet controller creates replacement pods.
 * </ul>
 */
public final class Identities {

    public static final String MCO_NAMESPACE = Mco.NAMESPACE;

    public static final Identity MACHINE_CONFIG_CONTROLLER =
            Identity.serviceAccount(MCO_NAMESPACE, "machine-config-controller");

    public static final Identity MACHINE_CONFIG_OPERATOR =
            Identity.serviceAccount(MCO_NAMESPACE, "machine-config-operator");

    public static final Identity NODE_LIFECYCLE_CONTROLLER = Identity.serviceAccount("kube-system", "node-controller");

    public static final Identity REPLICASET_CONTROLLER =
            Identity.serviceAccount("kube-system", "replicaset-controller");

    private Identities() {}

    /** The MCD on {@code node}: the {@code machine-config-daemon} service account, bound to the node. */
    public static Identity machineConfigDaemon(String node) {
        return Identity.serviceAccount(MCO_NAMESPACE, "machine-config-daemon").onNode(node);
    }

    /** The kubelet of {@code node}. */
    public static Identity kubelet(String node) {
        return Identity.node(node);
    }
}
