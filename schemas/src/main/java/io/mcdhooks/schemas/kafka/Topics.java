package io.mcdhooks.schemas.kafka;

/** Default topic names; every process can be pointed at others by configuration. */
public final class Topics {

    /** LifecycleEvents, keyed by node (pool for pool events). */
    public static final String LIFECYCLE = "mcdhooks.lifecycle.v1";
    /** GateRequests: what hooks subscribe to. */
    public static final String GATE_REQUESTS = "mcdhooks.gate-requests.v1";
    /** Verdicts from hooks. */
    public static final String VERDICTS = "mcdhooks.verdicts.v1";
    /** GateDecisions from the gatekeeper. */
    public static final String GATE_DECISIONS = "mcdhooks.gate-decisions.v1";
    /** Records no consumer could accept, with error headers. */
    public static final String DEAD_LETTER = "mcdhooks.dead-letter.v1";
    /**
     * The bridge's own: the MachineConfigs each rendered config was made from, compacted, keyed by
     * cluster, pool and rendered config. Holds administrators' MachineConfigs: no hook reads it.
     */
    public static final String CONFIG_SNAPSHOTS = "mcdhooks.config-snapshots.v1";

    private Topics() {}

    /**
     * The consumer group of a hook. One group per hook, so each hook sees every request and its
     * lag can be told apart; node-local runners add their node, since each reads one partition.
     */
    public static String hookGroup(String hook) {
        return "mcdhooks.hook." + hook;
    }

    public static String nodeLocalHookGroup(String hook, String node) {
        return hookGroup(hook) + "." + node;
    }
}
