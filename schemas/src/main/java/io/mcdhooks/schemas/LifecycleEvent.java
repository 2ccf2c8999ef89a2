package io.mcdhooks.schemas;

import java.time.Instant;

/**
 * One observed MCD/MCO transition of a node or a pool.
 *
 * @param cluster     the cluster it was observed in
 * @param object      the node or pool, with the resourceVersion it was seen at
 * @param pool        the node's pool where known (for pool events, the pool itself)
 * @param transition  what happened
 * @param fromConfig  node {@code currentConfig} / pool {@code status.configuration}
 * @param toConfig    node {@code desiredConfig} / pool {@code spec.configuration}
 * @param fromImage   image-mode pools: {@code currentImage}
 * @param toImage     image-mode pools: {@code desiredImage}
 * @param state       the MCD {@code state} annotation as seen, unknown values included
 * @param reason      the MCD {@code reason} annotation
 * @param condition   the MachineConfigNode condition behind the transition, if any
 * @param observedAt  when the bridge saw it
 * @param late        whether it happened while the bridge was not watching
 * @param schedule    pool events of a pool with a schedule the gatekeeper enforces: whether it
 *                    takes new nodes; {@code null} otherwise
 */
public record LifecycleEvent(
        String cluster,
        ObjectRef object,
        String pool,
        Transition transition,
        String fromConfig,
        String toConfig,
        String fromImage,
        String toImage,
        String state,
        String reason,
        Condition condition,
        Instant observedAt,
        boolean late,
        Schedule schedule)
        implements Message {

    private static final String KIND = "LifecycleEvent";

    public LifecycleEvent {
        Require.text(cluster, KIND, "cluster");
        Require.present(object, KIND, "object");
        Require.present(transition, KIND, "transition");
        Require.present(observedAt, KIND, "observedAt");
        boolean poolTransition = transition.scope() == Transition.Scope.POOL;
        boolean poolObject = object.kind() == ObjectRef.Kind.MachineConfigPool;
        if (poolTransition != poolObject) {
            throw new IllegalArgumentException(
                    KIND + ".transition " + transition + " does not apply to a " + object.kind());
        }
    }

    @Override
    public String key() {
        return object.name();
    }

    @Override
    public MessageKind kind() {
        return MessageKind.LIFECYCLE_EVENT;
    }

    /** The observed object. */
    public record ObjectRef(Kind kind, String name, String uid, String resourceVersion) {

        /** Kinds the bridge watches. */
        public enum Kind {
            Node,
            MachineConfigPool
        }

        public ObjectRef {
            Require.present(kind, KIND, "object.kind");
            Require.text(name, KIND, "object.name");
        }
    }

    /**
     * Whether a pool takes new nodes under its update windows, freeze and pause between batches,
     * as its annotations read when the event was observed.
     *
     * @param state {@code open}, {@code closed} or {@code invalid}
     */
    public record Schedule(String state, String description) {
        public Schedule {
            Require.text(state, KIND, "schedule.state");
            Require.text(description, KIND, "schedule.description");
        }
    }

    /** A MachineConfigNode status condition, as the cluster showed it. */
    public record Condition(String type, String status, String reason, String message) {
        public Condition {
            Require.text(type, KIND, "condition.type");
            Require.text(status, KIND, "condition.status");
        }
    }
}
