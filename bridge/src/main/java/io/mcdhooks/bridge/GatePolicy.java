package io.mcdhooks.bridge;

import java.util.Set;

import io.mcdhooks.schemas.Stage;

/** Which gates the bridge requests: a stage of a pool is gated or not. */
@FunctionalInterface
public interface GatePolicy {

    boolean gates(Stage stage, String pool);

    /** Every stage of the named pools; {@code *} names them all. */
    static GatePolicy pools(Set<String> pools) {
        return (stage, pool) -> pools.contains("*") || pools.contains(pool);
    }
}
