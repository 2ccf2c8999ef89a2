package io.mcdhooks.sandbox.mco;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The status of one MachineConfigNode (v1), changed as the MCO's
 * {@code GenerateAndApplyMachineConfigNodes} ({@code pkg/upgrademonitor/upgrade_monitor.go}) does
 * for clusters without the ImageModeStatusReporting feature: every write names a parent condition
 * and optionally a child ({@code Drained}, {@code Cordoned}, … whose reason is parent + child, e.g.
 * {@code UpdateExecutedDrained}).
 *
 * <ul>
 *   <li>The first write creates every condition type, those not written {@code False} /
 *       {@code NotYetOccurred}.
 *   <li>A write whose parent has the same status, reason and message as before changes nothing.
 *   <li>A write of another parent while {@code Updated=True} turns {@code Updated} False ("sensed
 *       disruption").
 *   <li>A write of {@code Updated} turns every other non-False condition False, its message
 *       prefixed "Action during update to &lt;desired&gt;: ".
 *   <li>{@code configVersion.desired} is the node's {@code desiredConfig} unless the parent is an
 *       {@code UpdatePrepared} that is not True ({@code NotYetSet}); {@code current} is its
 *       {@code currentConfig}.
 * </ul>
 *
 * Not thread-safe: its owner serialises access per node.
 */
final class MachineConfigNodeStatus {

    /** The v1 condition types without ImageModeStatusReporting, in the MCO's order. */
    static final List<String> TYPES = List.of(
            "UpdatePrepared",
            "UpdateExecuted",
            "UpdatePostActionComplete",
            "UpdateComplete",
            "Resumed",
            "Drained",
            "AppliedFilesAndOS",
            "Cordoned",
            "RebootedNode",
            "Updated",
            "Uncordoned",
            "NodeDegraded",
            "PinnedImageSetsDegraded",
            "PinnedImageSetsProgressing");

    static final String NOT_YET_SET = "NotYetSet";
    private static final List<String> SINGLETONS = List.of("PinnedImageSetsDegraded", "PinnedImageSetsProgressing");

    /** One condition to write. */
    record Condition(String type, String status, String reason, String message) {
        Condition {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(status, "status");
        }
    }

    private final List<Map<String, Object>> conditions = new ArrayList<>();
    private String desired = NOT_YET_SET;
    private String current = "";

    /** Applies one write; false when the MCO would not have written anything. */
    boolean apply(
            Condition parent,
            Condition child,
            String nodeDesired,
            String nodeCurrent,
            String specDesired,
            Instant now) {
        if (conditions.isEmpty()) {
            conditions.add(condition(parent, now));
            if (child != null) {
                conditions.add(condition(child, now));
            }
            for (String type : TYPES) {
                if (!type.equals(parent.type()) && (child == null || !type.equals(child.type()))) {
                    conditions.add(condition(
                            new Condition(
                                    type,
                                    "False",
                                    "NotYetOccurred",
                                    "This node has not yet entered the " + type + " phase"),
                            now));
                }
            }
        } else {
            boolean reset = "Updated".equals(parent.type());
            boolean foundParent = false;
            boolean foundChild = false;
            for (int i = 0; i < conditions.size(); i++) {
                Map<String, Object> c = conditions.get(i);
                String type = (String) c.get("type");
                if ("Updated".equals(type) && "True".equals(c.get("status")) && !"Updated".equals(parent.type())) {
                    conditions.set(
                            i,
                            condition(
                                    new Condition(
                                            "Updated",
                                            "False",
                                            "Updated",
                                            "This node is not updated, sensed disruption via a manual update."),
                                    now));
                } else if (child != null && type.equals(child.type())) {
                    foundChild = true;
                    conditions.set(i, condition(child, now));
                } else if (type.equals(parent.type())) {
                    foundParent = true;
                    if (same(c, parent) && !SINGLETONS.contains(type)) {
                        return false;
                    }
                    conditions.set(i, condition(parent, now));
                } else if (reset && !"False".equals(c.get("status"))) {
                    var copy = new LinkedHashMap<>(c);
                    copy.put("status", "False");
                    copy.put("lastTransitionTime", now.toString());
                    copy.put("message", "Action during update to " + specDesired + ": " + c.get("message"));
                    conditions.set(i, copy);
                }
            }
            if (!foundChild && child != null) {
                conditions.add(condition(child, now));
            }
            if (!foundParent) {
                conditions.add(condition(parent, now));
            }
        }
        boolean prepared = "UpdatePrepared".equals(parent.type());
        if ((prepared && "True".equals(parent.status())) || (!prepared && !nodeDesired.isEmpty())) {
            desired = nodeDesired;
        } else {
            desired = NOT_YET_SET;
        }
        if (!nodeCurrent.isEmpty()) {
            current = nodeCurrent;
        }
        return true;
    }

    String status(String type) {
        for (Map<String, Object> c : conditions) {
            if (type.equals(c.get("type"))) {
                return (String) c.get("status");
            }
        }
        return null;
    }

    /** The {@code status} object to write. */
    Map<String, Object> toStatus() {
        var status = new LinkedHashMap<String, Object>();
        status.put("conditions", new ArrayList<>(conditions));
        status.put("observedGeneration", 1);
        var version = new LinkedHashMap<String, Object>();
        version.put("desired", desired);
        if (!current.isEmpty()) {
            version.put("current", current);
        }
        status.put("configVersion", version);
        return status;
    }

    private static boolean same(Map<String, Object> c, Condition parent) {
        return parent.status().equals(c.get("status"))
                && Objects.equals(parent.reason(), c.get("reason"))
                && Objects.equals(parent.message(), c.get("message"));
    }

    private static Map<String, Object> condition(Condition c, Instant now) {
        var out = new LinkedHashMap<String, Object>();
        out.put("type", c.type());
        out.put("status", c.status());
        out.put("reason", c.reason());
        out.put("message", c.message());
        out.put("lastTransitionTime", now.toString());
        return out;
    }
}
