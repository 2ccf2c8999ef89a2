package io.mcdhooks.bridge.gatekeeper;

import io.mcdhooks.bridge.gate.AckedGates;
import io.mcdhooks.bridge.publish.EventIds;
import io.mcdhooks.bridge.publish.Outbox;
import io.mcdhooks.bridge.publish.Outgoing;
import io.mcdhooks.schemas.GateDecision;
import io.vertx.core.Future;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Where the gatekeeper's decisions go, write-ahead: to Kafka first, and only once Kafka has
 * acknowledged one ({@code acks=all}) into {@link AckedGates}, which the levers follow, and on to
 * whoever acts on decisions on Kafka (the levers, the Events). A decision that cannot be published
 * is retried until it is (the outbox's back-off); until then the levers stay where the decision
 * before it put them. So a crash, or a broker out of reach, never leaves a lever moved that no
 * decision on Kafka explains.
 *
 * <p>Decisions that release nothing are also handed on at once to {@code holds}: a hold never
 * waits (a gate not released holds in {@link AckedGates} whether or not its decision is on Kafka).
 * Confined to the gatekeeper's event loop.
 */
final class DecisionSink implements Consumer<GateDecision> {

    private final Function<GateDecision, Future<Void>> publish;
    private final AckedGates gates;
    private final Consumer<GateDecision> holds;
    private final List<Consumer<GateDecision>> acknowledged;

    /**
     * @param publish      sends a decision; completes once Kafka acknowledged it
     * @param holds        hears each decision that releases nothing, before it is on Kafka
     * @param acknowledged hear each decision once it is on Kafka, in order
     */
    DecisionSink(
            Function<GateDecision, Future<Void>> publish,
            AckedGates gates,
            Consumer<GateDecision> holds,
            List<Consumer<GateDecision>> acknowledged) {
        this.publish = publish;
        this.gates = gates;
        this.holds = holds;
        this.acknowledged = List.copyOf(acknowledged);
    }

    /** Publishing through the bridge's outbox: in order per node (or pool), retried until acknowledged. */
    static Function<GateDecision, Future<Void>> through(Outbox outbox) {
        return decision -> outbox.publish(new Outgoing(
                decision,
                EventIds.lifecycle(
                        decision.cluster(),
                        "GateDecision",
                        decision.gateId(),
                        Integer.toString(decision.attempt()),
                        decision.decision().name(),
                        decision.decidedAt().toString()),
                decision.decidedAt()));
    }

    @Override
    public void accept(GateDecision decision) {
        publish.apply(decision).onSuccess(v -> {
            gates.acknowledged(decision);
            acknowledged.forEach(listener -> listener.accept(decision));
        });
        if (!decision.released()) {
            holds.accept(decision);
        }
    }
}
