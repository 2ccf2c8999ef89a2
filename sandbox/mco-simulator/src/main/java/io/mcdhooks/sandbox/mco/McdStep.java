package io.mcdhooks.sandbox.mco;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One node's update as a sequence of annotation writes, in the documented order. Both the
 * simulator (which writes them) and observers (which check the order) use this table.
 */
public enum McdStep {
    /** MCC: the node is assigned the new config. */
    ASSIGNED(Writer.MCC, Mco.DESIRED_CONFIG, "%s"),
    /** MCD: pre-flight passed, the update has started. */
    WORKING(Writer.MCD, Mco.STATE, Mco.STATE_WORKING),
    /** MCD: asks the drain controller to cordon and drain. */
    DRAIN_REQUESTED(Writer.MCD, Mco.DESIRED_DRAIN, "drain-%s"),
    /** Drain controller: cordoned and drained. */
    DRAINED(Writer.DRAIN_CONTROLLER, Mco.LAST_APPLIED_DRAIN, "drain-%s"),
    /** MCD: files and OS written, about to reboot. */
    REBOOTING(Writer.MCD, Mco.POST_CONFIG_ACTION, Mco.REBOOTING),
    /** MCD: back after the reboot. */
    RESUMED(Writer.MCD, Mco.POST_CONFIG_ACTION, ""),
    /** MCD: asks the drain controller to uncordon. */
    UNCORDON_REQUESTED(Writer.MCD, Mco.DESIRED_DRAIN, "uncordon-%s"),
    /** Drain controller: uncordoned. */
    UNCORDONED(Writer.DRAIN_CONTROLLER, Mco.LAST_APPLIED_DRAIN, "uncordon-%s"),
    /** MCD: the update is complete (also sets {@code currentConfig} and {@code reason=""}). */
    DONE(Writer.MCD, Mco.STATE, Mco.STATE_DONE);

    /** Who writes a step. */
    public enum Writer {
        MCC,
        MCD,
        DRAIN_CONTROLLER
    }

    private final Writer writer;
    private final String key;
    private final String valueFormat;

    McdStep(Writer writer, String key, String valueFormat) {
        this.writer = writer;
        this.key = key;
        this.valueFormat = valueFormat;
    }

    public Writer writer() {
        return writer;
    }

    public String key() {
        return key;
    }

    /** The value this step writes when updating to {@code config}. */
    public String value(String config) {
        return valueFormat.contains("%s") ? valueFormat.formatted(config) : valueFormat;
    }

    /** The annotations this step writes (DONE writes three in one patch). */
    public Map<String, String> annotations(String config) {
        var out = new LinkedHashMap<String, String>();
        if (this == DONE) {
            out.put(Mco.CURRENT_CONFIG, config);
            out.put(Mco.REASON, "");
        }
        out.put(key, value(config));
        return out;
    }

    /**
     * The steps a node goes through. A node that does not reboot skips REBOOTING and RESUMED; a
     * node that does not drain (a change the node disruption policy applies without one, or a
     * single-replica control plane) skips DRAIN_REQUESTED and DRAINED. The uncordon handshake
     * ({@code completeUpdate}) always happens.
     */
    public static List<McdStep> sequence(boolean reboot, boolean drain) {
        var steps = new ArrayList<McdStep>();
        for (McdStep s : values()) {
            boolean drainStep = s == DRAIN_REQUESTED || s == DRAINED;
            boolean rebootStep = s == REBOOTING || s == RESUMED;
            if ((drainStep && !drain) || (rebootStep && !reboot)) {
                continue;
            }
            steps.add(s);
        }
        return steps;
    }

    /** {@code key=value} strings of {@link #sequence}, the form an annotation recorder keeps. */
    public static List<String> expectedChanges(String config, boolean reboot, boolean drain) {
        return sequence(reboot, drain).stream()
                .map(s -> s.key() + "=" + s.value(config))
                .toList();
    }
}
