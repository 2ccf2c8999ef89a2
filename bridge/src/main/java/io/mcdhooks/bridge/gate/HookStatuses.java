package io.mcdhooks.bridge.gate;

import io.mcdhooks.bridge.hooks.UpdateHookStatus;
import io.mcdhooks.bridge.lag.LagStatus;
import io.mcdhooks.schemas.Verdict;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/** An UpdateHook's status as the gates show it: the open gates that wait on it, its latest verdicts. */
public final class HookStatuses {

    static final int LAST_VERDICTS = 10;
    /**
     * Open gates listed at most: a status rewritten every few seconds with every gate of a
     * 5,000-node rollout (20 hooks, hundreds of KB each) swamped the API server.
     */
    static final int OPEN_GATES = 100;

    private HookStatuses() {}

    public static UpdateHookStatus of(String hook, Collection<Gate> gates, LagStatus lag) {
        return of(hook, gates, lag, null);
    }

    /** As above, saying how post-update gates hold here if {@code hold} is given (hooks with that stage). */
    public static UpdateHookStatus of(String hook, Collection<Gate> gates, LagStatus lag, PostUpdateHold hold) {
        UpdateHookStatus status = new UpdateHookStatus();
        if (hold != null) {
            status.setPostUpdateHold(new UpdateHookStatus.PostUpdateHold(hold.label(), hold.description()));
        }
        if (lag != null) {
            status.setLag(new UpdateHookStatus.Lag(
                    lag.state().name(),
                    lag.lag(),
                    lag.since() == null ? null : lag.since().toString()));
        }
        status.setOpenGates(gates.stream()
                .filter(g -> !g.released() && g.hooks().containsKey(hook))
                .map(Gate::id)
                .sorted()
                .limit(OPEN_GATES)
                .toList());
        List<Verdict> latest = gates.stream()
                .map(g -> g.hooks().get(hook))
                .filter(Objects::nonNull)
                .map(Gate.Slot::latest)
                .filter(Objects::nonNull)
                .sorted(Comparator.comparing(Verdict::producedAt).reversed())
                .limit(LAST_VERDICTS)
                .toList();
        status.setLastVerdicts(latest.stream()
                .map(v -> new UpdateHookStatus.LastVerdict(
                        v.gateId(),
                        v.attempt(),
                        v.outcome().name(),
                        v.reason(),
                        v.producedAt().toString()))
                .toList());
        return status;
    }

    public static boolean same(UpdateHookStatus a, UpdateHookStatus b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.getOpenGates().equals(b.getOpenGates())
                && Objects.equals(mode(a), mode(b))
                && Objects.equals(a.getInvalid(), b.getInvalid())
                && Objects.equals(
                        a.getLag() == null
                                ? null
                                : a.getLag().getState() + "/" + a.getLag().getLag(),
                        b.getLag() == null
                                ? null
                                : b.getLag().getState() + "/" + b.getLag().getLag())
                && a.getLastVerdicts().stream()
                        .map(HookStatuses::key)
                        .toList()
                        .equals(b.getLastVerdicts().stream()
                                .map(HookStatuses::key)
                                .toList());
    }

    private static String key(UpdateHookStatus.LastVerdict v) {
        return v.getGateId() + "#" + v.getAttempt() + "#" + v.getOutcome() + "#" + v.getProducedAt();
    }

    private static String mode(UpdateHookStatus status) {
        return status.getPostUpdateHold() == null
                ? null
                : status.getPostUpdateHold().getMode();
    }
}
