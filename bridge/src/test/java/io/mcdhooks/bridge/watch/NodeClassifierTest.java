package io.mcdhooks.bridge.watch;

import static io.mcdhooks.schemas.Transition.APPLIED;
import static io.mcdhooks.schemas.Transition.CORDONED;
import static io.mcdhooks.schemas.Transition.DEGRADED;
import static io.mcdhooks.schemas.Transition.DELETED;
import static io.mcdhooks.schemas.Transition.DONE;
import static io.mcdhooks.schemas.Transition.DRAINED;
import static io.mcdhooks.schemas.Transition.DRAIN_REQUESTED;
import static io.mcdhooks.schemas.Transition.REBOOTING;
import static io.mcdhooks.schemas.Transition.RECOVERED;
import static io.mcdhooks.schemas.Transition.RESUMED;
import static io.mcdhooks.schemas.Transition.UNCORDONED;
import static io.mcdhooks.schemas.Transition.UNCORDON_REQUESTED;
import static io.mcdhooks.schemas.Transition.UPDATE_ASSIGNED;
import static io.mcdhooks.schemas.Transition.WORKING;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.mcdhooks.bridge.mco.McnView;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.Views;
import io.mcdhooks.schemas.Transition;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

class NodeClassifierTest {

    private static final String OLD = "rendered-worker-1111";
    private static final String NEW = "rendered-worker-2222";

    @Test
    void derivesEachNodeOfARealClusterCapturedMidUpdate() throws Exception {
        // Given a node list captured from a real cluster mid-update, seen for the first time
        Map<String, NodeView> nodes = realNodes();

        // Then nodes at rest show nothing; nodes mid-update show what they went through, late
        assertThat(initial(nodes.get("ip-10-0-17-117.us-east-2.compute.internal")))
                .isEmpty();
        assertThat(initial(nodes.get("ip-10-0-72-40.us-east-2.compute.internal")))
                .isEmpty();
        List<Observed> draining = NodeClassifier.classify(
                NodeProgress.NONE, nodes.get("ip-10-0-22-179.us-east-2.compute.internal"), true);
        assertThat(draining)
                .extracting(Observed::transition)
                .containsExactly(UPDATE_ASSIGNED, WORKING, DRAIN_REQUESTED, CORDONED);
        assertThat(draining)
                .allMatch(Observed::late)
                .allMatch(o -> o.target().equals("rendered-worker-a079988a31206987bed827f0242d7b3f"));
        assertThat(initial(nodes.get("ip-10-0-33-81.us-east-2.compute.internal")))
                .containsExactly(UPDATE_ASSIGNED, WORKING, DRAIN_REQUESTED, CORDONED, DRAINED, APPLIED, REBOOTING);
    }

    @Test
    void followsTheDocumentedUpdateSequenceOneTransitionPerStep() {
        // Given the node states the MCD and the drain controller write, in the documented order
        Nodes n = Nodes.atRest("w1", OLD);
        List<NodeView> steps = new ArrayList<>();
        steps.add(n.view());
        steps.add(n.desired(NEW).view());
        steps.add(n.state(McoApi.STATE_WORKING).view());
        steps.add(n.desiredDrain("drain-" + NEW).view());
        steps.add(n.cordoned(true).view());
        steps.add(n.lastAppliedDrain("drain-" + NEW).view());
        steps.add(n.postConfigAction(McoApi.POST_CONFIG_REBOOTING).view());
        steps.add(n.ready(false).view());
        steps.add(n.ready(true).postConfigAction("").view());
        steps.add(n.desiredDrain("uncordon-" + NEW).view());
        steps.add(n.cordoned(false).lastAppliedDrain("uncordon-" + NEW).view());
        steps.add(n.current(NEW).state(McoApi.STATE_DONE).view());

        // When each step is classified as the bridge does, carrying what it published forward
        List<Observed> all = walk(steps);

        // Then every milestone appears once, in order, on time (REBOOTING implies APPLIED)
        assertThat(all)
                .extracting(Observed::transition)
                .containsExactly(
                        UPDATE_ASSIGNED,
                        WORKING,
                        DRAIN_REQUESTED,
                        CORDONED,
                        DRAINED,
                        APPLIED,
                        REBOOTING,
                        RESUMED,
                        UNCORDON_REQUESTED,
                        UNCORDONED,
                        DONE);
        assertThat(all.stream().filter(Observed::late).map(Observed::transition))
                .containsExactly(APPLIED);
        assertThat(all).allMatch(o -> o.target().equals(NEW));
    }

