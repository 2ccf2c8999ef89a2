package io.mcdhooks.bridge.gate;

import static io.mcdhooks.bridge.gate.Gates.T0;
import static io.mcdhooks.bridge.gate.Gates.TARGET;
import static io.mcdhooks.bridge.gate.Gates.hook;
import static io.mcdhooks.bridge.gate.Gates.request;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;

/** The post-update levers through the MCD's last steps: uncordon request, uncordon, Done. */
class LeverPlanTest {

    private static final String OLD = "rendered-worker-1111";
    private static final List<HookSpec> POST_HOOK = List.of(hook("selfcheck", Stage.POST_UPDATE));
    private static final PoolView POOL = new PoolView("worker", "uid", "1", 2, TARGET, OLD, false, "1", 3, 0, 0,
            Map.of(), Map.of(), null, Map.of());

    @Test
    void fromTheUncordonRequestTheNodeStaysCordonedEvenBeforeTheGateOpens() {
        // The MCD asked for the uncordon; the gate request is still on its way (no gate yet)
        NodeView requested = node(Map.of(McoApi.DESIRED_DRAIN, "uncordon-" + TARGET), true, McoApi.STATE_WORKING, OLD);

        LeverPlan.NodeLevers levers = LeverPlan.node("c1", POOL, requested, POST_HOOK, noGates());

        assertThat(levers.cordon()).isTrue();
    }

    @Test
    void afterTheDrainControllersUncordonAndTheMcdsDoneTheNodeIsCordonedAgain() {
        Gate open = GateMachine.open(request(Stage.POST_UPDATE, 1), POST_HOOK, T0).gate();
        Function<String, Gate> gates = id -> id.equals(open.id()) ? open : null;
        NodeView doneUncordoned = node(Map.of(McoApi.DESIRED_DRAIN, "uncordon-" + TARGET), false, McoApi.STATE_DONE,
                TARGET);
        NodeView doneCordoned = node(Map.of(McoApi.DESIRED_DRAIN, "uncordon-" + TARGET), true, McoApi.STATE_DONE,
                TARGET);

        assertThat(LeverPlan.node("c1", POOL, doneUncordoned, POST_HOOK, gates).cordon()).isTrue();
        assertThat(LeverPlan.node("c1", POOL, doneCordoned, POST_HOOK, gates).cordon()).isTrue();
    }

    @Test
    void aReleasedGateWantsNoCordon() {
        GateRequest post = request(Stage.POST_UPDATE, 1);
        Gate released = GateMachine.onVerdict(GateMachine.open(post, POST_HOOK, T0).gate(),
                Gates.verdict(post, "selfcheck", Outcome.PASS, T0.plusSeconds(1)), T0.plusSeconds(1)).gate();
        assertThat(released.released()).isTrue();
        NodeView requested = node(Map.of(McoApi.DESIRED_DRAIN, "uncordon-" + TARGET), true, McoApi.STATE_WORKING, OLD);

        LeverPlan.NodeLevers levers = LeverPlan.node("c1", POOL, requested, POST_HOOK,
                id -> id.equals(released.id()) ? released : null);

        assertThat(levers.cordon()).isFalse();
    }

    @Test
    void aNodeThatFinishedBeforeAnyGateIsLeftAlone() {
        NodeView finished = node(Map.of(McoApi.DESIRED_DRAIN, "uncordon-" + TARGET), false, McoApi.STATE_DONE, TARGET);

        LeverPlan.NodeLevers levers = LeverPlan.node("c1", POOL, finished, POST_HOOK, noGates());

        assertThat(levers.cordon()).isFalse();
    }

    @Test
    void withoutPostUpdateHooksTheUncordonIsTheMcosAlone() {
        NodeView requested = node(Map.of(McoApi.DESIRED_DRAIN, "uncordon-" + TARGET), true, McoApi.STATE_WORKING, OLD);

        assertThat(LeverPlan.node("c1", POOL, requested, List.of(), noGates()).cordon()).isFalse();
    }

    private static Function<String, Gate> noGates() {
        return id -> null;
    }

    private static NodeView node(Map<String, String> extra, boolean unschedulable, String state, String current) {
        Map<String, String> annotations = new HashMap<>(extra);
        annotations.put(McoApi.DESIRED_CONFIG, TARGET);
        annotations.put(McoApi.CURRENT_CONFIG, current);
        annotations.put(McoApi.STATE, state);
        return new NodeView("worker-0", "uid-0", "1", Map.of("node-role.kubernetes.io/worker", ""), annotations,
                unschedulable, true, null);
    }
}
