package io.mcdhooks.bridge.gate;

import static io.mcdhooks.bridge.gate.PostUpdateHold.ADMISSION;
import static io.mcdhooks.bridge.gate.PostUpdateHold.BATCH_PACING;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.Stage;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How a post-update gate holds on each kind of cluster ({@link PostUpdateHold}): with the admission
 * policy, without it (batch pacing), on a single node, and in the master pool.
 */
class PostUpdateHoldPlanTest {

    private static final String OLD = "rendered-worker-1111";
    private static final String NEW = Gates.TARGET;
    private static final List<RegisteredHook> POST_ONLY = List.of(Gates.hook("node-check", Stage.POST_UPDATE));
    private final Map<String, Gate> gates = new HashMap<>();

    @Test
    void withThePolicyAnAssignedNodeIsMarkedAndTaintedAndItsPoolRolls() {
        // Given worker-0 assigned the target, its post-update gate not open yet
        NodeView assigned = node("worker", OLD, NEW, "Working", false, null, null);

        // Then it carries the taint and the hold marker, is not cordoned by the gatekeeper, and
        // the pool is not paused: the MCC assigns as it would
        LeverPlan.NodeLevers levers = levers("worker", assigned, PostUpdateHold.ADMISSION);
        assertThat(levers).extracting("postUpdateTaint", "hold", "cordon").containsExactly(true, true, false);
        assertThat(levers.postUpdateGate()).isEqualTo(post());
        assertThat(paused("worker", PostUpdateHold.ADMISSION, assigned)).isNull();
    }

    @Test
    void withThePolicyADrainedNodeHeldAtItsUncordonKeepsItsPoolRolling() {
        // Given worker-0 drained and rebooted, the MCD asking for the uncordon, the drain
        // controller's cordon kept by kube-apiserver, its gate open
        gates.put(post(), gate(false));
        NodeView held = node("worker", OLD, NEW, "Working", true, "uncordon-" + NEW, "drain-" + NEW);

        assertThat(paused("worker", PostUpdateHold.ADMISSION, held)).isNull();
        assertThat(levers("worker", held, PostUpdateHold.ADMISSION).hold()).isTrue();
        // while without the policy the same node pauses its pool (batch pacing)
        assertThat(paused("worker", PostUpdateHold.BATCH_PACING, held)).isTrue();
    }

    @Test
    void withThePolicyAChangeThatNeedsNoDrainIsCordonedOnlyOnceDoneItsPoolWaitingThatOut() {
        gates.put(post(), gate(false));
        // When the MCD asks for the uncordon of a node it never drained (rebootless)
        NodeView uncordoning = node("worker", OLD, NEW, "Working", false, "uncordon-" + NEW, null);
        // Then the gatekeeper does not cordon it (a refused uncordon makes the MCD redo the update
        // after 10 min), and the pool waits
        assertThat(levers("worker", uncordoning, PostUpdateHold.ADMISSION).cordon())
                .isFalse();
        assertThat(paused("worker", PostUpdateHold.ADMISSION, uncordoning)).isTrue();

        // Once Done it is cordoned under the marker; the pool waits until it is
        NodeView done = node("worker", NEW, NEW, "Done", false, "uncordon-" + NEW, "uncordon-" + NEW);
        assertThat(levers("worker", done, PostUpdateHold.ADMISSION))
                .extracting("cordon", "hold")
                .containsExactly(true, true);
        assertThat(paused("worker", PostUpdateHold.ADMISSION, done)).isTrue();

        // and once cordoned it counts against maxUnavailable: the pool rolls on
        NodeView cordoned = node("worker", NEW, NEW, "Done", true, "uncordon-" + NEW, "uncordon-" + NEW);
        assertThat(paused("worker", PostUpdateHold.ADMISSION, cordoned)).isNull();
    }

    @Test
    void aReleasedGateWantsNothingLeft() {
        gates.put(post(), gate(true));
        NodeView held = node("worker", OLD, NEW, "Working", true, "uncordon-" + NEW, "drain-" + NEW);
        assertThat(levers("worker", held, PostUpdateHold.ADMISSION))
                .extracting("postUpdateTaint", "hold", "cordon")
                .containsExactly(false, false, false);
    }

    @Test
    void onASingleNodeNothingHoldsTheNodeAndNothingPausesItsPool() {
        gates.put(post(), gate(false));
        NodeView rebooted = node("master", OLD, NEW, "Working", false, "uncordon-" + NEW, null);
        assertThat(levers("master", rebooted, PostUpdateHold.SINGLE_NODE))
                .extracting("postUpdateTaint", "hold", "cordon")
                .containsExactly(false, false, false);
        assertThat(paused("master", PostUpdateHold.SINGLE_NODE, rebooted)).isNull();
    }

