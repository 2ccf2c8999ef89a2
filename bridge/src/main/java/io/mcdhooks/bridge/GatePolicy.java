package io.mcdhooks.bridge;

import io.mcdhooks.bridge.gate.Gatekeeper;
import io.mcdhooks.schemas.Stage;
import java.time.Duration;
import java.util.Set;

/** Which gates the bridge requests: a stage of a pool is gated or not. */
@FunctionalInterface
public interface GatePolicy {

    boolean gates(Stage stage, String pool);

    /** A gate request's deadline after it opens; {@code floor} (MCDHOOKS_GATE_TIMEOUT) unless the hooks need longer. */
    default Duration deadline(Stage stage, String pool, Duration floor) {
        return floor;
    }

    /** Whether pools' update windows, freezes and pauses are enforced: the gatekeeper's policy, not the bridge's. */
    default boolean enforcesSchedules() {
        return false;
    }

    /** What the hooks registered with {@code gatekeeper} now ask: the gates they take part in, as long as they wait. */
    static GatePolicy of(Gatekeeper gatekeeper) {
        return new GatePolicy() {
            @Override
            public boolean gates(Stage stage, String pool) {
                return gatekeeper.gates(stage, pool);
            }

            @Override
            public Duration deadline(Stage stage, String pool, Duration floor) {
                return gatekeeper.deadline(stage, pool, floor);
            }

            @Override
            public boolean enforcesSchedules() {
                return true;
            }
        };
    }

    /** Every stage of the named pools; {@code *} names them all. */
    static GatePolicy pools(Set<String> pools) {
        return (stage, pool) -> pools.contains("*") || pools.contains(pool);
    }
}
