package io.mcdhooks.bridge.gate;

import static io.mcdhooks.bridge.gate.Gates.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.Stage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The levers for post-update hooks: the pool pause during a rollout, the cordon through the MCD's last steps. */
class LeverPlanTest {

    private static final String OLD = "rendered-worker-1111";
    private static final String NEW = Gates.TARGET;
    private static final List<RegisteredHook> POST_ONLY = List.of(Gates.hook("node-check", Stage.POST_UPDATE));
    private final Map<String, Gate> gates = new HashMap<>();

    @Test
    void keepsThePoolPausedWhileAnAssignedNodeHasNotHadItsPostUpdateGateReleased() {
        // worker-0 has been assigned the target and updates; its post-update gate is not open yet
        assertThat(paused(node("worker-0", OLD, NEW, "Working"), node("worker-1", OLD, OLD, "Done")))
                .isTrue();

        // worker-0 is done and uncordoned by the MCD, its gate still waits: the MCC must not move on
        gates.put(postGate("worker-0"), gate(false));
        assertThat(paused(node("worker-0", NEW, NEW, "Done"), node("worker-1", OLD, OLD, "Done")))
                .isTrue();
    }

    @Test
    void hasNoSayOnceTheAssignedNodesAreReleased() {
        gates.put(postGate("worker-0"), gate(true));
        assertThat(paused(node("worker-0", NEW, NEW, "Done"), node("worker-1", OLD, OLD, "Done")))
                .isNull();
    }

    @Test
    void keepsThePoolPausedForANodeThatFinishedWhileNoGatekeeperRan() {
        // its post-update gate is yet to be requested (late) by the restarted bridge
        assertThat(paused(node("worker-0", NEW, NEW, "Done"), node("worker-1", OLD, OLD, "Done")))
                .isTrue();
    }

    @Test
    void keepsTheTaintAndCordonOfANodeThatFinishedWhileNoGatekeeperRan() {
        // Done on the target, uncordoned by the MCD, its late post-update gate not requested yet
        LeverPlan.NodeLevers levers =
                LeverPlan.node("c1", pool(OLD), node("worker-0", NEW, NEW, "Done"), POST_ONLY, gates::get);
        assertThat(levers.postUpdateTaint()).isTrue();
        assertThat(levers.cordon()).isTrue();

        // and at rest (the rollout done), a node whose gate is no longer known is left alone
        LeverPlan.NodeLevers atRest =
                LeverPlan.node("c1", pool(NEW), node("worker-0", NEW, NEW, "Done"), POST_ONLY, gates::get);
        assertThat(atRest.postUpdateTaint()).isFalse();
        assertThat(atRest.cordon()).isFalse();
    }

    @Test
    void aNodeTheGatekeeperTaintedStaysHeldAfterItsPoolCameToRestUntilItsGateIsReleased() {
        // The last node of a rollout finished while no gatekeeper ran: its pool is at rest, and the
        // gate the restarted bridge asks for is not back from Kafka yet
        NodeView last = tainted(node("worker-0", NEW, NEW, "Done"));
        for (PostUpdateHold mode : List.of(PostUpdateHold.BATCH_PACING, PostUpdateHold.ADMISSION)) {
            LeverPlan.NodeLevers held =
                    LeverPlan.node("c1", pool(NEW), last, POST_ONLY, gates::get, mode, n -> true, g -> false);
            assertThat(held.postUpdateTaint()).as(mode.name()).isTrue();
            assertThat(held.cordon()).as(mode.name()).isTrue();
            assertThat(held.hold()).as(mode.name()).isEqualTo(mode == PostUpdateHold.ADMISSION);
        }

        // and is let go once that gate is released
        gates.put(postGate("worker-0"), gate(true));
        LeverPlan.NodeLevers released = LeverPlan.node("c1", pool(NEW), last, POST_ONLY, gates::get);
        assertThat(released.postUpdateTaint()).isFalse();
        assertThat(released.cordon()).isFalse();
    }

