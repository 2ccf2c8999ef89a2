package io.mcdhooks.schemas;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A gate is open and waits for verdicts. Carries what a hook needs to decide without the
 * Kubernetes API.
 *
 * @param cluster       the cluster of the node or pool
 * @param gateId        the gate, see {@link GateId}
 * @param attempt       increases each time the same gate is requested anew
 * @param stage         when in the update the gate holds
 * @param pool          the pool and its disruption budget
 * @param node          the node, for {@link Stage#PRE_UPDATE} and {@link Stage#POST_UPDATE}
 * @param currentConfig the rendered config the node or pool runs now
 * @param targetConfig  the rendered config it moves to
 * @param target        facts of the target rendered config
 * @param requestedAt   when the gate opened
 * @param deadline      by then every hook gating this stage has had its whole time (timeout plus heartbeat extension), and at least the bridge's MCDHOOKS_GATE_TIMEOUT has passed
 * @param disruption    how the MCD will apply this change to the node (or to the pool's nodes), by the cluster's node disruption policy; null where the bridge could not tell
 * @param late          true for a post-update gate of a node found already on its target (the bridge was not watching when it got there): null otherwise
 */
public record GateRequest(
        String cluster,
        String gateId,
        int attempt,
        Stage stage,
        PoolFacts pool,
        NodeFacts node,
        String currentConfig,
        String targetConfig,
        TargetFacts target,
        Instant requestedAt,
        Instant deadline,
        Disruption disruption,
        Boolean late)
        implements Message {

    private static final String KIND = "GateRequest";

    public GateRequest {
        Require.text(cluster, KIND, "cluster");
        Require.text(gateId, KIND, "gateId");
        Require.attempt(attempt, KIND);
        Require.present(stage, KIND, "stage");
        Require.present(pool, KIND, "pool");
        Require.text(targetConfig, KIND, "targetConfig");
        Require.present(target, KIND, "target");
        Require.present(requestedAt, KIND, "requestedAt");
        Require.present(deadline, KIND, "deadline");
        if (stage.perNode()) {
            Require.present(node, KIND, "node");
        }
    }

    /** A request without a disruption class and not late: what v1 carried before they were added. */
    public GateRequest(
            String cluster,
            String gateId,
            int attempt,
            Stage stage,
            PoolFacts pool,
            NodeFacts node,
            String currentConfig,
            String targetConfig,
            TargetFacts target,
            Instant requestedAt,
            Instant deadline) {
        this(
                cluster,
                gateId,
                attempt,
                stage,
                pool,
                node,
                currentConfig,
                targetConfig,
                target,
                requestedAt,
                deadline,
                null,
                null);
    }

    /** This request with its disruption class. */
    public GateRequest withDisruption(Disruption disruption) {
        return new GateRequest(
                cluster,
                gateId,
                attempt,
                stage,
                pool,
                node,
                currentConfig,
                targetConfig,
                target,
                requestedAt,
                deadline,
                disruption,
                late);
    }

    /** This request marked late (or not). */
    public GateRequest withLate(boolean late) {
        return new GateRequest(
                cluster,
                gateId,
                attempt,
                stage,
                pool,
                node,
                currentConfig,
                targetConfig,
                target,
                requestedAt,
                deadline,
                disruption,
                late ? Boolean.TRUE : null);
    }

    /** Whether the gate is for a node that reached its target before the bridge saw it. */
    public boolean lateGate() {
        return Boolean.TRUE.equals(late);
    }

    @Override
    public String key() {
        return node != null ? node.name() : pool.name();
    }

    @Override
    public MessageKind kind() {
        return MessageKind.GATE_REQUEST;
    }

    /**
     * The pool of the node or the pool itself.
     *
     * @param maxUnavailable as written in the pool: an integer or a percentage such as "10%"
     */
    public record PoolFacts(String name, String maxUnavailable, Integer machineCount) {
        public PoolFacts {
            Require.text(name, KIND, "pool.name");
            Require.text(maxUnavailable, KIND, "pool.maxUnavailable");
        }
    }

    /** The node, its labels and zone. */
    public record NodeFacts(String name, String zone, Map<String, String> labels) {
        public NodeFacts {
            Require.text(name, KIND, "node.name");
            labels = Require.map(labels);
        }
    }

    /**
     * How the MCD applies the change, by the MCO's own rules: the node disruption actions of the
     * MachineConfig diff under {@code MachineConfiguration/cluster}'s policy, and whether they drain
     * and reboot.
     *
     * @param kind    {@code reboot}, {@code drain}, {@code services} (reloads or restarts in place) or {@code none}
     * @param actions the actions, e.g. {@code Reload crio.service}
     */
    public record Disruption(String kind, boolean drain, boolean reboot, List<Action> actions) {
        public static final List<String> KINDS = List.of("reboot", "drain", "services", "none");

        public Disruption {
            Require.text(kind, KIND, "disruption.kind");
            if (!KINDS.contains(kind)) {
                throw new IllegalArgumentException(
                        KIND + ": disruption.kind must be one of " + KINDS + ", not " + kind);
            }
            actions = Require.list(actions);
        }
    }

    /**
     * One node disruption action.
     *
     * @param type    the MCO's name: Reboot, Drain, Reload, Restart, DaemonReload, Special, None
     * @param service the unit of a Reload or Restart
     */
    public record Action(String type, String service) {
        public Action {
            Require.text(type, KIND, "disruption.actions[].type");
        }
    }

    /** Facts of the target rendered MachineConfig; {@code image} only for image-mode pools. */
    public record TargetFacts(
            String osImageURL, String kernelType, List<String> extensions, List<String> kernelArguments, String image) {
        public TargetFacts {
            extensions = Require.list(extensions);
            kernelArguments = Require.list(kernelArguments);
        }
    }
}
