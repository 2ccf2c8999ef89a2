package io.mcdhooks.bridge.mco;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeViewsTest {

    private final NodeViews views = new NodeViews();

    @Test
    void theSameNodeObjectIsViewedOnceAndANewObjectOrMachineConfigNodeAgain() {
        Node node = node("rendered-a");
        NodeView first = views.of(node, null);

        // The same object from the informer's store: the view already built
        assertThat(views.of(node, null)).isSameAs(first);

        // A new object for the node (a watch event): viewed again, with what changed
        NodeView updated = views.of(node("rendered-b"), null);
        assertThat(updated).isNotSameAs(first);
        assertThat(updated.desiredConfig()).isEqualTo("rendered-b");

        // A new MachineConfigNode view of the same node object: viewed again, with it
        Node same = node("rendered-c");
        views.of(same, null);
        McnView mcn = new McnView("worker", "rendered-c", "rendered-a", Map.of());
        assertThat(views.of(same, mcn).mcn()).isSameAs(mcn);
    }

    @Test
    void aForgottenNodeIsViewedAfreshFromTheObjectGiven() {
        Node node = node("rendered-a");
        NodeView first = views.of(node, null);

        views.forget("worker-0");

        assertThat(views.of(node, null)).isNotSameAs(first).isEqualTo(first);
    }

    private static Node node(String desired) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName("worker-0")
                .addToAnnotations(McoApi.DESIRED_CONFIG, desired)
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .build();
    }
}
