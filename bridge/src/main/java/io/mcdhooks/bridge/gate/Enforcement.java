package io.mcdhooks.bridge.gate;

import io.mcdhooks.bridge.mco.ChangeClassifier;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;

/**
 * Whether a lever of a stock cluster can hold a gate, and if not why: such a gate is still
 * requested, decided and published, marked advisory (its decisions' {@code advisory}), so nobody
 * reads its block as a hold. Pure: the request says all it needs (stage, pool, the change's class).
 *
 * <ul>
 *   <li>{@code pool-pre-update} holds by keeping the pool paused. The master pool (the MCO's
 *       required pool) is never paused with a pending update: {@code syncRequiredMachineConfigPools}
 *       fails at once and the {@code machine-config} ClusterOperator turns Degraded, which stalls
 *       cluster upgrades. Advisory there.
 *   <li>{@code pre-update} holds a change that drains with the gate pod the drain cannot evict; a
 *       change that does not drain (or whose class is unknown) only by keeping the pool paused
 *       until the node's gate passes, which the master pool cannot be. Advisory there.
 *   <li>{@code post-update}: taint and cordon, whatever the change (the uncordon handshake happens
 *       for every update).
 * </ul>
 */
public final class Enforcement {

    static final String MASTER_PAUSE = "the master pool is never paused with a pending update: the MCO's"
            + " syncRequiredMachineConfigPools would fail at once, turning the machine-config ClusterOperator"
            + " Degraded (RequiredPoolsFailed) and stalling cluster upgrades";

    /** What holding a node or the master pool does to the cluster, in every line about such a hold. */
    static final String MASTER_HOLD = "a hold on the master pool delays cluster upgrades: the pool is not Updated,"
            + " so after 10 min per master the machine-config ClusterOperator turns Degraded (RequiredPoolsFailed)";

    private Enforcement() {}

    /** Why no lever holds the gate of {@code request}; null when one does. */
    public static String advisory(GateRequest request) {
        return advisory(request.stage(), request.pool().name(), request.disruption());
    }

    /** Why no lever holds a {@code stage} gate of {@code pool} for a change that does {@code disruption}; null when one does. */
    public static String advisory(Stage stage, String pool, GateRequest.Disruption disruption) {
        if (!McoApi.requiredPool(pool)) {
            return null;
        }
        if (stage == Stage.POOL_PRE_UPDATE) {
            return MASTER_PAUSE;
        }
        if (stage == Stage.PRE_UPDATE && !ChangeClassifier.drains(disruption)) {
            return "this change does not drain the node (" + ChangeClassifier.describe(disruption)
                    + "), so no gate pod holds it, and " + MASTER_PAUSE;
        }
        return null;
    }

    /** The lever that holds a {@code stage} gate, for people; null when none does ({@link #advisory}). */
    public static String lever(Stage stage, String pool, GateRequest.Disruption disruption) {
        if (advisory(stage, pool, disruption) != null) {
            return null;
        }
        return switch (stage) {
            case POOL_PRE_UPDATE -> "the pool stays paused";
            case PRE_UPDATE ->
                ChangeClassifier.drains(disruption)
                        ? "gate pod: the drain cannot finish"
                        : "the pool stays paused until it passes";
            case POST_UPDATE -> "taint and cordon until released";
        };
    }

    /** Whether the pool's pause may hold {@code stage} gates: never for the master pool, see {@link #advisory}. */
    public static boolean pauseHolds(String pool) {
        return !McoApi.requiredPool(pool);
    }
}
