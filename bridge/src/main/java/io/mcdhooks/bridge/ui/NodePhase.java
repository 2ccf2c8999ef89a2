package io.mcdhooks.bridge.ui;

import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.schemas.GateDecision;
import java.util.Map;

/**
 * Where a node stands in a rollout, for people: derived from its MCD annotations, its cordon and
 * the gates the gatekeeper holds for it. Pure.
 */
public enum NodePhase {
    UP_TO_DATE("Up to date"),
    WAITING("Waiting"),
    PREPARING("Preparing"),
    HELD_PRE_UPDATE("Held by pre-update gate"),
    PRE_UPDATE_CHECK("Pre-update check"),
    DRAINING("Draining"),
    APPLYING("Applying"),
    REBOOTING("Rebooting"),
    POST_UPDATE_CHECK("Post-update check"),
    HELD_POST_UPDATE("Held by post-update gate"),
    UNCORDONING("Uncordoning"),
    DONE("Done"),
    DEGRADED("Degraded");

    private final String label;

    NodePhase(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Whether the node is held by a gate. */
    public boolean held() {
        return this == HELD_PRE_UPDATE || this == HELD_POST_UPDATE;
    }

    /**
     * @param annotations the node's annotations
     * @param poolTarget  the rendered config its pool is moving to (or at)
     * @param preUpdate   the latest decision of its pre-update gate for {@code poolTarget}, or {@code null}
     * @param postUpdate  the latest decision of its post-update gate for {@code poolTarget}, or {@code null}
     */
    public static NodePhase of(
            Map<String, String> annotations, String poolTarget, GateDecision preUpdate, GateDecision postUpdate) {
        Map<String, String> a = annotations == null ? Map.of() : annotations;
        String current = a.get(McoApi.CURRENT_CONFIG);
        String desired = a.get(McoApi.DESIRED_CONFIG);
        String state = a.get(McoApi.STATE);
        boolean onTarget = poolTarget != null && poolTarget.equals(desired);
        // A post-update hold outlasting the uncordon handshake's 10 minutes makes the MCD report the
        // node Degraded (FailedToUncordon): the hold is what the node waits on, so it is shown first.
        if (onTarget && postUpdate != null && !postUpdate.released() && !open(postUpdate)) {
            return HELD_POST_UPDATE;
        }
        if (McoApi.STATE_DEGRADED.equals(state) || McoApi.STATE_UNRECONCILABLE.equals(state)) {
            return DEGRADED;
        }
        if (!onTarget) {
            return poolTarget != null && poolTarget.equals(current) ? UP_TO_DATE : WAITING;
        }
        if (postUpdate != null && !postUpdate.released()) {
            return open(postUpdate) ? POST_UPDATE_CHECK : HELD_POST_UPDATE;
        }
        if (poolTarget.equals(current) && McoApi.STATE_DONE.equals(state)) {
            // Done with this rollout if a gate of it saw the node; else it was there before.
            return preUpdate != null || postUpdate != null ? DONE : UP_TO_DATE;
        }
        String desiredDrain = a.getOrDefault(McoApi.DESIRED_DRAIN, "");
        String lastDrain = a.getOrDefault(McoApi.LAST_APPLIED_DRAIN, "");
        if (McoApi.POST_CONFIG_REBOOTING.equals(a.get(McoApi.POST_CONFIG_ACTION))) {
            return REBOOTING;
        }
        if (desiredDrain.equals(McoApi.UNCORDON_PREFIX + poolTarget)) {
            return UNCORDONING;
        }
        boolean drainAsked = desiredDrain.equals(McoApi.DRAIN_PREFIX + poolTarget);
        if (drainAsked && !lastDrain.equals(desiredDrain)) {
            if (preUpdate != null && !preUpdate.released()) {
                return open(preUpdate) ? PRE_UPDATE_CHECK : HELD_PRE_UPDATE;
            }
            return DRAINING;
        }
        if (drainAsked) {
            return APPLYING;
        }
        if (preUpdate != null && !preUpdate.released()) {
            return open(preUpdate) ? PRE_UPDATE_CHECK : HELD_PRE_UPDATE;
        }
        return PREPARING;
    }

    private static boolean open(GateDecision decision) {
        return decision.decision() == GateDecision.Decision.OPENED;
    }
}