    @Test
    void publishesWhatAMissedWatchEventHidLate() {
        NodeView working =
                Nodes.atRest("w1", OLD).desired(NEW).state(McoApi.STATE_WORKING).view();
        NodeView rebooting = Nodes.atRest("w1", OLD)
                .desired(NEW)
                .state(McoApi.STATE_WORKING)
                .desiredDrain("drain-" + NEW)
                .lastAppliedDrain("drain-" + NEW)
                .cordoned(true)
                .postConfigAction(McoApi.POST_CONFIG_REBOOTING)
                .view();

        List<Observed> found = NodeClassifier.classify(working, rebooting);

        assertThat(found)
                .extracting(Observed::transition)
                .containsExactly(DRAIN_REQUESTED, CORDONED, DRAINED, APPLIED, REBOOTING);
        assertThat(found).extracting(Observed::late).containsExactly(true, true, true, true, false);
    }

    @Test
    void afterARestartPublishesOnlyWhatWasNotPublishedBefore() {
        // Given the bridge had published the update up to the drain request, then stopped
        NodeProgress published = NodeProgress.NONE;
        for (Transition t : List.of(UPDATE_ASSIGNED, WORKING, DRAIN_REQUESTED)) {
            published = published.after(new Observed(t, NEW, false, ""));
        }
        // And the node finished its update meanwhile
        NodeView done = Nodes.atRest("w1", NEW).view();

        // When the bridge lists the node again
        List<Observed> found = NodeClassifier.classify(published, done, true);

        // Then the rest is published late, and nothing twice
        assertThat(found)
                .extracting(Observed::transition)
                .containsExactly(CORDONED, DRAINED, APPLIED, RESUMED, UNCORDON_REQUESTED, UNCORDONED, DONE);
        assertThat(found).allMatch(Observed::late);
        assertThat(NodeClassifier.classify(replay(published, found), done, true))
                .isEmpty();
    }

    @Test
    void reportsDegradedWithItsReasonAndThenRecovery() {
        Nodes n = Nodes.atRest("w1", OLD).desired(NEW).state(McoApi.STATE_WORKING);
        NodeView working = n.view();
        NodeView degraded = n.state(McoApi.STATE_DEGRADED)
                .reason("failed to drain node: timed out")
                .view();
        NodeView again = n.state(McoApi.STATE_WORKING).reason("").view();

        List<Observed> all = walk(List.of(working, degraded, again));

        assertThat(all).extracting(Observed::transition).containsExactly(UPDATE_ASSIGNED, WORKING, DEGRADED, RECOVERED);
        assertThat(all.get(2).discriminator()).isEqualTo("failed to drain node: timed out");
    }

    @Test
    void treatsUnreconcilableAsDegradedAndToleratesUnknownStates() {
        NodeView unreconcilable = Nodes.atRest("w1", OLD)
                .desired(NEW)
                .state(McoApi.STATE_UNRECONCILABLE)
                .reason("ignition kernelArguments changed")
                .view();
        NodeView unknown =
                Nodes.atRest("w1", OLD).desired(NEW).state("Rebooting").view();

        assertThat(initial(unreconcilable)).containsExactly(UPDATE_ASSIGNED, DEGRADED);
        assertThat(initial(unknown)).containsExactly(UPDATE_ASSIGNED);
    }

    @Test
    void ignoresNodesTheMcoDoesNotManage() {
        assertThat(initial(Nodes.unmanaged("edge-0").view())).isEmpty();
        assertThat(NodeClassifier.classify(NodeProgress.NONE, null, false)).isEmpty();
    }

    @Test
    void followsImageModePoolsByTheirDesiredImage() {
        NodeView node = Nodes.atRest("w1", OLD)
                .set(McoApi.CURRENT_IMAGE, "registry/os@sha256:aa")
                .set(McoApi.DESIRED_IMAGE, "registry/os@sha256:bb")
                .view();

        List<Observed> found = NodeClassifier.classify(NodeProgress.NONE, node, true);

        assertThat(found).extracting(Observed::transition).containsExactly(UPDATE_ASSIGNED);
        assertThat(found.get(0).target()).isEqualTo(OLD + "@registry/os@sha256:bb");
    }

