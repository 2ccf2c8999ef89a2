package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.gate.RefusalEvents;
import io.mcdhooks.bridge.gate.WhyHeld;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.Verdict;
import io.vertx.core.WorkerExecutor;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records gate decisions as Kubernetes Events on the Node (or the MachineConfigPool for pool
 * gates), naming the hooks that hold it and why, where {@code oc describe} shows them; and refused
 * verdicts as Warning Events. An Event is recorded when what the gate is changes (opened, blocked,
 * released...), not for every verdict that only moves a hook's state: with 20 hooks that would be
 * 20 Events a gate. Confined to the gatekeeper's event loop; writes on its worker pool.
 */
public final class GateEvents {

    /** Namespace of Events about cluster-scoped objects, as kubectl looks for them. */
    private static final String NAMESPACE = "default";

    private static final String COMPONENT = "mcdhooks-gatekeeper";
    private static final Logger LOG = LoggerFactory.getLogger(GateEvents.class);

    private final KubernetesClient client;
    private final WorkerExecutor worker;
    private final Clock clock;
    /** The last decision of each open gate an Event was recorded for, as "DECISION/released". */
    private final Map<String, String> recorded = new HashMap<>();

    private final RefusalEvents refusals = new RefusalEvents();

    GateEvents(KubernetesClient client, WorkerExecutor worker, Clock clock) {
        this.client = client;
        this.worker = worker;
        this.clock = clock;
    }

    private static String reason(GateDecision decision) {
        return switch (decision.decision()) {
            case OPENED -> "GateOpened";
            case RELEASED -> "GateReleased";
            case BLOCKED -> "GateBlocked";
            case TIMED_OUT -> decision.released() ? "GateTimedOutIgnored" : "GateTimedOut";
            case OVERRIDDEN -> "GateOverridden";
        };
    }

    /** A decision on Kafka: an Event if what the gate is changed. */
    void decided(GateDecision decision) {
        String kind = decision.decision() + "/" + decision.released();
        boolean changed = !kind.equals(recorded.put(decision.gateId(), kind));
        if (decision.released()) {
            recorded.remove(decision.gateId());
        }
        if (!changed) {
            return;
        }
        boolean warning = !decision.released() && decision.decision() != GateDecision.Decision.OPENED;
        String message = decision.stage() + " gate " + decision.gateId() + " (attempt " + decision.attempt() + "): "
                + WhyHeld.of(decision);
        write(
                decision.node(),
                decision.pool(),
                reason(decision),
                warning ? "Warning" : "Normal",
                message,
                decision.decidedAt(),
                decision.gateId());
    }

    /**
     * A verdict refused for its signature or age, as a Warning Event on the gate's Node or pool:
     * at most one per hook and reason a minute ({@link RefusalEvents}), counting the others.
     */
    void refused(Verdict verdict, String reason) {
        RefusalEvents.Due due = refusals.refused(verdict, reason, clock.instant());
        if (due != null) {
            record(due);
        }
    }

    /** Lets time pass: the Events counting refusals of the last interval are written. */
    void tick() {
        refusals.due(clock.instant()).forEach(this::record);
    }

    private void record(RefusalEvents.Due due) {
        Verdict verdict = due.verdict();
        String what = due.count() == 1
                ? "a " + verdict.outcome() + " verdict claiming to be from " + verdict.hook()
                : due.count() + " verdicts claiming to be from " + verdict.hook() + " (the latest a "
                        + verdict.outcome() + ")";
        write(
                verdict.node(),
                verdict.pool(),
                "VerdictRejected",
                "Warning",
                what + " on gate " + verdict.gateId() + " refused: " + due.reason(),
                clock.instant(),
                verdict.gateId(),
                due.count());
    }

    private void write(String node, String pool, String reason, String type, String message, Instant at, String gate) {
        write(node, pool, reason, type, message, at, gate, 1);
    }

    private void write(
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