    @Test
    void theMasterPoolIsNeverPausedForAPostUpdateGateAndWithoutThePolicyOnlyTainted() {
        gates.put(post(), gate(false));
        NodeView done = node("master", NEW, NEW, "Done", false, "uncordon-" + NEW, "uncordon-" + NEW);
        // without the policy: a re-cordon after the MCD's uncordon could let the MCC take a second
        // master, and a pause would turn the ClusterOperator Degraded at once
        assertThat(levers("master", done, PostUpdateHold.BATCH_PACING))
                .extracting("postUpdateTaint", "cordon")
                .containsExactly(true, false);
        assertThat(paused("master", PostUpdateHold.BATCH_PACING, done)).isNull();
        // with it: cordoned once Done (rebootless), still no pause
        assertThat(levers("master", done, PostUpdateHold.ADMISSION).cordon()).isTrue();
        assertThat(paused("master", PostUpdateHold.ADMISSION, done)).isNull();
    }

    @Test
    void aMarkerIsSetWithTheTaintInOneWriteAndAReleaseRemovesItAndUncordonsInOne() {
        // Given a node the drain controller cordoned (no mark of the gatekeeper's own)
        Node node = new NodeBuilder()
                .withNewMetadata()
                .withName("worker-0")
                .endMetadata()
                .withNewSpec()
                .withUnschedulable(true)
                .endSpec()
                .build();
        LeverPlan.NodeLevers hold = new LeverPlan.NodeLevers(false, true, false, post(), true);
        assertThat(LeverWrites.node(node, hold)).isEqualTo(LeverWrites.NodeWrite.EDIT);
        assertThat(LeverWrites.edit(node, hold)).isTrue();
        assertThat(node.getMetadata().getAnnotations()).containsEntry(GateObjects.HOLD, post());
        assertThat(LeverWrites.tainted(node)).isTrue();
        assertThat(LeverWrites.node(node, hold)).isEqualTo(LeverWrites.NodeWrite.NONE);

        // When the gate is released
        LeverPlan.NodeLevers released = new LeverPlan.NodeLevers(false, false, false, post(), false);
        assertThat(LeverWrites.node(node, released)).isEqualTo(LeverWrites.NodeWrite.EDIT);
        LeverWrites.edit(node, released);

        // Then marker, taint and cordon are gone in that one write
        assertThat(node.getMetadata().getAnnotations()).doesNotContainKey(GateObjects.HOLD);
        assertThat(LeverWrites.tainted(node)).isFalse();
        assertThat(node.getSpec().getUnschedulable()).isFalse();
    }

    @Test
    void aNodeCordonedByItsAdministratorIsNotUncordonedWhenNoHoldWasSet() {
        Node node = new NodeBuilder()
                .withNewMetadata()
                .withName("worker-0")
                .endMetadata()
                .withNewSpec()
                .withUnschedulable(true)
                .endSpec()
                .build();
        LeverPlan.NodeLevers nothing = new LeverPlan.NodeLevers(false, false, false, post(), false);
        assertThat(LeverWrites.node(node, nothing)).isEqualTo(LeverWrites.NodeWrite.NONE);
    }

    @Test
    void theCordonOfANodeDoneWithoutADrainCarriesTheMarker() {
        assertThat(LeverWrites.cordonPatch(post(), true))
                .contains("\"" + GateObjects.HOLD + "\":\"" + post() + "\"")
                .contains("\"unschedulable\":true");
        assertThat(LeverWrites.cordonPatch(post())).doesNotContain(GateObjects.HOLD);
    }

