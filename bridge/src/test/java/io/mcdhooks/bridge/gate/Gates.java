package io.mcdhooks.bridge.gate;

import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateDecision.Mode;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/** Requests, hooks and verdicts for gate tests. */
final class Gates {

    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    static final String TARGET = "rendered-worker-2222";

    private Gates() {}

    static GateRequest request(Stage stage, int attempt) {
        GateRequest.NodeFacts node = stage.perNode()
                ? new GateRequest.NodeFacts("worker-0", "zone-a", Map.of("node-role.kubernetes.io/worker", ""))
                : null;
        return new GateRequest(
                "c1",
                GateId.of("c1", stage, stage.perNode() ? "worker-0" : "worker", TARGET),
                attempt,
                stage,
                new GateRequest.PoolFacts("worker", "1", 3),
                node,
                "rendered-worker-1111",
                TARGET,
                new GateRequest.TargetFacts("quay.io/os@sha256:01", "default", null, null, null),
                T0,
                T0.plus(Duration.ofMinutes(30)));
    }

    static RegisteredHook hook(String name, Stage stage) {
        return new RegisteredHook(
                name,
                Set.of(stage),
                Set.of(),
                Map.of(),
                Duration.ofMinutes(10),
                Duration.ofMinutes(20),
                FailurePolicy.Fail,
                Mode.Enforcing,
                RegisteredHook.PostUpdateFailure.Hold,
                false);
    }

    static RegisteredHook hook(String name, Stage stage, FailurePolicy policy, Mode mode) {
        return new RegisteredHook(
                name,
                Set.of(stage),
                Set.of(),
                Map.of(),
                Duration.ofMinutes(10),
                Duration.ofMinutes(20),
                policy,
                mode,
                RegisteredHook.PostUpdateFailure.Hold,
                false);
    }

    static Verdict verdict(GateRequest request, String hook, Outcome outcome, Instant at) {
        return Verdict.answering(request, hook, outcome, outcome == Outcome.PASS ? "Fine" : "NotYet", null, null, at);
    }
}
