package io.mcdhooks.bridge.gate;

import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateDecision.Mode;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A registered hook as gates snapshot it when they open: what the gate machine and the lever plan
 * read of an {@code UpdateHook} (its CRD spec is {@code UpdateHookSpec}).
 *
 * @param pools          pools it gates; empty: every pool
 * @param nodeSelector   labels a node must carry for node stages; empty: every node
 * @param timeout        how long a gate waits for its verdict
 * @param maxExtension   how far PENDING heartbeats may push its deadline beyond {@code timeout}
 * @param onPostUpdateFailure what a failed post-update gate does beyond holding the node
 * @param signed         whether its verdicts must carry a valid signature
 */
public record RegisteredHook(
        String name,
        Set<Stage> stages,
        Set<String> pools,
        Map<String, String> nodeSelector,
        Duration timeout,
        Duration maxExtension,
        FailurePolicy failurePolicy,
        Mode mode,
        PostUpdateFailure onPostUpdateFailure,
        boolean signed) {

    /** What a failed post-update gate does. */
    public enum PostUpdateFailure {
        /** The node stays tainted and cordoned; the pool's budget halts the rollout. */
        Hold,
        /** As Hold, and the pool is paused too, so not even nodes already within budget move on. */
        HoldAndPausePool,
        /** As HoldAndPausePool, and the pool is rolled back to the config the node came from. */
        RollbackPool,
        /** As HoldAndPausePool, and the rollback RollbackPool would do is reported, not done. */
        RollbackPoolAdvisory;

        /** Whether a failure pauses the pool: all but Hold (a rollback holds the pool until it is applied). */
        public boolean pausesPool() {
            return this != Hold;
        }

        /** Whether a failure is answered with a rollback, carried out or reported. */
        public boolean rollsBack() {
            return this == RollbackPool || this == RollbackPoolAdvisory;
        }
    }

    public RegisteredHook {
        Objects.requireNonNull(name, "name");
        stages = Set.copyOf(stages);
        pools = pools == null ? Set.of() : Set.copyOf(pools);
        nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
        Objects.requireNonNull(timeout, "timeout");
        maxExtension = maxExtension == null ? Duration.ZERO : maxExtension;
        failurePolicy = failurePolicy == null ? FailurePolicy.Fail : failurePolicy;
        mode = mode == null ? Mode.Enforcing : mode;
        onPostUpdateFailure = onPostUpdateFailure == null ? PostUpdateFailure.Hold : onPostUpdateFailure;
    }

    /** Whether this hook takes part in the gate {@code request} opens. */
    public boolean appliesTo(GateRequest request) {
        if (!stages.contains(request.stage())) {
            return false;
        }
        if (!pools.isEmpty() && !pools.contains(request.pool().name())) {
            return false;
        }
        return !request.stage().perNode() || selects(request.node().labels());
    }

    /** Whether this hook gates {@code stage} of {@code pool} for some node. */
    public boolean gates(Stage stage, String pool) {
        return stages.contains(stage) && (pools.isEmpty() || pools.contains(pool));
    }

    public boolean selects(Map<String, String> labels) {
        return nodeSelector.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }
}
