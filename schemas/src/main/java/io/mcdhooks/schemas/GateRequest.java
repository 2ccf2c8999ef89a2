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
        Instant deadline)
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

    /** Facts of the target rendered MachineConfig; {@code image} only for image-mode pools. */
    public record TargetFacts(
            String osImageURL, String kernelType, List<String> extensions, List<String> kernelArguments, String image) {
        public TargetFacts {
            extensions = Require.list(extensions);
            kernelArguments = Require.list(kernelArguments);
        }
    }
}
