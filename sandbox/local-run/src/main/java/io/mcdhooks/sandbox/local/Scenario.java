package io.mcdhooks.sandbox.local;

import java.util.Arrays;
import java.util.Locale;

/** What the local run shows; chosen with {@code --scenario}. */
public enum Scenario {
    /** Every hook passes: the kernel change rolls through the pool. */
    HAPPY("happy", "all hooks pass; the pool updates node by node"),
    /** The pool-pre-update kmod hook blocks until the modules for the new kernel appear (after ~10 s). */
    KMOD_MISSING("kmod-missing", "kmod-check blocks the pool until the modules appear, then it proceeds"),
    /** The first updated node fails its post-update self-check and is held; the pool halts within maxUnavailable. */
    POST_CHECK_FAILS("post-check-fails", "the first updated node fails node-selfcheck and is held; the pool halts"),
    /** A pre-update hook stops consuming: its lag grows and its gates time out per its failure policy. */
    HOOK_DOWN("hook-down", "cmdb-sync stops consuming; its lag grows and its gates time out per its policy"),
    /**
     * A rebootless change (an SSH key): no drain meets a gate pod, so the pre-update gates open with
     * the pool's new target and the pool stays paused until every node's has passed.
     */
    SSH_KEY(
            "ssh-key",
            "an SSH key change, applied without drain or reboot: key-audit's pre-update gates hold the"
                    + " paused pool until each passes, node-selfcheck's post-update gates the uncordon"),
    /**
     * A pool schedule and a soak: the pool is frozen for its first seconds, then takes one node at
     * a time with a pause after each, and node-selfcheck passes a node only once it has stayed
     * healthy for a while.
     */
    MAINTENANCE(
            "maintenance",
            "the pool is frozen for 6 s, then updates node by node with a 3 s pause after each;"
                    + " node-selfcheck passes a node once it has stayed healthy for 3 s"),
    /**
     * node-selfcheck (postUpdateFailureAction RollbackPool) fails the realtime kernel on the first
     * updated node: the gatekeeper deletes the MachineConfig the rollout added, and the pool goes
     * back to its previous config node by node, the failed node too.
     */
    ROLLBACK(
            "rollback",
            "node-selfcheck fails the realtime kernel on the first updated node: the gatekeeper puts the"
                    + " MachineConfigs back and the pool rolls back to its previous config, node by node");

    private final String wire;
    private final String description;

    Scenario(String wire, String description) {
        this.wire = wire;
        this.description = description;
    }

    public String wire() {
        return wire;
    }

    public String description() {
        return description;
    }

    public static Scenario fromWire(String text) {
        String wanted = text.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(s -> s.wire.equals(wanted))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown scenario '" + text + "', expected one of "
                        + Arrays.stream(values()).map(Scenario::wire).toList()));
    }

    @Override
    public String toString() {
        return wire;
    }
}
