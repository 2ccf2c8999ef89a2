package io.mcdhooks.bridge.watch;

import io.mcdhooks.schemas.Transition;
import java.util.EnumSet;
import java.util.Set;

/**
 * What is known to have been published about a pool: its target and the milestones of the
 * rollout to it, whether it was last seen paused, and its degraded message.
 *
 * @param paused {@code null} when no pause state has been published yet
 */
public record PoolProgress(String target, Set<Transition> reached, Boolean paused, String degradedMessage) {

    public static final PoolProgress NONE = new PoolProgress(null, Set.of(), null, null);

    public PoolProgress {
        reached = reached.isEmpty() ? Set.of() : Set.copyOf(reached);
    }

    public PoolProgress after(Observed observed) {
        return switch (observed.transition()) {
            case PAUSED -> new PoolProgress(target, reached, true, degradedMessage);
            case UNPAUSED -> new PoolProgress(target, reached, false, degradedMessage);
            case POOL_DEGRADED -> new PoolProgress(target, reached, paused, observed.discriminator());
            default -> {
                boolean sameTarget =
                        observed.target() != null && observed.target().equals(target);
                EnumSet<Transition> next =
                        sameTarget && !reached.isEmpty() ? EnumSet.copyOf(reached) : EnumSet.noneOf(Transition.class);
                next.add(observed.transition());
                yield new PoolProgress(observed.target(), next, paused, degradedMessage);
            }
        };
    }
}