    @Test
    void aGatePodReleasedBeforeItsNodeIsAssignedGoesOnlyOnceTheHoldMarkerIsOn() {
        // Given worker-0 next in line, not assigned yet, its pre-update gate passed early
        List<RegisteredHook> both =
                List.of(Gates.hook("kmod-check", Stage.PRE_UPDATE), Gates.hook("node-check", Stage.POST_UPDATE));
        String pre = GateId.of("c1", Stage.PRE_UPDATE, "worker-0", NEW);
        gates.put(pre, new Gate(Gates.request(Stage.PRE_UPDATE, 1), Gates.T0, Map.of(), null, true, null));
        NodeView waiting = node("worker", OLD, OLD, "Done", false, null, null);

        // Then with the policy it is marked and tainted for its coming post-update gate first, not cordoned,
        // and its gate pod stays until the marker is there
        LeverPlan.NodeLevers before = plan(waiting, both, ADMISSION, true);
        assertThat(before)
                .extracting("gatePod", "postUpdateTaint", "hold", "cordon")
                .containsExactly(true, true, true, false);
        assertThat(before.postUpdateGate()).isEqualTo(post());
        NodeView held = marked(waiting);
        assertThat(plan(held, both, ADMISSION, true))
                .extracting("gatePod", "hold", "cordon")
                .containsExactly(false, true, false);
        // and its pool is not paused for it: the MCC may assign it
        assertThat(PausePlan.poolPaused(
                        "c1",
                        pool("worker"),
                        List.of(held),
                        both,
                        gates::get,
                        n -> false,
                        n -> true,
                        PostUpdateHold.ADMISSION,
                        g -> false))
                .isFalse();

        // and without the policy the pod stays until the assignment, and then until the taint is on:
        // nothing else would keep workloads off the node if its update ran while no gatekeeper runs
        assertThat(plan(waiting, both, BATCH_PACING, true))
                .extracting("gatePod", "postUpdateTaint", "hold")
                .containsExactly(true, false, false);
        NodeView assigned = node("worker", OLD, NEW, "Working", false, null, null);
        assertThat(plan(assigned, both, BATCH_PACING, true))
                .extracting("gatePod", "postUpdateTaint")
                .containsExactly(true, true);
        NodeView tainted = Gates.with(assigned, assigned.annotations(), true);
        assertThat(plan(tainted, both, BATCH_PACING, true).gatePod()).isFalse();
        // a node only pre-update hooks watch loses its pod at once
        assertThat(LeverPlan.node(
                                "c1",
                                pool("worker"),
                                waiting,
                                List.of(Gates.hook("kmod-check", Stage.PRE_UPDATE)),
                                gates::get,
                                PostUpdateHold.ADMISSION,
                                n -> true,
                                g -> false)
                        .gatePod())
                .isFalse();
    }

    @Test
    void aNodeAssignedBeforeItsEarlyMarkerWasWrittenKeepsItsGatePodUntilTheMarkerIsOn() {
        // Given worker-0's pre-update gate passed early, and the MCC assigned it before the marker was written
        List<RegisteredHook> both =
                List.of(Gates.hook("kmod-check", Stage.PRE_UPDATE), Gates.hook("node-check", Stage.POST_UPDATE));
        gates.put(
                GateId.of("c1", Stage.PRE_UPDATE, "worker-0", NEW),
                new Gate(Gates.request(Stage.PRE_UPDATE, 1), Gates.T0, Map.of(), null, true, null));
        NodeView assigned = node("worker", OLD, NEW, "Working", false, null, null);

        // Then the pod stays, with the marker and taint wanted: were it gone first and the gatekeeper
        // to die before the marker's write, the node would update and return with nothing holding it
        assertThat(plan(assigned, both, ADMISSION, true))
                .extracting("gatePod", "postUpdateTaint", "hold")
                .containsExactly(true, true, true);

        // and a change that does not drain is marked at its assignment only, with no gate pod kept for it
        NodeView waiting = node("worker", OLD, OLD, "Done", false, null, null);
        assertThat(plan(waiting, both, ADMISSION, false))
                .extracting("gatePod", "postUpdateTaint", "hold")
                .containsExactly(false, false, false);
        assertThat(plan(assigned, both, ADMISSION, false))
                .extracting("gatePod", "postUpdateTaint", "hold")
                .containsExactly(false, true, true);
    }