    @Test
    void aNodeMarkedAheadOfAnAssignmentThatNeverCameIsLetGoWhenItsPoolGoesBack() {
        // worker-1 was marked and tainted for NEW before the MCC took it (its pre-update gate passed
        // early); then the pool went back to OLD, which worker-1 never left
        PoolView back = Gates.goingBack(OLD, 2, 1);
        NodeView markedForNew = marked(node("worker-1", OLD, OLD, "Done"), NEW);
        List<RegisteredHook> hooks =
                List.of(Gates.hook("node-check", Stage.PRE_UPDATE), Gates.hook("node-check", Stage.POST_UPDATE));

        LeverPlan.NodeLevers levers = LeverPlan.node(
                "c1", back, markedForNew, hooks, gates::get, PostUpdateHold.ADMISSION, n -> true, g -> false);

        // Then nothing holds it: it made no update, so it is neither cordoned beside the node that
        // failed nor asked a late post-update gate
        assertThat(levers).isEqualTo(new LeverPlan.NodeLevers(false, false, false, postGate("worker-1", OLD), false));
        // while a node marked for the config it is on finished that update while no gatekeeper ran
        LeverPlan.NodeLevers finished = LeverPlan.node(
                "c1",
                back,
                marked(node("worker-1", OLD, OLD, "Done"), OLD),
                hooks,
                gates::get,
                PostUpdateHold.ADMISSION,
                n -> true,
                g -> false);
        assertThat(finished.cordon()).isTrue();
        assertThat(finished.hold()).isTrue();
    }

    @Test
    void doesNotHoldAPoolAtRestForFinishedNodesWhoseGatesAreNoLongerKnown() {
        // after a restart whose read-back no longer reaches the gates of an old rollout
        assertThat(paused(NEW, node("worker-0", NEW, NEW, "Done"), node("worker-1", NEW, NEW, "Done")))
                .isNull();
    }

    @Test
    void fromTheUncordonRequestTheNodeStaysCordonedEvenBeforeTheGateOpens() {
        // The MCD asked for the uncordon; the gate request is still on its way (no gate yet)
        NodeView requested = uncordoning(true, "Working", OLD);

        assertThat(LeverPlan.node("c1", pool(OLD), requested, POST_ONLY, gates::get)
                        .cordon())
                .isTrue();
    }

    @Test
    void afterTheDrainControllersUncordonAndTheMcdsDoneTheNodeIsCordonedAgain() {
        gates.put(postGate("worker-0"), gate(false));

        assertThat(LeverPlan.node("c1", pool(OLD), uncordoning(false, "Done", NEW), POST_ONLY, gates::get)
                        .cordon())
                .isTrue();
        assertThat(LeverPlan.node("c1", pool(OLD), uncordoning(true, "Done", NEW), POST_ONLY, gates::get)
                        .cordon())
                .isTrue();
    }

    @Test
    void aReleasedGateWantsNoCordon() {
        gates.put(postGate("worker-0"), gate(true));

        assertThat(LeverPlan.node("c1", pool(OLD), uncordoning(true, "Working", OLD), POST_ONLY, gates::get)
                        .cordon())
                .isFalse();
    }

    @Test
    void withoutPostUpdateHooksTheUncordonIsTheMcosAlone() {
        assertThat(LeverPlan.node("c1", pool(OLD), uncordoning(true, "Working", OLD), List.of(), gates::get)
                        .cordon())
                .isFalse();
    }

    @Test
    void aChangeThatDoesNotDrainKeepsThePoolPausedUntilEveryWatchedNodesPreUpdateGatePassed() {
        // Given pre-update hooks and an SSH key change, which the MCD applies without a drain
        var pre = List.of(Gates.hook("node-precheck", Stage.PRE_UPDATE));
        NodeView w0 = node("worker-0", OLD, OLD, "Done");
        NodeView w1 = node("worker-1", OLD, OLD, "Done");

        // Then the pool stays paused while any node's gate waits, gate pods or not
        assertThat(prePaused(pool(OLD), pre, false, w0, w1)).isTrue();
        gates.put(preGate("worker-0"), gate(true));
        assertThat(prePaused(pool(OLD), pre, false, w0, w1)).isTrue();

        // and goes once both have passed
        gates.put(preGate("worker-1"), gate(true));
        assertThat(prePaused(pool(OLD), pre, false, w0, w1)).isFalse();
    }

