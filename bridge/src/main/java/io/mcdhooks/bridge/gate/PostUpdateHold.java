package io.mcdhooks.bridge.gate;

/**
 * How this cluster holds a node after its update, before its post-update gate is released: decided
 * by the cluster's topology and whether the admission policy {@code mcdhooks-post-update-hold} is
 * installed with a Deny binding. Shown in hook statuses, Events and the metric
 * {@code mcdhooks_post_update_hold_mode}.
 */
public enum PostUpdateHold {
    /**
     * kube-apiserver keeps a held node cordoned: the hold marker is set when the node is assigned
     * the update, the drain controller's uncordon is refused until release, so the node counts as
     * unavailable from its drain to its release even while no gatekeeper runs. Pools roll as the
     * MCC assigns them; a change that needs no drain is cordoned once it is Done instead.
     */
    ADMISSION(
            "Admission",
            "enforced by kube-apiserver (admission policy mcdhooks-post-update-hold): the node stays"
                    + " cordoned from its drain to its release; pools are not paused"),
    /**
     * No policy: the gatekeeper re-cordons the node after the MCD's uncordon, and pools with
     * post-update hooks stay paused while an assigned node's gate is open, so a node uncordoned
     * while no gatekeeper runs cannot let the MCC take more than maxUnavailable. The master pool is
     * never paused (the ClusterOperator would turn Degraded): held masters are only tainted.
     */
    BATCH_PACING(
            "BatchPacing",
            "enforced by the gatekeeper alone: the admission policy mcdhooks-post-update-hold is"
                    + " not installed and bound, so pools with post-update hooks update in batches of maxUnavailable"),
    /**
     * Single-node cluster: after the reboot the node's own platform pods (the MCC with its drain
     * controller, this bridge) must be scheduled on it again, so no taint, cordon or marker is set;
     * the gate is requested and its verdict recorded and shown, but it holds nothing.
     */
    SINGLE_NODE(
            "SingleNodeAdvisory",
            "advisory on a single-node cluster: a taint or cordon would keep the node's own"
                    + " platform pods (the MCC, the bridge) off it after the reboot, so the gate holds nothing");

    private final String label;
    private final String description;

    PostUpdateHold(String label, String description) {
        this.label = label;
        this.description = description;
    }

    public static PostUpdateHold of(boolean singleNode, boolean policyBound) {
        return singleNode ? SINGLE_NODE : policyBound ? ADMISSION : BATCH_PACING;
    }

    /** The name in statuses and metrics. */
    public String label() {
        return label;
    }

    /** What is enforced, in a sentence for statuses and Events. */
    public String description() {
        return description;
    }
}
