package io.mcdhooks.sandbox.mco;

/**
 * Which release's drain controller to simulate; they differ in how they treat a node someone else
 * uncordons during a drain (MCO commit "drain: fix re-cordon detection", in 4.18 and later).
 */
public enum DrainControllerVersion {
    /**
     * 4.16 and 4.17: no enqueue on a {@code spec.unschedulable} change, no second cordon of an
     * ongoing drain, {@code lastAppliedDrain} written even if the node was uncordoned meanwhile,
     * and no {@code DrainFailed} event (only the {@code mcc_drain_err} gauge).
     */
    OCP_4_16,
    /** 4.18 and later (main): all of the above. */
    OCP_4_18;

    boolean enqueuesOnUnschedulable() {
        return this == OCP_4_18;
    }

    boolean recordonsExternalUncordon() {
        return this == OCP_4_18;
    }

    boolean rechecksCordonAfterDrain() {
        return this == OCP_4_18;
    }

    boolean emitsDrainFailed() {
        return this == OCP_4_18;
    }
}
