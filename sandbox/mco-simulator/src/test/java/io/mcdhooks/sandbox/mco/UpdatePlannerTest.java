package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The node controller's choice, as {@code getAllCandidateMachines} / {@code updateCandidateMachines} / {@code sortNodeList}. */
class UpdatePlannerTest {

    private static final String OLD = "rendered-worker-old";
    private static final String NEW = "rendered-worker-new";
    private static final Instant T0 = Instant.parse("2024-11-20T22:39:20Z");

    private static NodeUpdateState done(String name, String zone, int ageRank) {
        return new NodeUpdateState(name, zone, T0.plusSeconds(ageRank), true, false, OLD, OLD, "Done");
    }

    private static NodeUpdateState with(
            NodeUpdateState n, boolean ready, boolean unschedulable, String current, String desired, String state) {
        return new NodeUpdateState(
                n.name(), n.zone(), n.created(), ready && !unschedulable, unschedulable, current, desired, state);
    }

    private static List<String> chosen(String pool, List<NodeUpdateState> nodes, int max, String operatorNode) {
        return UpdatePlanner.plan(pool, nodes, NEW, MaxUnavailable.of(max), operatorNode).chosen().stream()
                .map(NodeUpdateState::name)
                .toList();
    }

    @Test
    void capacityIsMaxUnavailableMinusUnavailable() {
        var nodes = new ArrayList<>(
                List.of(done("a", "z1", 0), done("b", "z1", 1), done("c", "z1", 2), done("d", "z1", 3)));
        nodes.set(0, with(nodes.get(0), true, false, OLD, NEW, "Working"));

        assertThat(UpdatePlanner.capacity(nodes, NEW, MaxUnavailable.of(3))).isEqualTo(2);
        assertThat(UpdatePlanner.capacity(nodes, NEW, MaxUnavailable.of(1))).isZero();
    }

    @Test
    void aCordonedNodeCountsAsUnavailableAndIsNoCandidate() {
        // IsUnavailableForUpdate and CheckNodeReady: spec.unschedulable makes a node not ready
        var nodes = List.of(with(done("a", "z1", 0), true, true, OLD, OLD, "Done"), done("b", "z1", 1));

        assertThat(UpdatePlanner.unavailable(nodes))
                .extracting(NodeUpdateState::name)
                .containsExactly("a");
        assertThat(chosen("worker", nodes, 1, null)).isEmpty();
        assertThat(chosen("worker", nodes, 2, null)).containsExactly("b");
    }

    @Test
    void aNotReadyNodeCountsAsUnavailableAndIsNoCandidate() {
        var nodes = List.of(with(done("a", "z1", 0), false, false, OLD, OLD, "Done"), done("b", "z1", 1));

        assertThat(UpdatePlanner.unavailable(nodes))
                .extracting(NodeUpdateState::name)
                .containsExactly("a");
        assertThat(chosen("worker", nodes, 2, null)).containsExactly("b");
    }

    @Test
    void aFailingNodeIsNotUnavailableButUsesCapacityOfItsConfig() {
        var failing = with(done("a", "z1", 0), true, false, OLD, NEW, "Degraded");
        var nodes = List.of(failing, done("b", "z1", 1), done("c", "z1", 2));

        assertThat(failing.unavailable()).isFalse();
        assertThat(UpdatePlanner.capacity(nodes, NEW, MaxUnavailable.of(2))).isEqualTo(1);
        assertThat(UpdatePlanner.capacity(nodes, NEW, MaxUnavailable.of(1))).isZero();
    }

    @Test
    void whenCapacityIsShortCandidatesGoByZoneThenAgeAndNodesWithoutZoneLast() {
        // sortNodeList: zoned nodes by zone, then oldest first; nodes without a zone label last, oldest first
        var nodes = List.of(
                done("w5", "us-east-2b", 0),
                done("w1", "us-east-2a", 5),
                done("nozone-young", null, 9),
                done("w2", "us-east-2a", 1),
                done("nozone-old", null, -1),
                done("w3", "us-east-2c", 2),
                with(done("updated", "us-east-2a", 0), true, false, NEW, NEW, "Done"));

        assertThat(chosen("worker", nodes, 5, null)).containsExactly("w2", "w1", "w5", "w3", "nozone-old");
        assertThat(chosen("worker", nodes, 2, null)).containsExactly("w2", "w1");
    }

    @Test
    void whenCapacityCoversEveryCandidateTheyAreNotSorted() {
        // updateCandidateMachines sorts only when capacity < len(candidates)
        var nodes = List.of(done("w5", "us-east-2b", 0), done("w1", "us-east-2a", 5), done("w2", "us-east-2a", 1));

        assertThat(chosen("worker", nodes, 3, null)).containsExactly("w5", "w1", "w2");
    }

    @Test
    void theOperatorNodeIsExcludedOnlyInTheMasterPoolWithMoreThanOneCandidate() {
        // filterControlPlaneCandidateNodes: the operator's node is dropped (DeferringOperatorNodeUpdate)
        var masters = List.of(done("m0", "a", 0), done("m1", "b", 1), done("m2", "c", 2));

        var plan = UpdatePlanner.plan("master", masters, NEW, MaxUnavailable.of(1), "m0");
        assertThat(plan.chosen()).extracting(NodeUpdateState::name).containsExactly("m1");
        assertThat(plan.deferredOperatorNode()).isEqualTo("m0");
        // a worker pool does not care where the operator runs
        assertThat(chosen("worker", masters, 1, "m0")).containsExactly("m0");
        // the last master left is updated even though the operator runs on it
        var last = List.of(with(done("m1", "b", 1), true, false, NEW, NEW, "Done"), done("m0", "a", 0));
        assertThat(chosen("master", last, 1, "m0")).containsExactly("m0");
        assertThat(UpdatePlanner.plan("master", last, NEW, MaxUnavailable.of(1), "m0")
                        .deferredOperatorNode())
                .isNull();
    }

    @Test
    void aNodeLeavingImageModeIsACandidateAlthoughItTargetsTheConfig() {
        // CheckNodeCandidacyForUpdate: desiredImage on a node of a pool without image mode
        var leaving = new NodeUpdateState(
                "w", "a", T0, true, false, NEW, NEW, "Done", "quay.io/x@sha256:1", "quay.io/x@sha256:1");

        assertThat(leaving.updatedTo(NEW)).isFalse();
        assertThat(chosen("worker", List.of(leaving), 1, null)).containsExactly("w");
    }

    @Test
    void percentCapacityOfALargePool() {
        var nodes = new ArrayList<NodeUpdateState>();
        for (int i = 0; i < 5000; i++) {
            nodes.add(done("w" + i, "z" + (i % 3), i));
        }

        assertThat(UpdatePlanner.plan("worker", nodes, NEW, MaxUnavailable.percent(10), null)
                        .chosen())
                .hasSize(500);
    }
}
