package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Records core/v1 Events as the MCO does: in the MCO's namespace, with the source component
 * ({@code machineconfigdaemon} on behalf of a node; {@code machineconfigcontroller-nodecontroller}
 * for the node controller and also the drain controller, which records with the same component;
 * {@code machineconfigoperator} for the operator) and simulated timestamps.
 */
final class EventRecorder {

    static final String MCD = "machineconfigdaemon";
    static final String NODE_CONTROLLER = "machineconfigcontroller-nodecontroller";
    static final String OPERATOR = "machineconfigoperator";

    private final KubernetesClient client;
    private final SimClock clock;
    private final AtomicLong sequence;

    EventRecorder(KubernetesClient client, SimClock clock, long seed) {
        this(client, clock, new AtomicLong(Math.abs(seed) << 20));
    }

    private EventRecorder(KubernetesClient client, SimClock clock, AtomicLong sequence) {
        this.client = client;
        this.clock = clock;
        this.sequence = sequence;
    }

    /** The same recorder (one sequence of names) writing through {@code client}. */
    EventRecorder as(KubernetesClient client) {
        return new EventRecorder(client, clock, sequence);
    }

    void node(String node, String uid, String type, String reason, String message, String component) {
        record("Node", "v1", node, uid, type, reason, message, component, node);
    }

    void pool(String pool, String uid, String type, String reason, String message) {
        record("MachineConfigPool", Mco.API_VERSION, pool, uid, type, reason, message, NODE_CONTROLLER, null);
    }

    void clusterOperator(String uid, String type, String reason, String message) {
        record(
                "ClusterOperator",
                "config.openshift.io/v1",
                Mco.CLUSTER_OPERATOR,
                uid,
                type,
                reason,
                message,
                OPERATOR,
                null);
    }

    private void record(
            String kind,
            String apiVersion,
            String name,
            String uid,
            String type,
            String reason,
            String message,
            String component,
            String host) {
        String now = clock.now().toString();
        var event = new EventBuilder()
                .withNewMetadata()
                .withName(name + "." + Long.toHexString(sequence.incrementAndGet()))
                .withNamespace(Mco.NAMESPACE)
                .endMetadata()
                .withInvolvedObject(new ObjectReferenceBuilder()
                        .withKind(kind)
                        .withApiVersion(apiVersion)
                        .withName(name)
                        .withUid(uid)
                        .build())
                .withType(type)
                .withReason(reason)
                .withMessage(message)
                .withNewSource()
                .withComponent(component)
                .withHost(host)
                .endSource()
                .withReportingComponent(component)
                .withReportingInstance(host == null ? "" : host)
                .withFirstTimestamp(now)
                .withLastTimestamp(now)
                .withCount(1)
                .build();
        client.v1().events().inNamespace(Mco.NAMESPACE).resource(event).create();
    }
}
