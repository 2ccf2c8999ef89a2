package io.mcdhooks.bridge.gate;

import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
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

/** Requests, hooks, verdicts, pools and nodes for gate tests. */
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

    /** A worker pool moving from {@code current} to {@code target}, with {@code annotations}. */
    static PoolView pool(String name, String target, String current, Map<String, String> annotations) {
        return new PoolView(
                name,
                "uid-" + name,
                "1",
                1,
                target,
                current,
                false,
                "1",
                3,
                0,
                0,
                Map.of(),
                Map.of(),
                null,
                annotations);
    }

    /**
     * A worker pool going back to the config it still reports (its change reverted or rolled back):
     * {@code updated} of its {@code machines} nodes on it, not Updated.
     */
    static PoolView goingBack(String config, int machines, int updated) {
        return new PoolView(
                "worker",
                "uid-worker",
                "1",
                1,
                config,
                config,
                false,
                "1",
                machines,
                updated,
                0,
                Map.of(),
                Map.of("Updated", "False"),
                null,
                Map.of());
    }

    /** A worker node on {@code current}, asked for {@code desired}, in MCD state {@code state}. */
    /** {@code n} with these annotations, carrying the gatekeeper's taint or not. */
    static NodeView with(NodeView n, Map<String, String> annotations, boolean gateTainted) {
        return new NodeView(
                n.name(),
                n.uid(),
                n.resourceVersion(),
                n.created(),
                n.labels(),
                annotations,
                n.unschedulable(),
                n.ready(),
                gateTainted,
                n.mcn());
    }

    static NodeView node(String name, String current, String desired, String state) {
        return new NodeView(
                name,
                name,
                "1",
                null,
                Map.of("node-role.kubernetes.io/worker", ""),
                Map.of(McoApi.CURRENT_CONFIG, current, McoApi.DESIRED_CONFIG, desired, McoApi.STATE, state),
                false,
                true,
                false,
                null);
    }
}
