package io.mcdhooks.mco.nodes;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code sortNodeList} and {@code filterControlPlaneCandidateNodes} of {@code pkg/controller/node/node_controller.go}. */
class CandidateOrderTest {

    record N(String name, String zone, Instant created) {}

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void zonedNodesComeFirstByZoneThenOldestAndUnzonedNodesLastOldestFirst() {
        var nodes = List.of(
                new N("c-new", "b", T.plusSeconds(20)),
                new N("none-old", null, T),
                new N("a-new", "a", T.plusSeconds(30)),
                new N("c-old", "b", T.plusSeconds(5)),
                new N("none-new", null, T.plusSeconds(50)),
                new N("a-old", "a", T.plusSeconds(10)));

        assertThat(CandidateOrder.sorted(nodes, N::zone, N::created).stream().map(N::name))
                .containsExactly("a-old", "a-new", "c-old", "c-new", "none-old", "none-new");
    }

    @Test
    void inTheMasterPoolTheOperatorsNodeGoesLastAndElsewhereItIsANodeLikeAnother() {
        var nodes = List.of(new N("m0", "a", T), new N("m1", "b", T), new N("m2", "c", T));

        assertThat(CandidateOrder.rollout("master", nodes, N::name, N::zone, N::created, "m0").stream()
                        .map(N::name))
                .containsExactly("m1", "m2", "m0");
        assertThat(CandidateOrder.rollout("worker", nodes, N::name, N::zone, N::created, "m0").stream()
                        .map(N::name))
                .containsExactly("m0", "m1", "m2");
    }
}
