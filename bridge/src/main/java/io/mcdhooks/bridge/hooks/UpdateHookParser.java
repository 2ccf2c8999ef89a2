package io.mcdhooks.bridge.hooks;

import io.mcdhooks.bridge.gate.RegisteredHook;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.Stage;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Parses and checks an {@code UpdateHook}: the {@link RegisteredHook} gates snapshot, or an error
 * naming what is wrong with its spec.
 */
public final class UpdateHookParser {

    private UpdateHookParser() {}

    /** @throws IllegalArgumentException naming what is wrong with the spec */
    public static RegisteredHook parse(UpdateHook hook) {
        String name = hook.getMetadata().getName();
        UpdateHookSpec spec = hook.getSpec();
        if (spec == null || spec.getStages() == null || spec.getStages().isEmpty()) {
            throw new IllegalArgumentException("UpdateHook " + name + ": spec.stages must name at least one stage");
        }
        if (!name.matches("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")) {
            throw new IllegalArgumentException(
                    "UpdateHook " + name + ": the name must be a DNS label, as verdicts carry it");
        }
        Set<Stage> stages = EnumSet.noneOf(Stage.class);
        for (UpdateHookSpec.StageName stage : spec.getStages()) {
            stages.add(
                    switch (stage) {
                        case POOL_PRE_UPDATE -> Stage.POOL_PRE_UPDATE;
                        case PRE_UPDATE -> Stage.PRE_UPDATE;
                        case POST_UPDATE -> Stage.POST_UPDATE;
                    });
        }
        Map<String, String> selector = Map.of();
        if (spec.getNodeSelector() != null) {
            if (spec.getNodeSelector().getMatchExpressions() != null
                    && !spec.getNodeSelector().getMatchExpressions().isEmpty()) {
                throw new IllegalArgumentException("UpdateHook " + name
                        + ": spec.nodeSelector.matchExpressions are not supported; use matchLabels");
            }
            if (spec.getNodeSelector().getMatchLabels() != null) {
                selector = spec.getNodeSelector().getMatchLabels();
            }
        }
        if (spec.getSignature() != null && name.contains(".")) {
            // Its keys are the entries <hook>.<kid> of one Secret: the first dot ends the name.
            throw new IllegalArgumentException("UpdateHook " + name
                    + ": a hook with spec.signature must have a name without dots (its keys are named <hook>.<kid>)");
        }
        int timeout = spec.getTimeoutSeconds() == null ? 600 : spec.getTimeoutSeconds();
        int extension = spec.getMaxExtensionSeconds() == null ? 0 : spec.getMaxExtensionSeconds();
        if (timeout < 1 || extension < 0) {
            throw new IllegalArgumentException("UpdateHook " + name
                    + ": spec.timeoutSeconds must be at least 1 and spec.maxExtensionSeconds at least 0");
        }
        return new RegisteredHook(
                name,
                stages,
                spec.getPools() == null ? Set.of() : new HashSet<>(spec.getPools()),
                selector,
                Duration.ofSeconds(timeout),
                Duration.ofSeconds(extension),
                spec.getFailurePolicy() == UpdateHookSpec.FailurePolicy.Ignore
                        ? GateDecision.FailurePolicy.Ignore
                        : GateDecision.FailurePolicy.Fail,
                spec.getMode() == UpdateHookSpec.Mode.Advisory
                        ? GateDecision.Mode.Advisory
                        : GateDecision.Mode.Enforcing,
                switch (spec.getPostUpdateFailureAction() == null
                        ? UpdateHookSpec.PostUpdateFailureAction.Hold
                        : spec.getPostUpdateFailureAction()) {
                    case Hold -> RegisteredHook.PostUpdateFailure.Hold;
                    case HoldAndPausePool -> RegisteredHook.PostUpdateFailure.HoldAndPausePool;
                    case RollbackPool -> RegisteredHook.PostUpdateFailure.RollbackPool;
                    case RollbackPoolAdvisory -> RegisteredHook.PostUpdateFailure.RollbackPoolAdvisory;
                },
                spec.getSignature() != null);
    }
}
