package io.mcdhooks.bridge;

import io.mcdhooks.bridge.gate.Gate;
import io.mcdhooks.bridge.gate.Gatekeeper;
import io.mcdhooks.bridge.gate.RegisteredHook;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateDecision.Mode;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A real {@link Gatekeeper} on a clock the test moves, for tests of what reads its gates (metrics,
 * the status page's timeline): open gates of cluster {@value #CLUSTER}, answer them, let time pass.
 */
public final class GateFixture {

    public static final String CLUSTER = "c1";
    public static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    public static final String SOURCE = "rendered-worker-1111";
    public static final String TARGET = "rendered-worker-2222";

    private final MovingClock clock = new MovingClock(T0);
    private final List<GateDecision> decisions = new ArrayList<>();
    private final Gatekeeper gatekeeper = new Gatekeeper(CLUSTER, clock, decisions::add);

    /** Registers an enforcing hook of {@code stages} with a 10-minute timeout and {@code policy}. */
    public GateFixture hook(String name, FailurePolicy policy, Stage... stages) {
        return hook(name, policy, Mode.Enforcing, stages);
    }

    public GateFixture hook(String name, FailurePolicy policy, Mode mode, Stage... stages) {
        gatekeeper.putHook(new RegisteredHook(
                name,
                Set.of(stages),
                Set.of(),
                Map.of(),
                Duration.ofMinutes(10),
                Duration.ZERO,
                policy,
                mode,
                RegisteredHook.PostUpdateFailure.Hold,
                false));
        return this;
    }

    /** Opens the gate of {@code stage} for {@code node} of {@code pool} ({@code node} null for the pool stage). */
    public GateRequest open(Stage stage, String pool, String node) {
        GateRequest request = new GateRequest(
                CLUSTER,
                GateId.of(CLUSTER, stage, node == null ? pool : node, TARGET),
                1,
                stage,
                new GateRequest.PoolFacts(pool, "1", 3),
                node == null ? null : new GateRequest.NodeFacts(node, "zone-a", Map.of()),
                SOURCE,
                TARGET,
                new GateRequest.TargetFacts("quay.io/os@sha256:01", "default", null, null, null),
                now(),
                now().plus(Duration.ofMinutes(30)));
        gatekeeper.onGateRequest(request);
        return request;
    }

    public GateFixture answer(GateRequest request, String hook, Outcome outcome, String reason) {
        gatekeeper.onVerdict(Verdict.answering(request, hook, outcome, reason, null, null, now()));
        return this;
    }

    public GateFixture pass(Duration time) {
        clock.advance(time);
        gatekeeper.tick();
        return this;
    }

    public Instant now() {
        return clock.instant();
    }

    public Gatekeeper gatekeeper() {
        return gatekeeper;
    }

    public Collection<Gate> gates() {
        return gatekeeper.gates();
    }

    /** The latest decision published for {@code gateId}. */
    public GateDecision last(String gateId) {
        return gatekeeper.gate(gateId).last();
    }
}
