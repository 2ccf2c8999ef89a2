package io.mcdhooks.bridge.ui;

/** Where a pool stands in a rollout, for the timeline: from its configs, counts and pool-pre-update gate. */
public enum PoolPhase {
    AT_REST("Up to date"),
    POOL_CHECK("Pool pre-update check"),
    HELD_POOL("Held by pool-pre-update gate"),
    ROLLING("Rolling out");

    private final String label;

    PoolPhase(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
