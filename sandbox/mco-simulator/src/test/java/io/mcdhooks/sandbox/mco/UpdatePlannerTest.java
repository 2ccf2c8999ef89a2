package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UpdatePlannerTest {

    private static final String OLD = "rendered-worker-old";
    private static final String NEW = "rendered-worker-new";
    private static final Instant T0 = Instant.parse("2024-11-20T22:39:20Z");

    private static NodeView done(String name, String zone, int ageRank) {
        return new NodeView(name, zone, T0.plusSeconds(ageRank), true, false, OLD, OLD, "Done");
    }

    private static NodeView with(
            NodeView n, boolean ready, boolean unschedulable, String current, String desired, String state) {
        return new NodeView(
                n.name(), n.zone(), n.created(), ready && !unschedulable, unschedulable, current, desired, state);
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
    void aCordonedNodeCountsAsUnavailable() {
        var nodes = List.of(with(done("a", "z1", 0), true, true, OLD, OLD, "Done"), done("b", "z1", 1));

        assertThat(UpdatePlanner.unavailable(nodes)).extracting(NodeView::name).containsExactly("a");
        assertThat(UpdatePlanner.select(nodes, NEW, MaxUnavailable.of(1), null)).isEmpty();
    }

    @Test
    void aNotReadyNodeCountsAsUnavailableAndIsNoCandidate() {
        var nodes = List.of(with(done("a", "z1", 0), false, false, OLD, OLD, "Done"), done("b", "z1", 1));

        assertThat(UpdatePlanner.unavailable(nodes)).extracting(NodeView::name).containsExactly("a");
        assertThat(UpdatePlanner.select(nodes, NEW, MaxUnavailable.of(2), null))
                .extracting(NodeView::name)
                .containsExactly("b");
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
    void ordersCandidatesByZoneThenAgeWithTheOperatorNodeLast() {
        var nodes = List.of(
                done("w5", "us-east-2b", 0),
                done("w1", "us-east-2a", 5),
                done("w2", "us-east-2a", 1),
                done("w3", "us-east-2c", 2),
                done("op", "us-east-2a", 0),
                with(done("updated", "us-east-2a", 0), true, false, NEW, NEW, "Done"));

        assertThat(UpdatePlanner.orderedCandidates(nodes, NEW, "op"))
                .extracting(NodeView::name)
                .containsExactly("w2", "w1", "w5", "w3", "op");
        assertThat(UpdatePlanner.select(nodes, NEW, MaxUnavailable.of(2), "op"))
                .extracting(NodeView::name)
                .containsExactly("w2", "w1");
    }

    @Test
    void percentCapacityOfALargePool() {
        var nodes = new ArrayList<NodeView>();
        for (int i = 0; i < 5000; i++) {
            nodes.add(done("w" + i, "z" + (i % 3), i));
        }

        assertThat(UpdatePlanner.select(nodes, NEW, MaxUnavailable.percent(10), null))
                .hasSize(500);
    }
}
