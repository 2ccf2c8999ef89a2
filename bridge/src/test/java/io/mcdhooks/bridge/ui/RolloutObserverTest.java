package io.mcdhooks.bridge.ui;

import static io.mcdhooks.bridge.GateFixture.SOURCE;
import static io.mcdhooks.bridge.GateFixture.T0;
import static io.mcdhooks.bridge.GateFixture.TARGET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.mcdhooks.bridge.GateFixture;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The timeline is fed from the node events and the gates: one worker goes from waiting through its
 * pre-update check, drain and reboot to a hold by a failing post-update hook, while another waits.
 */
class RolloutObserverTest {

    private final GateFixture f = new GateFixture()
            .hook("kmod-check", FailurePolicy.Fail, Stage.PRE_UPDATE)
            .hook("node-selfcheck", FailurePolicy.Fail, Stage.POST_UPDATE);
    private final List<Node> nodes = new ArrayList<>();
    private final List<GenericKubernetesResource> pools =
            new ArrayList<>(List.of(ClusterObjects.pool(TARGET, SOURCE, 2, 0)));
    private final RolloutObserver observer = new RolloutObserver(
            GateFixture.CLUSTER,
            () -> nodes,
            () -> pools,
            f::gates,
            id -> f.gatekeeper().gate(id));

    @Test
    void aHeldNodesPhasesAreDatedByItsGatesAndItsVerdictsAreMarked() {
        // Given two workers waiting for the rollout of TARGET
        nodes.add(ClusterObjects.atRest("worker-0", SOURCE));
        nodes.add(ClusterObjects.atRest("worker-1", SOURCE));
        observer.sample(T0);

        // When worker-1 is assigned and its pre-update gate opens, its hook passes, it reboots,
        // comes back, its post-update gate opens and the hook there fails
        f.pass(Duration.ofSeconds(10));
        GateRequest pre = f.open(Stage.PRE_UPDATE, "worker", "worker-1");
        node(ClusterObjects.drainAsked("worker-1", SOURCE, TARGET));
        f.pass(Duration.ofSeconds(10)).answer(pre, "kmod-check", Outcome.PASS, "ModulesReady");
        observer.sample(f.now().plusMillis(700));
        f.pass(Duration.ofSeconds(20));
        node(ClusterObjects.node(
                "worker-1", SOURCE, TARGET, McoApi.STATE_WORKING, McoApi.DRAIN_PREFIX + TARGET, "Rebooting"));
        f.pass(Duration.ofSeconds(20));
        GateRequest post = f.open(Stage.POST_UPDATE, "worker", "worker-1");
        node(ClusterObjects.updated("worker-1", TARGET));
        f.pass(Duration.ofSeconds(5)).answer(post, "node-selfcheck", Outcome.FAIL, "NodeUnhealthy");
        Map<String, Map<String, Long>> counts = observer.sample(f.now().plusMillis(900));

        // Then its row shows each phase from when it began, its verdicts, and who holds it
        RolloutHistory.Row row = observer.history().node("worker-1");
        assertThat(row.spans())
                .extracting(
                        RolloutHistory.Span::phase,
                        s -> Duration.between(T0, s.from()).toSeconds())
                .containsExactly(
                        tuple("WAITING", 0L),
                        tuple("PRE_UPDATE_CHECK", 10L),
                        tuple("DRAINING", 20L),
                        tuple("REBOOTING", 40L),
                        tuple("POST_UPDATE_CHECK", 60L),
                        tuple("HELD_POST_UPDATE", 65L));
        assertThat(row.marks())
                .extracting(RolloutHistory.Mark::hook, RolloutHistory.Mark::outcome, RolloutHistory.Mark::reason)
                .containsExactly(
                        tuple("kmod-check", "PASS", "ModulesReady"), tuple("node-selfcheck", "FAIL", "NodeUnhealthy"));
        assertThat(observer.current().get("worker-1").blocking())
                .containsExactly(
                        new RolloutObserver.Blocking("node-selfcheck", "post-update", "FAIL", "NodeUnhealthy", null));
        assertThat(observer.history().node("worker-0").spans())
                .extracting(RolloutHistory.Span::phase)
                .containsExactly("WAITING");
        assertThat(observer.history().pool("worker").current().phase()).isEqualTo("ROLLING");
        assertThat(counts).isEqualTo(Map.of("worker", Map.of("WAITING", 1L, "HELD_POST_UPDATE", 1L)));
    }

    @Test
    void aTimedOutHookIsMarkedAtItsDeadline() {
        nodes.add(ClusterObjects.drainAsked("worker-0", SOURCE, TARGET));
        f.open(Stage.PRE_UPDATE, "worker", "worker-0");
        observer.sample(f.now());

        f.pass(Duration.ofMinutes(11));
        observer.sample(f.now());

        assertThat(observer.history().node("worker-0").marks())
                .extracting(RolloutHistory.Mark::hook, RolloutHistory.Mark::outcome, m -> m.at())
                .containsExactly(tuple("kmod-check", "TIMED_OUT", T0.plus(Duration.ofMinutes(10))));
        assertThat(observer.history().node("worker-0").current().phase()).isEqualTo("HELD_PRE_UPDATE");
    }

    @Test
    void aNodeGoneIsForgotten() {
        nodes.add(ClusterObjects.atRest("worker-0", TARGET));
        observer.sample(T0);
        nodes.clear();

        observer.onNodeDeleted("worker-0");
        observer.sample(T0.plusSeconds(1));

        assertThat(observer.history().nodes()).isEmpty();
        assertThat(observer.current()).isEmpty();
    }

    private void node(Node node) {
        nodes.removeIf(n -> n.getMetadata().getName().equals(node.getMetadata().getName()));
        nodes.add(node);
        observer.onNode(node, f.now());
    }
}
