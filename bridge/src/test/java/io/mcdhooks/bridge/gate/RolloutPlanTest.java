package io.mcdhooks.bridge.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What mcdhooks plan says of a pending rollout: classes, order, levers, advisory gates. */
class RolloutPlanTest {

    private static final String OLD = "rendered-x-1";
    private static final String NEW = "rendered-x-2";
    private static final GateRequest.Disruption NONE =
            new GateRequest.Disruption("none", false, false, List.of(new GateRequest.Action("None", null)));
    private static final GateRequest.Disruption REBOOT =
            new GateRequest.Disruption("reboot", true, true, List.of(new GateRequest.Action("Reboot", null)));
    private static final List<RegisteredHook> HOOKS = List.of(
            Gates.hook("kmod-check", Stage.POOL_PRE_UPDATE),
            Gates.hook("node-precheck", Stage.PRE_UPDATE),
            Gates.hook("node-check", Stage.POST_UPDATE));

    @Test
    void aRebootlessWorkerChangeIsHeldByThePauseNodeByNodeInTheMccsOrder() {
        RolloutPlan plan = RolloutPlan.of(
                pool("worker", "2"),
                List.of(node("w-b", "b", 1), node("w-a2", "a", 3), node("w-a1", "a", 2), node("w-none", null, 0)),
                HOOKS,
                (from, to) -> NONE,
                null);

        assertThat(plan.pending()).isTrue();
        assertThat(plan.batch()).isEqualTo(2);
        assertThat(plan.nodes())
                .extracting(RolloutPlan.NodeStep::node)
                .containsExactly("w-a1", "w-a2", "w-b", "w-none");
        assertThat(plan.nodes()).allSatisfy(s -> {
            assertThat(s.disruption()).isEqualTo("none");
            assertThat(s.preUpdate()).isEqualTo("the pool stays paused until it passes");
            assertThat(s.postUpdate()).isEqualTo("taint and cordon until released");
        });
        assertThat(plan.stages()).extracting(RolloutPlan.StageGate::advisory).containsOnlyNulls();
    }

    @Test
    void onTheMasterPoolTheGatesBeforeTheUpdateAreAdvisoryUnlessTheChangeDrains() {
        var masters = List.of(node("m0", "a", 0), node("m1", "b", 0), node("m2", "c", 0));

        RolloutPlan rebootless = RolloutPlan.of(pool("master", "1"), masters, HOOKS, (f, t) -> NONE, "m0");
        RolloutPlan reboot = RolloutPlan.of(pool("master", "1"), masters, HOOKS, (f, t) -> REBOOT, "m0");

        // the operator's node last; pool-pre-update advisory either way
        assertThat(rebootless.nodes()).extracting(RolloutPlan.NodeStep::node).containsExactly("m1", "m2", "m0");
        assertThat(rebootless.stages())
                .filteredOn(s -> s.stage() == Stage.POOL_PRE_UPDATE)
                .singleElement()
                .satisfies(s -> assertThat(s.advisory()).contains("ClusterOperator Degraded"));
        assertThat(rebootless.nodes()).allSatisfy(s -> assertThat(s.preUpdate()).isEqualTo("advisory"));
        assertThat(reboot.nodes())
                .allSatisfy(s -> assertThat(s.preUpdate()).isEqualTo("gate pod: the drain cannot finish"));
    }

    @Test
    void aPoolAtRestHasNothingPending() {
        PoolView atRest =
                new PoolView("worker", "u", "1", 1, OLD, OLD, true, "1", 1, 1, 0, Map.of(), Map.of(), null, Map.of());

        assertThat(RolloutPlan.of(atRest, List.of(), HOOKS, (f, t) -> null, null)
                        .pending())
                .isFalse();
        assertThat(PoolView.batch("10%", 5)).isEqualTo(1);
        assertThat(PoolView.batch("50%", 10)).isEqualTo(5);
    }

    @Test
    void aPoolGoingBackToTheConfigItReportsHasItsNodesOnTheRevertedConfigPending() {
        // the pool rolled two of four nodes to NEW; its MachineConfigs were put back, so it targets OLD again
        PoolView goingBack = Gates.goingBack(OLD, 4, 2);
        NodeView back = node("w-0", "a", 1);
        NodeView out = new NodeView(
                "w-1",
                "w-1",
                "1",
                Instant.ofEpochSecond(2),
                Map.of(McoApi.ZONE_LABEL, "a"),
                Map.of(McoApi.CURRENT_CONFIG, NEW, McoApi.DESIRED_CONFIG, NEW, McoApi.STATE, McoApi.STATE_DONE),
                false,
                true,
                false,
                null);

        RolloutPlan plan = RolloutPlan.of(goingBack, List.of(back, out), HOOKS, (f, t) -> REBOOT, null);

        assertThat(plan.pending()).isTrue();
        assertThat(plan.reverting()).isTrue();
        assertThat(plan.nodes()).extracting(RolloutPlan.NodeStep::node).containsExactly("w-1");
        assertThat(plan.done()).containsExactly("w-0");
        assertThat(plan.stages())
                .filteredOn(s -> s.stage() == Stage.POOL_PRE_UPDATE)
                .singleElement()
                .satisfies(s -> assertThat(s.advisory()).startsWith("not asked: the pool goes back to " + OLD));
    }

    private static PoolView pool(String name, String maxUnavailable) {
        return new PoolView(
                name, "u", "1", 1, NEW, OLD, true, maxUnavailable, 4, 0, 0, Map.of(), Map.of(), null, Map.of());
    }

    private static NodeView node(String name, String zone, int age) {
        Map<String, String> labels = zone == null ? Map.of() : Map.of(McoApi.ZONE_LABEL, zone);
        return new NodeView(
                name,
                name,
                "1",
                Instant.ofEpochSecond(age),
                labels,
                Map.of(McoApi.CURRENT_CONFIG, OLD, McoApi.DESIRED_CONFIG, OLD, McoApi.STATE, McoApi.STATE_DONE),
                false,
                true,
                false,
                null);
    }
}
