package io.mcdhooks.bridge.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.bridge.MovingClock;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateDecision.Mode;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A failed post-update gate pauses its pool while the pool still targets the config that failed. */
class FailedPostUpdatePauseTest {

    private static final String OLD = "rendered-worker-1111";
    private static final String NEW = Gates.TARGET;

    @ParameterizedTest
    @EnumSource(
            value = RegisteredHook.PostUpdateFailure.class,
            names = {"HoldAndPausePool", "RollbackPool", "RollbackPoolAdvisory"})
    void aFailedNodePausesItsPoolUntilThePoolTargetsAnotherConfig(RegisteredHook.PostUpdateFailure action) {
        Gatekeeper gatekeeper = failed(action);
        NodeView held = heldOn(NEW);

        assertThat(paused(gatekeeper, pool(NEW), held)).isTrue();
        // the change reverted (by an administrator, or the rollback): the MCC may take the pool back
        assertThat(paused(gatekeeper, pool(OLD), held)).isNull();
    }

    @Test
    void aPoolGoingBackToTheConfigItReportsIsNotHeldAtRestByItsPoolGate() {
        // a pool-pre-update hook pauses its pool at rest, until its next config's gate passes
        var gatekeeper = new Gatekeeper("c1", new MovingClock(Gates.T0), d -> {});
        gatekeeper.putHook(Gates.hook("kmod-check", Stage.POOL_PRE_UPDATE));
        NodeView stillOnNew = heldOn(NEW);
        PoolView atRest = pausedOnOld(2, "True");
        // the change reverted mid-rollout: status.configuration never left OLD, one node is on NEW
        PoolView reverted = pausedOnOld(1, "False");

        assertThat(paused(gatekeeper, atRest, stillOnNew)).isTrue();
        assertThat(reverted.reverting()).isTrue();
        assertThat(paused(gatekeeper, reverted, stillOnNew)).isFalse();
    }

    @Test
    void aPoolGoingBackWaitsForTheGatePodsOfItsNodesPreUpdateGates() {
        // a pre-update hook: the node going back meets its gate like on any rollout
        var gatekeeper = new Gatekeeper("c1", new MovingClock(Gates.T0), d -> {});
        gatekeeper.putHook(Gates.hook("kmod-check", Stage.PRE_UPDATE));
        PoolView reverted = pausedOnOld(1, "False");
        NodeView goingBack = heldOn(NEW);
        List<RegisteredHook> hooks = new ArrayList<>(gatekeeper.hooks());

        // its gate pod is planned, and the pool stays paused until the pod is in place
        assertThat(LeverPlan.node(
                                "c1",
                                reverted,
                                goingBack,
                                hooks,
                                gatekeeper::gate,
                                PostUpdateHold.ADMISSION,
                                n -> true,
                                g -> false)
                        .gatePod())
                .isTrue();
        assertThat(PausePlan.poolPaused(
                        "c1",
                        reverted,
                        List.of(goingBack),
                        hooks,
                        gatekeeper::gate,
                        n -> false,
                        n -> true,
                        PostUpdateHold.ADMISSION,
                        g -> false))
                .isTrue();
        assertThat(paused(gatekeeper, reverted, goingBack)).isFalse();
    }

    @Test
    void aFailedNodeIsLetGoOnceItsPoolGoesBackSoTheMccCanTakeItBack() {
        Gatekeeper gatekeeper = failed(RegisteredHook.PostUpdateFailure.RollbackPool);
        // Done on NEW, cordoned again under its hold after the handover; the pool reverted to OLD,
        // which it still reports (a cordoned node would keep the MCC from taking any node back)
        LeverPlan.NodeLevers levers = LeverPlan.node(
                "c1",
                pausedOnOld(1, "False"),
                heldOn(NEW),
                new ArrayList<>(gatekeeper.hooks()),
                gatekeeper::gate,
                PostUpdateHold.ADMISSION,
                n -> true,
                g -> false);

        assertThat(levers).extracting("postUpdateTaint", "cordon", "hold").containsExactly(false, false, false);
        // while the pool still targets NEW it stays held
        assertThat(LeverPlan.node(
                        "c1",
                        pool(NEW),
                        heldOn(NEW),
                        new ArrayList<>(gatekeeper.hooks()),
                        gatekeeper::gate,
                        PostUpdateHold.ADMISSION,
                        n -> true,
                        g -> false))
                .extracting("postUpdateTaint", "cordon", "hold")
                .containsExactly(true, true, true);
    }

    @Test
    void aHoldAloneNeverPausesThePool() {
        assertThat(paused(failed(RegisteredHook.PostUpdateFailure.Hold), pool(NEW), heldOn(NEW)))
                .isNull();
    }

    private static Gatekeeper failed(RegisteredHook.PostUpdateFailure action) {
        var clock = new MovingClock(Gates.T0);
        var gatekeeper = new Gatekeeper("c1", clock, d -> {});
        gatekeeper.putHook(new RegisteredHook(
                "node-check",
                Set.of(Stage.POST_UPDATE),
                Set.of(),
                Map.of(),
                Duration.ofMinutes(10),
                Duration.ZERO,
                FailurePolicy.Fail,
                Mode.Enforcing,
                action,
                false));
        GateRequest request = Gates.request(Stage.POST_UPDATE, 1);
        gatekeeper.onGateRequest(request);
        gatekeeper.onVerdict(Gates.verdict(request, "node-check", Outcome.FAIL, Gates.T0.plusSeconds(5)));
        assertThat(gatekeeper.gate(request.gateId()).released()).isFalse();
        return gatekeeper;
    }

    private static Boolean paused(Gatekeeper gatekeeper, PoolView pool, NodeView node) {
        return PausePlan.poolPaused(
                "c1",
                pool,
                List.of(node),
                new ArrayList<>(gatekeeper.hooks()),
                gatekeeper::gate,
                n -> true,
                n -> true,
                PostUpdateHold.ADMISSION,
                g -> false);
    }

    /** worker-0, Done on {@code config} and cordoned under its hold. */
    private static NodeView heldOn(String config) {
        return new NodeView(
                "worker-0",
                "worker-0",
                "1",
                null,
                Map.of("node-role.kubernetes.io/worker", ""),
                Map.of(McoApi.CURRENT_CONFIG, config, McoApi.DESIRED_CONFIG, config, McoApi.STATE, "Done"),
                true,
                true,
                true,
                null);
    }

    /** Paused, targeting and reporting OLD, {@code updated} of its 2 machines on it, Updated as said. */
    private static PoolView pausedOnOld(int updated, String updatedCondition) {
        return new PoolView(
                "worker",
                "uid",
                "1",
                1,
                OLD,
                OLD,
                true,
                "1",
                2,
                updated,
                0,
                Map.of(),
                Map.of("Updated", updatedCondition),
                null,
                Map.of());
    }

    private static PoolView pool(String target) {
        return new PoolView(
                "worker", "uid", "1", 1, target, OLD, false, "1", 2, 0, 1, Map.of(), Map.of(), null, Map.of());
    }
}
