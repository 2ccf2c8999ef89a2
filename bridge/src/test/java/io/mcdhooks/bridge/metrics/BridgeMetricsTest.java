package io.mcdhooks.bridge.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.bridge.GateFixture;
import io.mcdhooks.bridge.gate.PostUpdateHold;
import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateDecision.Mode;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The gauges alerts are written on: gates still closed and their age, hooks waited on, the leader, node phases. */
class BridgeMetricsTest {

    private final BridgeMetrics metrics = BridgeMetrics.create();

    @Test
    void aStandbySaysItDoesNotLeadAndALeaderSaysItDoes() {
        assertThat(metrics.scrape()).contains("mcdhooks_leader 0.0");

        metrics.leading(true);

        assertThat(metrics.scrape()).contains("mcdhooks_leader 1.0");
    }

    @Test
    void gatesNotReleasedAreCountedByDecisionWithTheAgeOfTheOldestPerStageAndPool() {
        // Given a pre-update gate blocked by a failing hook, and a post-update gate opened 4 minutes
        // later still waiting on a silent hook, while an advisory hook stays silent too
        GateFixture f = new GateFixture()
                .hook("kmod-check", FailurePolicy.Fail, Stage.PRE_UPDATE)
                .hook("node-selfcheck", FailurePolicy.Fail, Stage.POST_UPDATE)
                .hook("cmdb-sync", FailurePolicy.Ignore, Mode.Advisory, Stage.POST_UPDATE);
        GateRequest pre = f.open(Stage.PRE_UPDATE, "worker", "worker-0");
        f.answer(pre, "kmod-check", Outcome.FAIL, "ModulesMissing");
        f.pass(Duration.ofMinutes(4));
        f.open(Stage.POST_UPDATE, "worker", "worker-1");
        f.pass(Duration.ofSeconds(90));

        // When the gauges are set from the gates
        metrics.gates(f.gates(), f.now());
        String scrape = metrics.scrape();

        // Then each shows in its series
        assertThat(scrape)
                .contains("mcdhooks_gates_open{decision=\"BLOCKED\",pool=\"worker\",stage=\"pre-update\"} 1.0")
                .contains("mcdhooks_gates_open{decision=\"OPENED\",pool=\"worker\",stage=\"post-update\"} 1.0")
                .contains("mcdhooks_gate_oldest_open_seconds{pool=\"worker\",stage=\"pre-update\"} 330.0")
                .contains("mcdhooks_gate_oldest_open_seconds{pool=\"worker\",stage=\"post-update\"} 90.0")
                .contains("mcdhooks_hook_gates_waiting{hook=\"node-selfcheck\"} 1.0")
                .doesNotContain("mcdhooks_hook_gates_waiting{hook=\"kmod-check\"}")
                .doesNotContain("mcdhooks_hook_gates_waiting{hook=\"cmdb-sync\"}");
    }

    @Test
    void theHoldModeInForceReadsOneAndTheOthersZero() {
        metrics.holdMode(List.of("worker"), PostUpdateHold.BATCH_PACING);

        assertThat(metrics.scrape())
                .contains("mcdhooks_post_update_hold_mode{mode=\"BatchPacing\",pool=\"worker\"} 1.0")
                .contains("mcdhooks_post_update_hold_mode{mode=\"Admission\",pool=\"worker\"} 0.0");
    }

    @Test
    void aHoldNoLongerNearALimitHasNoSeriesRatherThanZeroLeft() {
        metrics.holdLimits(Map.of("worker", Map.of("uncordon", Duration.ofSeconds(150))));
        assertThat(metrics.scrape())
                .contains("mcdhooks_hold_limit_left_seconds{limit=\"uncordon\",pool=\"worker\"} 150.0");

        // the node released: 0 left would read "at the limit now"
        metrics.holdLimits(Map.of());

        assertThat(metrics.scrape()).doesNotContain("mcdhooks_hold_limit_left_seconds{");
    }

    @Test
    void aGateReleasedLeavesItsSeriesAtZeroRatherThanGone() {
        // Given a post-update gate counted while it waits
        GateFixture f = new GateFixture().hook("node-selfcheck", FailurePolicy.Fail, Stage.POST_UPDATE);
        GateRequest post = f.open(Stage.POST_UPDATE, "worker", "worker-1");
        f.pass(Duration.ofMinutes(2));
        metrics.gates(f.gates(), f.now());

        // When it passes
        f.answer(post, "node-selfcheck", Outcome.PASS, "Healthy");
        metrics.gates(f.gates(), f.now());

        // Then its series read 0
        assertThat(metrics.scrape())
                .contains("mcdhooks_gates_open{decision=\"OPENED\",pool=\"worker\",stage=\"post-update\"} 0.0")
                .contains("mcdhooks_gate_oldest_open_seconds{pool=\"worker\",stage=\"post-update\"} 0.0")
                .contains("mcdhooks_hook_gates_waiting{hook=\"node-selfcheck\"} 0.0");
    }

    @Test
    void aHookTimedOutUnderFailStillCountsAsWaitedOnUnderIgnoreItDoesNot() {
        // Given two hooks on one gate that never answer, one Fail and one Ignore
        GateFixture f = new GateFixture()
                .hook("strict", FailurePolicy.Fail, Stage.POST_UPDATE)
                .hook("lenient", FailurePolicy.Ignore, Stage.POST_UPDATE);
        f.open(Stage.POST_UPDATE, "worker", "worker-2");

        // When both time out
        f.pass(Duration.ofMinutes(11));
        metrics.gates(f.gates(), f.now());

        // Then the gate is closed by its timeout, and only the Fail hook can still release it
        assertThat(metrics.scrape())
                .contains("mcdhooks_gates_open{decision=\"TIMED_OUT\",pool=\"worker\",stage=\"post-update\"} 1.0")
                .contains("mcdhooks_hook_gates_waiting{hook=\"strict\"} 1.0")
                .doesNotContain("mcdhooks_hook_gates_waiting{hook=\"lenient\"}");
    }

    @Test
    void nodesAreCountedByPoolAndPhaseAndAPhaseLeftReadsZero() {
        metrics.nodePhases(Map.of("worker", Map.of("DRAINING", 1L, "WAITING", 2L)));
        metrics.nodePhases(Map.of("worker", Map.of("DONE", 1L, "WAITING", 2L)));

        assertThat(metrics.scrape())
                .contains("mcdhooks_nodes{phase=\"DONE\",pool=\"worker\"} 1.0")
                .contains("mcdhooks_nodes{phase=\"WAITING\",pool=\"worker\"} 2.0")
                .contains("mcdhooks_nodes{phase=\"DRAINING\",pool=\"worker\"} 0.0");
    }
}
