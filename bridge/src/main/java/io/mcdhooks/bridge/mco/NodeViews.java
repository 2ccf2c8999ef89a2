package io.mcdhooks.bridge.mco;

import io.fabric8.kubernetes.api.model.Node;
import java.util.HashMap;
import java.util.Map;

/**
 * Each node's view as last built. A view copies the node's labels and annotations, and planning a
 * pool's pause views every node of the pool on each turn of the event loop; a view is built again
 * only for a new node object or a new MachineConfigNode view (informers replace objects, they do
 * not change them). Not thread-safe: the bridge's event loop owns it.
 */
public final class NodeViews {

    private record Built(Node node, McnView mcn, NodeView view) {}

    private final Map<String, Built> built = new HashMap<>();

    public NodeView of(Node node, McnView mcn) {
        String name = node.getMetadata().getName();
        Built last = built.get(name);
        if (last == null || last.node() != node || last.mcn() != mcn) {
            last = new Built(node, mcn, Views.node(node, mcn));
            built.put(name, last);
        }
        return last.view();
    }

    /** The node is gone. */
    public void forget(String name) {
        built.remove(name);
    }
}
