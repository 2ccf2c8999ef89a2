package io.mcdhooks.bridge.gate;

import io.mcdhooks.schemas.GateDecision;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The gates as the levers see them: write-ahead. A gate counts as released, and its last decision
 * counts, only once Kafka has acknowledged that decision; until then the levers keep following the
 * decision before it. So no lever is released, and no pause for a failure is set, on a decision
 * that a crash or an unreachable broker could still lose; and a gate the gatekeeper knows but has
 * not had acknowledged yet holds, as a gate that is not released does. No I/O.
 */
public final class AckedGates {

    private final Gatekeeper gatekeeper;
    /** Per gate, the latest of its decisions Kafka acknowledged (or that recovery read back from it). */
    private final Map<String, GateDecision> acked = new HashMap<>();

    public AckedGates(Gatekeeper gatekeeper) {
        this.gatekeeper = gatekeeper;
    }

    /**
     * Kafka acknowledged {@code decision}, or it was read back from Kafka. One older than the
     * latest known of its attempt changes nothing: heard late, it would take back a release whose
     * levers have moved (a gate pod made again after its node's drain began).
     */
    public void acknowledged(GateDecision decision) {
        GateDecision known = acked.get(decision.gateId());
        if (known == null
                || known.attempt() < decision.attempt()
                || known.attempt() == decision.attempt()
                        && !decision.decidedAt().isBefore(known.decidedAt())) {
            acked.put(decision.gateId(), decision);
        }
    }

    /** The gate as the levers may act on it, or {@code null} if the gatekeeper knows no such gate. */
    public Gate gate(String gateId) {
        Gate gate = gatekeeper.gate(gateId);
        if (gate == null) {
            return null;
        }
        GateDecision decision = acked.get(gateId);
        if (decision != null && decision.attempt() != gate.request().attempt()) {
            decision = null; // a decision of an earlier attempt says nothing about this one
        }
        if (gate.last() == decision) {
            return gate; // the gate's own last decision is on Kafka: nothing to hold back
        }
        return gate.with(gate.hooks(), gate.override(), decision != null && decision.released(), decision);
    }

    /** Forgets gates the gatekeeper forgot. */
    public void forget(Collection<String> gateIds) {
        gateIds.forEach(acked::remove);
    }
}
