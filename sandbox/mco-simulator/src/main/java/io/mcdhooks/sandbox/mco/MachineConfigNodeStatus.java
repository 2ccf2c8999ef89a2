package io.mcdhooks.sandbox.mco;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The conditions of one MachineConfigNode (v1), as the MCD and the drain controller maintain them.
 *
 * <p>Every condition exists from the start with status {@code False} and reason
 * {@code NotYetOccurred}. {@code False} = not started, {@code Unknown} = in progress (or failing,
 * see the message), {@code True} = done. When {@code Updated} turns True the phase conditions are
 * reset to False. Not thread-safe: its owner serialises access per node.
 */
final class MachineConfigNodeStatus {

    /** The v1 condition types, parents first, in the order they are listed. */
    static final List<String> TYPES = List.of(
            "UpdatePrepared",
            "UpdateExecuted",
            "UpdatePostActionComplete",
            "UpdateComplete",
            "Updated",
            "Resumed",
            "AppliedFilesAndOS",
            "Cordoned",
            "Drained",
            "RebootedNode",
            "Uncordoned",
            "NodeDegraded",
            "PinnedImageSetsDegraded",
            "PinnedImageSetsProgressing");

    private static final Set<String> SINGLETONS =
            Set.of("Updated", "NodeDegraded", "PinnedImageSetsDegraded", "PinnedImageSetsProgressing");

    private final Map<String, Map<String, Object>> conditions = new LinkedHashMap<>();
    private String desired;
    private String current;

    MachineConfigNodeStatus(String current, Instant now) {
        this.current = current;
        this.desired = current;
        for (String type : TYPES) {
            conditions.put(
                    type,
                    condition(
                            type,
                            "False",
                            "NotYetOccurred",
                            "This node has not yet entered the " + type + " phase",
                            now));
        }
        set("Updated", "True", "Updated", "Node is updated to " + current, now);
    }

    void desired(String config) {
        this.desired = config;
    }

    /** Sets one condition; lastTransitionTime moves only when the status changes. */
    void set(String type, String status, String reason, String message, Instant now) {
        Map<String, Object> old = conditions.get(type);
        Instant since = old != null && status.equals(old.get("status"))
                ? Instant.parse((String) old.get("lastTransitionTime"))
                : now;
        conditions.put(type, condition(type, status, reason, message, since));
    }

    /** The update is complete: Updated=True, the phase conditions back to False. */
    void updated(String config, Instant now) {
        this.current = config;
        this.desired = config;
        for (String type : TYPES) {
            if (!SINGLETONS.contains(type)) {
                Map<String, Object> c = conditions.get(type);
                set(type, "False", (String) c.get("reason"), (String) c.get("message"), now);
            }
        }
        set("NodeDegraded", "False", "NodeDegraded", "", now);
        set("Updated", "True", "Updated", "Node is updated to " + config, now);
    }

    String status(String type) {
        return (String) conditions.get(type).get("status");
    }

    /** The {@code status} object to write. */
    Map<String, Object> toStatus() {
        var status = new LinkedHashMap<String, Object>();
        status.put("conditions", new ArrayList<>(conditions.values()));
        status.put("observedGeneration", 1);
        status.put("configVersion", Map.of("current", current, "desired", desired));
        return status;
    }

    private static Map<String, Object> condition(
            String type, String status, String reason, String message, Instant since) {
        var c = new LinkedHashMap<String, Object>();
        c.put("type", type);
        c.put("status", status);
        c.put("reason", reason);
        c.put("message", message);
        c.put("lastTransitionTime", since.toString());
        return c;
    }
}
