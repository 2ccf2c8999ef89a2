package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The MCO's counting rules applied to real nodes captured mid-update (see the fixture header). */
class NodeUpdateStateFixtureTest {

    private static final String WORKER_TARGET = "rendered-worker-a079988a31206987bed827f0242d7b3f";
    private static final String MASTER_TARGET = "rendered-master-1f718b5bc3667e49797e9a47d9f48725";

    private final List<Node> nodes = load();

    private static List<Node> load() {
        var list = new KubernetesSerialization()
                .unmarshal(
                        NodeUpdateStateFixtureTest.class.getResourceAsStream("/fixtures/nodes-mid-update.yaml"),
                        KubernetesList.class);
        return list.getItems().stream().map(Node.class::cast).toList();
    }

    private List<NodeUpdateState> pool(String role) {
        return nodes.stream()
                .filter(n -> n.getMetadata().getLabels().containsKey("node-role.kubernetes.io/" + role))
                .map(NodeUpdateState::of)
                .toList();
    }

    @Test
    void countsMatchThePoolStatusCapturedWithTheNodes() {
        // the captured pools report unavailable=1, updated=1, ready=1 (worker) and 1, 0, 0 (master)
        assertThat(UpdatePlanner.unavailable(pool("worker"))).hasSize(1);
        assertThat(pool("worker")).filteredOn(n -> n.updatedTo(WORKER_TARGET)).hasSize(1);
        assertThat(UpdatePlanner.unavailable(pool("master"))).hasSize(1);
        assertThat(pool("master")).filteredOn(n -> n.updatedTo(MASTER_TARGET)).isEmpty();
    }

    @Test
    void aCordonedWorkingNodeIsUnavailableAndATaintedDoneNodeIsNot() {
        NodeUpdateState draining = view("ip-10-0-22-179.us-east-2.compute.internal");
        NodeUpdateState waiting = view("ip-10-0-72-40.us-east-2.compute.internal");

        assertThat(draining.unschedulable()).isTrue();
        assertThat(draining.unavailable()).isTrue();
        assertThat(waiting.unavailable())
                .as("UpdateInProgress taint is ignored")
                .isFalse();
    }

    @Test
    void noCapacityIsLeftInTheWorkerPoolAtMaxUnavailableOne() {
        assertThat(UpdatePlanner.capacity(pool("worker"), WORKER_TARGET, MaxUnavailable.of(1)))
                .isZero();
        assertThat(UpdatePlanner.plan("worker", pool("worker"), WORKER_TARGET, MaxUnavailable.of(2), null)
                        .chosen())
                .extracting(NodeUpdateState::name)
                .containsExactly("ip-10-0-72-40.us-east-2.compute.internal");
    }

    private NodeUpdateState view(String name) {
        return nodes.stream()
                .filter(n -> n.getMetadata().getName().equals(name))
                .findFirst()
                .map(NodeUpdateState::of)
                .orElseThrow();
    }
}