    @Test
    void aChangeThatDrainsIsHeldByItsGatePodsSoThePoolMayRoll() {
        var pre = List.of(Gates.hook("node-precheck", Stage.PRE_UPDATE));

        assertThat(prePaused(
                        pool(OLD), pre, true, node("worker-0", OLD, OLD, "Done"), node("worker-1", OLD, OLD, "Done")))
                .isFalse();
    }

    @Test
    void theMasterPoolIsNeverPausedForTheGatesBeforeAnUpdate() {
        var before =
                List.of(Gates.hook("kmod-check", Stage.POOL_PRE_UPDATE), Gates.hook("node-precheck", Stage.PRE_UPDATE));
        NodeView m0 = node("master-0", OLD, OLD, "Done");

        // neither at rest nor with a pending change that does not drain: the gates are advisory there
        assertThat(prePaused(master(NEW), before, false, node("master-0", NEW, NEW, "Done")))
                .isNull();
        assertThat(prePaused(master(OLD), before, false, m0)).isNull();
    }

    private Boolean prePaused(PoolView pool, List<RegisteredHook> hooks, boolean drains, NodeView... nodes) {
        return PausePlan.poolPaused(
                "c1",
                pool,
                List.of(nodes),
                hooks,
                gates::get,
                n -> true,
                n -> drains,
                PostUpdateHold.BATCH_PACING,
                g -> false);
    }

    private static PoolView master(String current) {
        return new PoolView(
                "master", "uid", "1", 1, NEW, current, false, "1", 1, 0, 0, Map.of(), Map.of(), null, Map.of());
    }

    private static String preGate(String node) {
        return GateId.of("c1", Stage.PRE_UPDATE, node, NEW);
    }

    private Boolean paused(NodeView... nodes) {
        return paused(OLD, nodes);
    }

    private Boolean paused(String poolCurrent, NodeView... nodes) {
        return PausePlan.poolPaused(
                "c1",
                pool(poolCurrent),
                List.of(nodes),
                POST_ONLY,
                gates::get,
                n -> true,
                n -> true,
                PostUpdateHold.BATCH_PACING,
                g -> false);
    }

    private static PoolView pool(String current) {
        return new PoolView(
                "worker", "uid", "1", 1, NEW, current, false, "1", 2, 0, 0, Map.of(), Map.of(), null, Map.of());
    }

    private static String postGate(String node) {
        return postGate(node, NEW);
    }

    private static Gate gate(boolean released) {
        return new Gate(Gates.request(Stage.POST_UPDATE, 1), Gates.T0, Map.of(), null, released, null);
    }

    /** Tainted and marked by the gatekeeper for its post-update gate on {@code config}. */
    private static NodeView marked(NodeView n, String config) {
        Map<String, String> annotations = new HashMap<>(n.annotations());
        annotations.put(GateObjects.HOLD, postGate(n.name(), config));
        return Gates.with(n, annotations, true);
    }

    private static String postGate(String node, String config) {
        return GateId.of("c1", Stage.POST_UPDATE, node, config);
    }

    private static NodeView tainted(NodeView n) {
        return Gates.with(n, n.annotations(), true);
    }

    /** worker-0 on its way to the target, the MCD having asked for its uncordon. */
    private static NodeView uncordoning(boolean unschedulable, String state, String current) {
        return new NodeView(
                "worker-0",
                "worker-0",
                "1",
                null,
                Map.of("node-role.kubernetes.io/worker", ""),
                Map.of(
                        McoApi.CURRENT_CONFIG,
                        current,
                        McoApi.DESIRED_CONFIG,
                        NEW,
                        McoApi.STATE,
                        state,
                        McoApi.DESIRED_DRAIN,
                        McoApi.UNCORDON_PREFIX + NEW),
                unschedulable,
                true,
                false,
                null);
    }
}
