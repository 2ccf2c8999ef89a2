package io.mcdhooks.bridge.rollback;

import io.mcdhooks.bridge.gate.WhyHeld;
import io.mcdhooks.schemas.GateDecision;

/**
 * A pool rollback in one line for people, where it stands and why it started: {@code rollback
 * APPLIED rendered-worker-2 -> rendered-worker-1 at 2026-12-03T10:00:00Z: the MachineConfigs are
 * back …; started by c1/post-update/worker-0/rendered-worker-2: blocked by node-check: FAIL
 * ChecksFailed}. The one formatter of it, for {@code mcdhooks status}, {@code mcdhooks plan} and
 * the status page.
 */
public final class RollbackText {

    private RollbackText() {}

    /** The line of {@code decision}, a failed gate's decision that carries a rollback. */
    public static String of(GateDecision decision) {
        GateDecision.Rollback rollback = decision.rollback();
        return "rollback " + rollback.state() + " " + rollback.from() + " -> "
                + (rollback.to() == null ? "?" : rollback.to()) + " at " + decision.decidedAt() + ": "
                + rollback.message() + "; started by " + decision.gateId() + ": " + WhyHeld.of(decision);
    }
}
