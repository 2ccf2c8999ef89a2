package io.mcdhooks.schemas;

import java.time.Instant;

/**
 * What a hook says about one gate and attempt. It echoes the request's identity (gate, attempt,
 * stage, pool, node, target config) so that the gatekeeper can tell a stale verdict at once.
 *
 * @param reason            machine-readable, low-cardinality, UpperCamelCase
 * @param message           for humans
 * @param retryAfterSeconds FAIL: when the hook checks again; PENDING: when its next heartbeat comes
 */
public record Verdict(
        String cluster,
        String gateId,
        int attempt,
        String hook,
        Stage stage,
        String pool,
        String node,
        String targetConfig,
        Outcome outcome,
        String reason,
        String message,
        Integer retryAfterSeconds,
        Instant producedAt)
        implements Message {

    private static final String KIND = "Verdict";

    public Verdict {
        Require.text(cluster, KIND, "cluster");
        Require.text(gateId, KIND, "gateId");
        Require.attempt(attempt, KIND);
        Require.text(hook, KIND, "hook");
        Require.present(stage, KIND, "stage");
        Require.text(pool, KIND, "pool");
        Require.text(targetConfig, KIND, "targetConfig");
        Require.present(outcome, KIND, "outcome");
        Require.text(reason, KIND, "reason");
        Require.present(producedAt, KIND, "producedAt");
        if (stage.perNode()) {
            Require.text(node, KIND, "node");
        }
    }

    /** A verdict answering {@code request}. */
    public static Verdict answering(
            GateRequest request,
            String hook,
            Outcome outcome,
            String reason,
            String message,
            Integer retryAfterSeconds,
            Instant producedAt) {
        return new Verdict(
                request.cluster(),
                request.gateId(),
                request.attempt(),
                hook,
                request.stage(),
                request.pool().name(),
                request.node() == null ? null : request.node().name(),
                request.targetConfig(),
                outcome,
                reason,
                message,
                retryAfterSeconds,
                producedAt);
    }

    @Override
    public String key() {
        return node != null ? node : pool;
    }

    @Override
    public MessageKind kind() {
        return MessageKind.VERDICT;
    }
}
