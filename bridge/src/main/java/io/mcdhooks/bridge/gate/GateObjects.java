package io.mcdhooks.bridge.gate;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.mcdhooks.bridge.mco.NodeView;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * What the gatekeeper writes into the cluster and how it marks it: the gate pod and its
 * PodDisruptionBudget that hold a node's drain, and the annotations by which it knows the cordons
 * and pauses it set itself (it only ever undoes those).
 */
public final class GateObjects {

    /** On a node the gatekeeper cordoned: the gate that keeps it cordoned. */
    public static final String CORDONED_FOR = "mcdhooks.io/cordoned-for";
    /**
     * On a node held after its update: the post-update gate that holds it. Where the admission
     * policy {@code mcdhooks-post-update-hold} is installed, kube-apiserver lets nobody but the
     * gatekeeper (and the break-glass group) uncordon the node or remove this annotation.
     */
    public static final String HOLD = NodeView.HOLD;
    /** On a pool the gatekeeper paused. */
    public static final String PAUSED_BY = "mcdhooks.io/paused-by";

    public static final String GATEKEEPER = "gatekeeper";
    /** Labels of gate pods: the hash of the node they sit on (label values are short). */
    public static final String GATE_LABEL = "mcdhooks.io/gate";
    /** On gate pods and budgets: the node they hold. */
    public static final String NODE_ANNOTATION = "mcdhooks.io/node";

    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String MANAGER = "mcdhooks-gatekeeper";

    private GateObjects() {}

    /** The name of a node's gate pod and of its budget. */
    public static String gateName(String node) {
        String name = "mcdhooks-gate-" + node;
        return name.length() <= 253 ? name : "mcdhooks-gate-" + hash(node);
    }

    /** The budget that lets nothing evict {@code node}'s gate pod. */
    public static PodDisruptionBudget budget(String node, String namespace) {
        return new PodDisruptionBudgetBuilder()
                .withMetadata(metadata(node, namespace))
                .withNewSpec()
                .withMaxUnavailable(new IntOrString(0))
                .withNewSelector()
                .withMatchLabels(Map.of(GATE_LABEL, hash(node)))
                .endSelector()
                .endSpec()
                .build();
    }

    /** The pod on {@code node} that its drain cannot evict while the budget stands. */
    public static Pod pod(String node, String namespace, String image) {
        return new PodBuilder()
                .withMetadata(metadata(node, namespace))
                .withNewSpec()
                .withNodeName(node)
                // It must sit on a cordoned, tainted node: the whole point is to be there.
                .addNewToleration()
                .withOperator("Exists")
                .endToleration()
                .withTerminationGracePeriodSeconds(0L)
                .withAutomountServiceAccountToken(false)
                // Admitted under Pod Security "restricted" and OpenShift's restricted-v2: no UID is
                // set, so OpenShift picks one from the namespace's range.
                .withNewSecurityContext()
                .withRunAsNonRoot(true)
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .endSecurityContext()
                .addNewContainer()
                .withName("gate")
                .withImage(image)
                .withNewSecurityContext()
                .withAllowPrivilegeEscalation(false)
                .withReadOnlyRootFilesystem(true)
                .withNewCapabilities()
                .withDrop("ALL")
                .endCapabilities()
                .endSecurityContext()
                .withNewResources()
                .addToRequests("cpu", new Quantity("1m"))
                .addToRequests("memory", new Quantity("8Mi"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    /** Named after the node, labelled as the gatekeeper's, annotated with the node it holds. */
    private static ObjectMeta metadata(String node, String namespace) {
        return new ObjectMetaBuilder()
                .withName(gateName(node))
                .withNamespace(namespace)
                .withLabels(Map.of(GATE_LABEL, hash(node), MANAGED_BY, MANAGER))
                .addToAnnotations(NODE_ANNOTATION, node)
                .build();
    }

    static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always there", e);
        }
    }
}
