package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The freshest known version of each Node: the informer's copy, or the API server's answer to
 * our own last write if the watch has not delivered it yet (compared by resourceVersion).
 *
 * <p>Without the second source the node controller could count a node it has just assigned as
 * still available and exceed maxUnavailable. Writes by others arrive through the informer only.
 */
final class NodeCache {

    private final SharedIndexInformer<Node> informer;
    private final ConcurrentHashMap<String, Node> written = new ConcurrentHashMap<>();

    NodeCache(SharedIndexInformer<Node> informer) {
        this.informer = informer;
    }

    Node get(String name) {
        Node fromWatch = informer.getStore().getByKey(name);
        Node fromWrite = written.get(name);
        return newer(fromWatch, fromWrite);
    }

    List<Node> all() {
        var out = new ArrayList<Node>();
        for (Node n : informer.getStore().list()) {
            out.add(newer(n, written.get(n.getMetadata().getName())));
        }
        return out;
    }

    void wrote(Node node) {
        written.merge(node.getMetadata().getName(), node, NodeCache::newer);
    }

    /** Drops our copy once the watch has caught up, so the map stays small. */
    void seen(Node node) {
        written.computeIfPresent(
                node.getMetadata().getName(), (k, mine) -> version(mine) <= version(node) ? null : mine);
    }

    static Node newer(Node a, Node b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return version(b) > version(a) ? b : a;
    }

    private static long version(Node n) {
        try {
            return Long.parseLong(n.getMetadata().getResourceVersion());
        } catch (NumberFormatException | NullPointerException e) {
            return -1;
        }
    }
}
