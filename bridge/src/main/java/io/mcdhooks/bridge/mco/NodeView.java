package io.mcdhooks.bridge.mco;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * What the bridge needs of a Node, as plain data: its MCO annotations, whether it is cordoned
 * and Ready, its labels, and its MachineConfigNode where the cluster serves one.
 *
 * @param created its {@code metadata.creationTimestamp}, or null: the MCC takes older nodes first
 * @param gateTainted whether it carries the gatekeeper's {@link #POST_UPDATE_TAINT}: a hold only a
 *     released post-update gate lifts
 * @param mcn the node's MachineConfigNode, or {@code null} (older clusters, or none yet)
 */
public record NodeView(
        String name,
        String uid,
        String resourceVersion,
        Instant created,
        Map<String, String> labels,
        Map<String, String> annotations,
        boolean unschedulable,
        boolean ready,
        boolean gateTainted,
        McnView mcn) {

    /** The taint that keeps workloads off a node whose post-update gate is not released. */
    public static final String POST_UPDATE_TAINT = "mcdhooks.io/post-update-gate";
    /** The annotation naming the post-update gate whose hold kube-apiserver enforces. */
    public static final String HOLD = "mcdhooks.io/hold";

    public NodeView {
        Objects.requireNonNull(name, "name");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }

    public NodeView withMcn(McnView machineConfigNode) {
        return new NodeView(
                name,
                uid,
                resourceVersion,
                created,
                labels,
                annotations,
                unschedulable,
                ready,
                gateTainted,
                machineConfigNode);
    }

    /**
     * Whether the gatekeeper's taint stands for an update the node made: tainted, and not marked
     * for a config other than the one it is on. A node marked ahead of an assignment that never came
     * (the lookahead's early hold, and then its pool went back to the config the node is on) is held
     * for nothing it did: taken for one that finished, it would be cordoned beside the node that
     * failed and asked a late gate.
     */
    public boolean heldForUpdate() {
        if (!gateTainted) {
            return false;
        }
        String marker = annotations.get(HOLD);
        String current = currentConfig();
        return marker == null || current == null || marker.endsWith("/" + current);
    }

    /** Whether the MCO manages this node at all: a node without its annotations is not ours to watch. */
    public boolean managed() {
        return desiredConfig() != null || currentConfig() != null;
    }

    public String currentConfig() {
        return nonBlank(annotations.get(McoApi.CURRENT_CONFIG));
    }

    public String desiredConfig() {
        return nonBlank(annotations.get(McoApi.DESIRED_CONFIG));
    }

    public String currentImage() {
        return nonBlank(annotations.get(McoApi.CURRENT_IMAGE));
    }

    public String desiredImage() {
        return nonBlank(annotations.get(McoApi.DESIRED_IMAGE));
    }

    /** The MCD state as written, unknown values included; {@code null} when absent. */
    public String state() {
        return nonBlank(annotations.get(McoApi.STATE));
    }

    public String reason() {
        String reason = annotations.get(McoApi.REASON);
        return reason == null ? "" : reason;
    }

    public String desiredDrain() {
        return nonBlank(annotations.get(McoApi.DESIRED_DRAIN));
    }

    public String lastAppliedDrain() {
        return nonBlank(annotations.get(McoApi.LAST_APPLIED_DRAIN));
    }

    public boolean rebooting() {
        return McoApi.POST_CONFIG_REBOOTING.equals(annotations.get(McoApi.POST_CONFIG_ACTION));
    }

    public boolean degraded() {
        String state = state();
        return McoApi.STATE_DEGRADED.equals(state) || McoApi.STATE_UNRECONCILABLE.equals(state);
    }

    /**
     * Whether an update is assigned and not finished: the desired config (or, in image mode, the
     * desired image) differs from what the node runs.
     */
    public boolean updating() {
        if (desiredConfig() != null && !desiredConfig().equals(currentConfig())) {
            return true;
        }
        return desiredImage() != null && !desiredImage().equals(currentImage());
    }

    /** Current equals desired, and the MCD says Done. */
    public boolean done() {
        return !updating() && McoApi.STATE_DONE.equals(state());
    }

    /** The identity of what the node moves to: the desired config, with the image in image mode. */
    public String target() {
        String config = desiredConfig();
        String image = desiredImage();
        if (image == null) {
            return config;
        }
        return config == null ? image : config + "@" + image;
    }

    public String zone() {
        return labels.get(McoApi.ZONE_LABEL);
    }

    private static String nonBlank(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
