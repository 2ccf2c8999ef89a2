package io.mcdhooks.bridge.mco;

/**
 * The Machine Config Operator's API as the bridge reads it: group, kinds, annotation keys and
 * values. The bridge only reads these; the MCD and the drain controller own them.
 */
public final class McoApi {

    public static final String GROUP = "machineconfiguration.openshift.io";
    public static final String V1 = GROUP + "/v1";
    public static final String V1ALPHA1 = GROUP + "/v1alpha1";
    public static final String POOL_KIND = "MachineConfigPool";
    public static final String CONFIG_KIND = "MachineConfig";
    public static final String MCN_KIND = "MachineConfigNode";
    /** {@code operator.openshift.io/v1 MachineConfiguration}, one named {@link #CLUSTER}: the node disruption policy. */
    public static final String OPERATOR_GROUP = "operator.openshift.io";

    public static final String MACHINE_CONFIGURATION_KIND = "MachineConfiguration";
    public static final String CLUSTER = "cluster";

    private static final String PREFIX = GROUP + "/";
    public static final String CURRENT_CONFIG = PREFIX + "currentConfig";
    public static final String DESIRED_CONFIG = PREFIX + "desiredConfig";
    public static final String CURRENT_IMAGE = PREFIX + "currentImage";
    public static final String DESIRED_IMAGE = PREFIX + "desiredImage";
    public static final String STATE = PREFIX + "state";
    public static final String REASON = PREFIX + "reason";
    public static final String DESIRED_DRAIN = PREFIX + "desiredDrain";
    public static final String LAST_APPLIED_DRAIN = PREFIX + "lastAppliedDrain";
    public static final String POST_CONFIG_ACTION = PREFIX + "post-config-action";

    public static final String STATE_DONE = "Done";
    public static final String STATE_WORKING = "Working";
    public static final String STATE_DEGRADED = "Degraded";
    public static final String STATE_UNRECONCILABLE = "Unreconcilable";
    public static final String POST_CONFIG_REBOOTING = "Rebooting";

    /** {@code desiredDrain} values are {@code drain-<rendered>} and {@code uncordon-<rendered>}. */
    public static final String DRAIN_PREFIX = "drain-";

    public static final String UNCORDON_PREFIX = "uncordon-";

    public static final String ZONE_LABEL = "topology.kubernetes.io/zone";
    /** Rendered configs are named {@code rendered-<pool>-<hash>}. */
    public static final String RENDERED_PREFIX = "rendered-";

    /**
     * The pool the MCO requires for upgrades (label
     * {@code operator.machineconfiguration.openshift.io/required-for-upgrade}, which the MCO puts on
     * {@code master} alone): paused with a pending update, it turns the ClusterOperator Degraded.
     */
    public static final String MASTER_POOL = "master";

    private McoApi() {}

    /** Whether {@code pool} is the pool the MCO requires for upgrades, see {@link #MASTER_POOL}. */
    public static boolean requiredPool(String pool) {
        return MASTER_POOL.equals(pool);
    }

    /** The pool a rendered config belongs to, from its name; {@code null} when not of that form. */
    public static String poolOfRenderedConfig(String rendered) {
        if (rendered == null || !rendered.startsWith(RENDERED_PREFIX)) {
            return null;
        }
        int hash = rendered.lastIndexOf('-');
        return hash <= RENDERED_PREFIX.length() ? null : rendered.substring(RENDERED_PREFIX.length(), hash);
    }
}
