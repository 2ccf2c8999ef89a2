package io.mcdhooks.bridge.watch;

import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.schemas.Transition;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Turns what is known about a pool and its state now into the transitions to publish:
 * a new target config, pause and unpause, updating, updated, degraded. Level-triggered and pure,
 * like {@link NodeClassifier}.
 */
public final class PoolClassifier {

    private PoolClassifier() {}

    public static List<Observed> classify(PoolProgress prior, PoolView now, boolean initial) {
        List<Observed> out = new ArrayList<>();
        String target = now.targetConfig();
        boolean sameTarget = target != null && target.equals(prior.target());
        Set<Transition> known = sameTarget ? prior.reached() : Set.of();
        boolean rolling = target != null && !target.equals(now.currentConfig());
        boolean tracked = rolling || known.contains(Transition.NEW_TARGET_CONFIG);

        // A pause change comes first: it is what lets a rollout start or stops it.
        if (prior.paused() == null ? now.paused() : prior.paused() != now.paused()) {
            Transition pause = now.paused() ? Transition.PAUSED : Transition.UNPAUSED;
            out.add(new Observed(pause, target, initial, Long.toString(now.generation())));
        }
        if (tracked) {
            List<Transition> fresh = new ArrayList<>();
            fresh.add(Transition.NEW_TARGET_CONFIG);
            if (now.condition("Updating") || now.updatedMachineCount() > 0 && rolling) {
                fresh.add(Transition.UPDATING);
            }
            if (!rolling && now.condition("Updated")) {
                fresh.add(Transition.UPDATING);
                fresh.add(Transition.UPDATED);
            }
            List<Transition> unseen =
                    fresh.stream().distinct().filter(t -> !known.contains(t)).toList();
            for (int i = 0; i < unseen.size(); i++) {
                out.add(new Observed(unseen.get(i), target, initial || i < unseen.size() - 1, ""));
            }
        }
        if (now.condition("Degraded")) {
            String message = now.degradedMessage() == null ? "" : now.degradedMessage();
            if (!message.equals(prior.degradedMessage())) {
                out.add(new Observed(Transition.POOL_DEGRADED, target, initial, message));
            }
        }
        return out;
    }
}