    @Test
    void aHoldThatLastsAtTheUncordonIsHandedOverToACordonOnceTheMcdIsDone() {
        // Given worker-0 drained and rebooted, its uncordon refused under the marker, its gate open
        // and due for the handover (failed, or held long enough)
        gates.put(post(), gate(false));
        NodeView refused = marked(node("worker", OLD, NEW, "Working", true, "uncordon-" + NEW, "drain-" + NEW));
        PoolView rolling = pool("worker");
        PoolView paused = paused(rolling);

        // Then first its pool is paused, the node left as it is
        assertThat(pausedFor(rolling, refused, true)).isTrue();
        assertThat(handOver(rolling, refused))
                .extracting("postUpdateTaint", "hold", "cordon")
                .containsExactly(true, true, false);
        // once the pool is paused, marker and cordon go in one write, the taint stays
        LeverPlan.NodeLevers handing = handOver(paused, refused);
        assertThat(handing).extracting("postUpdateTaint", "hold", "cordon").containsExactly(true, false, false);
        Node written = nodeObject(refused);
        assertThat(LeverWrites.node(written, handing)).isEqualTo(LeverWrites.NodeWrite.EDIT);
        LeverWrites.edit(written, handing);
        assertThat(written.getSpec().getUnschedulable()).isFalse();
        assertThat(written.getMetadata().getAnnotations()).doesNotContainKey(GateObjects.HOLD);
        assertThat(LeverWrites.tainted(written)).isTrue();

        // When the drain controller's next try finds it uncordoned and the MCD is done
        NodeView uncordoned = node("worker", OLD, NEW, "Working", false, "uncordon-" + NEW, "uncordon-" + NEW);
        NodeView done = node("worker", NEW, NEW, "Done", false, "uncordon-" + NEW, "uncordon-" + NEW);
        // Then the pool stays paused until the node is cordoned again, marked, by the gatekeeper
        for (NodeView n : List.of(uncordoned, done)) {
            assertThat(pausedFor(paused, n, true)).isTrue();
        }
        assertThat(handOver(paused, done))
                .extracting("postUpdateTaint", "hold", "cordon")
                .containsExactly(true, true, true);
        NodeView cordoned = marked(node("worker", NEW, NEW, "Done", true, "uncordon-" + NEW, "uncordon-" + NEW));
        assertThat(pausedFor(paused, cordoned, true)).isNull();

        // (and a node a pre-update hook watches gets no gate pod back: its drain is over)
        gates.put(
                GateId.of("c1", Stage.PRE_UPDATE, "worker-0", NEW),
                new Gate(Gates.request(Stage.PRE_UPDATE, 1), Gates.T0, Map.of(), null, true, null));
        List<RegisteredHook> both =
                List.of(Gates.hook("kmod-check", Stage.PRE_UPDATE), Gates.hook("node-check", Stage.POST_UPDATE));
        assertThat(LeverPlan.node("c1", paused, uncordoned, both, gates::get, ADMISSION, n -> true, g -> true)
                        .gatePod())
                .isFalse();

        // A hold not due yet stays a refused uncordon, its pool rolling; so does any in the master pool
        assertThat(LeverPlan.node("c1", paused, refused, POST_ONLY, gates::get, ADMISSION, n -> true, g -> false)
                        .hold())
                .isTrue();
        assertThat(pausedFor(rolling, refused, false)).isNull();
        NodeView master = marked(node("master", OLD, NEW, "Working", true, "uncordon-" + NEW, "drain-" + NEW));
        assertThat(LeverPlan.handsOver("c1", paused(pool("master")), master, gates::get, g -> true))
                .isFalse();
    }

    /** Whether the policy's gatekeeper wants {@code pool} paused for {@code node}; {@code due}: its handover. */
    private Boolean pausedFor(PoolView pool, NodeView node, boolean due) {
        return PausePlan.poolPaused(
                "c1", pool, List.of(node), POST_ONLY, gates::get, n -> true, n -> true, ADMISSION, g -> due);
    }

    /** The levers of {@code node} in a rolling worker pool, no hold due for its handover. */
    private LeverPlan.NodeLevers plan(NodeView node, List<RegisteredHook> hooks, PostUpdateHold mode, boolean drains) {
        return LeverPlan.node("c1", pool("worker"), node, hooks, gates::get, mode, n -> drains, g -> false);
    }

    private LeverPlan.NodeLevers handOver(PoolView pool, NodeView node) {
        return LeverPlan.node("c1", pool, node, POST_ONLY, gates::get, ADMISSION, n -> true, g -> true);
    }

    private static PoolView paused(PoolView p) {
        return new PoolView(
                p.name(),
                p.uid(),
                p.resourceVersion(),
                p.generation(),
                p.targetConfig(),
                p.currentConfig(),
                true,
                p.maxUnavailable(),
                p.machineCount(),
                p.updatedMachineCount(),
                p.degradedMachineCount(),
                p.nodeSelector(),
                p.conditions(),
                p.degradedMessage(),
                p.annotations());
    }

    private static NodeView marked(NodeView n) {
        Map<String, String> annotations = new HashMap<>(n.annotations());
        annotations.put(GateObjects.HOLD, post());
        return Gates.with(n, annotations, true);
    }

