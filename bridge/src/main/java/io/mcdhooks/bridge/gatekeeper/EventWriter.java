package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.mco.McoApi;
import io.vertx.core.WorkerExecutor;
import java.time.Instant;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the gatekeeper's Kubernetes Events, on a Node or on a MachineConfigPool, where
 * {@code oc describe} shows them; on the gatekeeper's worker pool, never failing its caller (an
 * Event that cannot be written is logged).
 */
public final class EventWriter {

    /** Namespace of Events about cluster-scoped objects, as kubectl looks for them. */
    private static final String NAMESPACE = "default";

    private static final String COMPONENT = "mcdhooks-gatekeeper";
    private static final Logger LOG = LoggerFactory.getLogger(EventWriter.class);

    private final KubernetesClient client;
    private final WorkerExecutor worker;

    EventWriter(KubernetesClient client, WorkerExecutor worker) {
        this.client = client;
        this.worker = worker;
    }

    /**
     * @param node  the Node it is about, or null for {@code pool}
     * @param gate  what the log line names if it cannot be written
     * @param count how many times it happened in the interval it stands for
     */
    void write(
            String node, String pool, String reason, String type, String message, Instant at, String gate, int count) {
        Event event = event(node, pool, reason, type, message, at, count);
        worker.executeBlocking(
                        () -> {
                            client.v1()
                                    .events()
                                    .inNamespace(NAMESPACE)
                                    .resource(event)
                                    .create();
                            return null;
                        },
                        false)
                .onFailure(e -> LOG.atWarn()
                        .addKeyValue("gate", gate)
                        .setCause(e)
                        .log("could not record the Kubernetes Event {}", reason));
    }

    private static Event event(
            String node, String pool, String reason, String type, String message, Instant at, int count) {
        boolean poolEvent = node == null;
        String object = poolEvent ? pool : node;
        return new EventBuilder()
                .withNewMetadata()
                .withName(object + "." + UUID.randomUUID().toString().substring(0, 13))
                .withNamespace(NAMESPACE)
                .endMetadata()
                .withNewInvolvedObject()
                .withKind(poolEvent ? McoApi.POOL_KIND : "Node")
                .withApiVersion(poolEvent ? McoApi.V1 : "v1")
                .withName(object)
                .endInvolvedObject()
                .withReason(reason)
                .withType(type)
                .withMessage(message.length() > 1024 ? message.substring(0, 1024) : message)
                .withNewSource()
                .withComponent(COMPONENT)
                .endSource()
                .withReportingComponent(COMPONENT)
                .withFirstTimestamp(at.toString())
                .withLastTimestamp(at.toString())
                .withCount(count)
                .build();
    }
}
