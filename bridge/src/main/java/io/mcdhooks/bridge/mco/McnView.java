package io.mcdhooks.bridge.mco;

import java.util.Map;

/**
 * A MachineConfigNode (v1, or v1alpha1 on older clusters): the node's pool, the config versions
 * and its status conditions by type.
 */
public record McnView(String pool, String desiredConfig, String currentConfig, Map<String, Condition> conditions) {

    public McnView {
        conditions = conditions == null ? Map.of() : Map.copyOf(conditions);
    }

    /** Whether {@code type} is {@code True}. */
    public boolean isTrue(String type) {
        Condition condition = conditions.get(type);
        return condition != null && "True".equals(condition.status());
    }

    /** Whether {@code type} is {@code Unknown}: in progress (or stuck: see its message). */
    public boolean isUnknown(String type) {
        Condition condition = conditions.get(type);
        return condition != null && "Unknown".equals(condition.status());
    }

    /** A status condition: status is {@code True}, {@code False} or {@code Unknown}. */
    public record Condition(String type, String status, String reason, String message) {}

    /** Condition types the MCD sets, in the order it sets them. */
    public static final String UPDATE_PREPARED = "UpdatePrepared";

    public static final String UPDATE_EXECUTED = "UpdateExecuted";
    public static final String CORDONED = "Cordoned";
    public static final String DRAINED = "Drained";
    public static final String APPLIED_FILES_AND_OS = "AppliedFilesAndOS";
    public static final String UPDATE_POST_ACTION_COMPLETE = "UpdatePostActionComplete";
    public static final String REBOOTED_NODE = "RebootedNode";
    public static final String RESUMED = "Resumed";
    public static final String UPDATE_COMPLETE = "UpdateComplete";
    public static final String UNCORDONED = "Uncordoned";
    public static final String UPDATED = "Updated";
    public static final String NODE_DEGRADED = "NodeDegraded";
}