    private static Node nodeObject(NodeView n) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(n.name())
                .withAnnotations(new HashMap<>(n.annotations()))
                .endMetadata()
                .withNewSpec()
                .withUnschedulable(n.unschedulable())
                .addNewTaint()
                .withKey(LeverPlan.POST_UPDATE_TAINT)
                .withValue(GateObjects.GATEKEEPER)
                .withEffect("NoSchedule")
                .endTaint()
                .endSpec()
                .build();
    }

    @Test
    void aHoldNearTheMcdsUncordonLimitIsToldBeforeIt() {
        // Given a node held at its uncordon handshake for 7.5 minutes
        Gate open = gate(false);
        gates.put(post(), open);
        Map<String, String> annotations =
                new HashMap<>(annotations(OLD, NEW, "Working", "uncordon-" + NEW, "drain-" + NEW));
        annotations.put(GateObjects.HOLD, post());
        NodeView held = new NodeView(
                "worker-0",
                "worker-0",
                "1",
                null,
                Map.of("node-role.kubernetes.io/worker", ""),
                annotations,
                true,
                true,
                false,
                null);

        HoldLimits.Near near = HoldLimits.of("c1", "worker", held, gates::get, Gates.T0.plus(Duration.ofSeconds(450)));

        assertThat(near.limit()).isEqualTo(HoldLimits.UNCORDON);
        assertThat(near.left()).isEqualTo(Duration.ofSeconds(150));
        assertThat(near.warn()).isTrue();
        assertThat(HoldLimits.of("c1", "worker", held, gates::get, Gates.T0.plus(Duration.ofMinutes(2)))
                        .warn())
                .isFalse();
        // a node not held by the marker (its uncordon not refused) is at no limit
        NodeView free = node("worker", OLD, NEW, "Working", true, "uncordon-" + NEW, "drain-" + NEW);
        assertThat(HoldLimits.of("c1", "worker", free, gates::get, Gates.T0.plus(Duration.ofMinutes(9))))
                .isNull();
    }

    @Test
    void aDrainHeldByAPreUpdateGateNearsTheHourLimit() {
        String pre = GateId.of("c1", Stage.PRE_UPDATE, "worker-0", NEW);
        gates.put(pre, new Gate(Gates.request(Stage.PRE_UPDATE, 1), Gates.T0, Map.of(), null, false, null));
        NodeView draining = node("worker", OLD, NEW, "Working", true, "drain-" + NEW, null);

        HoldLimits.Near near =
                HoldLimits.of("c1", "worker", draining, gates::get, Gates.T0.plus(Duration.ofMinutes(50)));

        assertThat(near).extracting("limit", "gateId").containsExactly(HoldLimits.DRAIN, pre);
        assertThat(near.left()).isEqualTo(Duration.ofMinutes(10));
        assertThat(near.warn()).isTrue();
    }

    private LeverPlan.NodeLevers levers(String pool, NodeView node, PostUpdateHold mode) {
        return LeverPlan.node("c1", pool(pool), node, POST_ONLY, gates::get, mode, n -> true, g -> false);
    }

    private Boolean paused(String pool, PostUpdateHold mode, NodeView... nodes) {
        return PausePlan.poolPaused(
                "c1", pool(pool), List.of(nodes), POST_ONLY, gates::get, n -> true, n -> true, mode, g -> false);
    }

    private static PoolView pool(String name) {
        return new PoolView(name, "uid", "1", 1, NEW, OLD, false, "1", 2, 0, 0, Map.of(), Map.of(), null, Map.of());
    }

    private static String post() {
        return GateId.of("c1", Stage.POST_UPDATE, "worker-0", NEW);
    }

    private static Gate gate(boolean released) {
        return new Gate(Gates.request(Stage.POST_UPDATE, 1), Gates.T0, Map.of(), null, released, null);
    }

    private static NodeView node(
            String role, String current, String desired, String state, boolean cordoned, String drain, String applied) {
        return new NodeView(
                "worker-0",
                "worker-0",
                "1",
                null,
                Map.of("node-role.kubernetes.io/" + role, ""),
                annotations(current, desired, state, drain, applied),
                cordoned,
                true,
                false,
                null);
    }

    private static Map<String, String> annotations(
            String current, String desired, String state, String drain, String applied) {
        Map<String, String> annotations = new HashMap<>(
                Map.of(McoApi.CURRENT_CONFIG, current, McoApi.DESIRED_CONFIG, desired, McoApi.STATE, state));
        if (drain != null) {
            annotations.put(McoApi.DESIRED_DRAIN, drain);
        }
        if (applied != null) {
            annotations.put(McoApi.LAST_APPLIED_DRAIN, applied);
        }
        return annotations;
    }
}