    @Test
    void aSingleNodePoolUpdatesWithoutDrainAndNoDrainIsInvented() {
        Nodes n = Nodes.atRest("sno", OLD);
        NodeView rest = n.view();
        NodeView working = n.desired(NEW).state(McoApi.STATE_WORKING).view();
        NodeView rebooting = n.postConfigAction(McoApi.POST_CONFIG_REBOOTING).view();
        NodeView back = n.postConfigAction("").view();
        NodeView done = n.current(NEW).state(McoApi.STATE_DONE).view();

        List<Observed> all = walk(List.of(rest, working, rebooting, back, done));

        assertThat(all)
                .extracting(Observed::transition)
                .containsExactly(UPDATE_ASSIGNED, WORKING, APPLIED, REBOOTING, RESUMED, DONE);
    }

    @Test
    void aNodeDeletedMidUpdateIsReportedAndOneDeletedAtRestIsNot() {
        NodeProgress midUpdate = NodeProgress.NONE.after(new Observed(UPDATE_ASSIGNED, NEW, false, ""));

        assertThat(NodeClassifier.classify(midUpdate, null, false))
                .extracting(Observed::transition)
                .containsExactly(DELETED);
        assertThat(NodeClassifier.classify(NodeProgress.NONE, null, false)).isEmpty();
    }

    @Test
    void takesMilestonesFromTheMachineConfigNodeWhereTheClusterServesOne() {
        McnView mcn = new McnView(
                "worker",
                NEW,
                OLD,
                Map.of(
                        McnView.UPDATE_PREPARED, new McnView.Condition(McnView.UPDATE_PREPARED, "True", "", ""),
                        McnView.APPLIED_FILES_AND_OS,
                                new McnView.Condition(McnView.APPLIED_FILES_AND_OS, "True", "", "")));
        NodeView node = Nodes.atRest("sno", OLD)
                .desired(NEW)
                .state(McoApi.STATE_WORKING)
                .mcn(mcn)
                .view();

        assertThat(initial(node)).containsExactly(UPDATE_ASSIGNED, WORKING, APPLIED);
    }

    @Test
    void aStaleMachineConfigNodeForAnotherConfigIsNotEvidence() {
        McnView stale = new McnView(
                "worker", OLD, OLD, Map.of(McnView.RESUMED, new McnView.Condition(McnView.RESUMED, "True", "", "")));
        NodeView node = Nodes.atRest("w1", OLD)
                .desired(NEW)
                .state(McoApi.STATE_WORKING)
                .mcn(stale)
                .view();

        assertThat(initial(node)).containsExactly(UPDATE_ASSIGNED, WORKING);
    }

    @Test
    void aNewTargetMidUpdateStartsANewSequence() {
        Nodes n = Nodes.atRest("w1", OLD).desired(NEW).state(McoApi.STATE_WORKING);
        NodeView first = n.view();
        NodeView retargeted = n.desired("rendered-worker-3333").view();

        assertThat(NodeClassifier.classify(first, retargeted))
                .extracting(Observed::transition, Observed::target)
                .containsExactly(
                        Tuple.tuple(UPDATE_ASSIGNED, "rendered-worker-3333"),
                        Tuple.tuple(WORKING, "rendered-worker-3333"));
    }

    /** Classifies each state in turn, carrying forward what was published, as the bridge does. */
    private static List<Observed> walk(List<NodeView> states) {
        List<Observed> all = new ArrayList<>();
        NodeProgress progress = NodeProgress.NONE;
        for (int i = 0; i < states.size(); i++) {
            List<Observed> found = NodeClassifier.classify(progress, states.get(i), i == 0);
            progress = replay(progress, found);
            all.addAll(found);
        }
        return all;
    }

    private static List<Transition> initial(NodeView node) {
        return NodeClassifier.classify(NodeProgress.NONE, node, true).stream()
                .map(Observed::transition)
                .toList();
    }

    private static NodeProgress replay(NodeProgress start, List<Observed> observed) {
        NodeProgress p = start;
        for (Observed o : observed) {
            p = p.after(o);
        }
        return p;
    }

    private static Map<String, NodeView> realNodes() throws Exception {
        try (InputStream in = NodeClassifierTest.class.getResourceAsStream("/nodes-mid-update.yaml")) {
            NodeList list = Serialization.unmarshal(in, NodeList.class);
            return list.getItems().stream()
                    .collect(Collectors.toMap((Node n) -> n.getMetadata().getName(), (Node n) -> Views.node(n, null)));
        }
    }
}
