package io.mcdhooks.bridge.watch;

import io.mcdhooks.schemas.Transition;
import java.util.EnumSet;
import java.util.Set;

/**
 * What is known to have been published about a node: the target of its current update, the
 * milestones of that update already reached, and the degraded reason if it is degraded. The
 * bridge rebuilds this from its own lifecycle topic after a restart, which is what makes it
 * level-triggered without publishing anything twice.
 */
public record NodeProgress(String target, Set<Transition> reached, String degradedReason) {

    public static final NodeProgress NONE = new NodeProgress(null, Set.of(), null);

    public NodeProgress {
        reached = reached.isEmpty() ? Set.of() : Set.copyOf(reached);
    }

    /** Whether the node's update to {@code target} has been seen starting. */
    public boolean tracks(String candidate) {
        return candidate != null && candidate.equals(target) && reached.contains(Transition.UPDATE_ASSIGNED);
    }

    /** This progress after {@code observed} was published. */
    public NodeProgress after(Observed observed) {
        Transition t = observed.transition();
        return switch (t) {
            case DEGRADED -> new NodeProgress(target, reached, observed.discriminator());
            case RECOVERED -> new NodeProgress(target, reached, null);
            case DELETED -> NONE;
            default -> {
                boolean sameTarget =
                        observed.target() != null && observed.target().equals(target);
                EnumSet<Transition> next =
                        sameTarget && !reached.isEmpty() ? EnumSet.copyOf(reached) : EnumSet.noneOf(Transition.class);
                next.add(t);
                yield new NodeProgress(observed.target(), next, degradedReason);
            }
        };
    }
}
