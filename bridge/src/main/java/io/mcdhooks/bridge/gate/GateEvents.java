package io.mcdhooks.bridge.gate;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.Verdict;
import java.time.Instant;
import java.util.UUID;

/**
 * Records every gate decision as a Kubernetes Event on the Node (or the MachineConfigPool for
 * pool gates), naming the hooks that hold it and why, where {@code oc describe} shows it.
 */
public final class GateEvents {

    /** Namespace of Events about cluster-scoped objects, as kubectl looks for them. */
    private static final String NAMESPACE = "default";

    private static final String COMPONENT = "mcdhooks-gatekeeper";

    private GateEvents() {}

    public static String reason(GateDecision decision) {
        return switch (decision.decision()) {
            case OPENED -> "GateOpened";
            case RELEASED -> "GateReleased";
            case BLOCKED -> "GateBlocked";
            case TIMED_OUT -> decision.released() ? "GateTimedOutIgnored" : "GateTimedOut";
            case OVERRIDDEN -> "GateOverridden";
        };
    }

    /** A verdict refused for its signature, as a Warning Event on the gate's Node or pool. Blocking. */
    public static void rejected(KubernetesClient client, Verdict verdict, String reason) {
        boolean pool = verdict.node() == null;
        String object = pool ? verdict.pool() : verdict.node();
        String now = Instant.now().toString();
        client.v1()
                .events()
                .inNamespace(NAMESPACE)
                .resource(new EventBuilder()
                        .withNewMetadata()
                        .withName(object + "." + UUID.randomUUID().toString().substring(0, 13))
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .withNewInvolvedObject()
                        .withKind(pool ? McoApi.POOL_KIND : "Node")
                        .withApiVersion(pool ? McoApi.V1 : "v1")
                        .withName(object)
                        .endInvolvedObject()
                        .withReason("VerdictRejected")
                        .withType("Warning")
                        .withMessage("a " + verdict.outcome() + " verdict claiming to be from " + verdict.hook()
                                + " on gate " + verdict.gateId() + " was refused: " + reason)
                        .withNewSource()
                        .withComponent(COMPONENT)
                        .endSource()
                        .withReportingComponent(COMPONENT)
                        .withFirstTimestamp(now)
                        .withLastTimestamp(now)
                        .withCount(1)
                        .build())
                .create();
    }

    /** Blocking: call from a worker thread. */
    public static void record(KubernetesClient client, GateDecision decision) {
        boolean pool = decision.node() == null;
        boolean warning = !decision.released() && decision.decision() != GateDecision.Decision.OPENED;
        String object = pool ? decision.pool() : decision.node();
        Instant now = decision.decidedAt();
        String message = decision.stage() + " gate " + decision.gateId() + " (attempt " + decision.attempt() + "): "
                + decision.summary();
        client.v1()
                .events()
                .inNamespace(NAMESPACE)
                .resource(new EventBuilder()
                        .withNewMetadata()
                        .withName(object + "." + UUID.randomUUID().toString().substring(0, 13))
                        .withNamespace(NAMESPACE)
                        .endMetadata()
                        .withNewInvolvedObject()
                        .withKind(pool ? McoApi.POOL_KIND : "Node")
                        .withApiVersion(pool ? McoApi.V1 : "v1")
                        .withName(object)
                        .endInvolvedObject()
                        .withReason(reason(decision))
                        .withType(warning ? "Warning" : "Normal")
                        .withMessage(message.length() > 1024 ? message.substring(0, 1024) : message)
                        .withNewSource()
                        .withComponent(COMPONENT)
                        .endSource()
                        .withReportingComponent(COMPONENT)
                        .withFirstTimestamp(now.toString())
                        .withLastTimestamp(now.toString())
                        .withCount(1)
                        .build())
                .create();
    }
}
