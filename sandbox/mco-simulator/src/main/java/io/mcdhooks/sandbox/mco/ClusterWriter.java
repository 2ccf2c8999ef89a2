package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Writes to Nodes the way the mock API server supports and another writer cannot clobber:
 * annotations by JSON Patch (a server-side, per-key change), and everything that replaces a list
 * (taints, conditions) by resourceVersion-checked update, retried on conflict.
 */
final class ClusterWriter {

    private static final int MAX_CONFLICT_RETRIES = 20;

    private final KubernetesClient client;
    private final NodeCache nodes;

    ClusterWriter(KubernetesClient client, NodeCache nodes) {
        this.client = client;
        this.nodes = nodes;
    }

    /** Sets annotations with one JSON Patch ({@code add} replaces an existing key). */
    Node annotate(String node, Map<String, String> annotations) {
        return annotate(node, annotations, List.of());
    }

    /** Sets and removes annotations with one JSON Patch; {@code remove} names keys that are present. */
    Node annotate(String node, Map<String, String> annotations, List<String> remove) {
        var ops = new ArrayList<Map<String, Object>>();
        annotations.forEach(
                (k, v) -> ops.add(Map.of("op", "add", "path", "/metadata/annotations/" + escape(k), "value", v)));
        remove.forEach(k -> ops.add(Map.of("op", "remove", "path", "/metadata/annotations/" + escape(k))));
        Node updated = client.nodes()
                .withName(node)
                .patch(
                        PatchContext.of(PatchType.JSON),
                        client.getKubernetesSerialization().asJson(ops));
        nodes.wrote(updated);
        return updated;
    }

    /**
     * Applies {@code change} to the freshest copy and updates with its resourceVersion; on a
     * conflict re-reads from the server and tries again. {@code change} returns null for "nothing
     * to do" and must be idempotent.
     */
    Node update(String node, UnaryOperator<Node> change) {
        return write(node, change, false);
    }

    /** As {@link #update}, through the status subresource (node conditions). */
    Node updateStatus(String node, UnaryOperator<Node> change) {
        return write(node, change, true);
    }

    private Node write(String name, UnaryOperator<Node> change, boolean status) {
        Node base = nodes.get(name);
        for (int attempt = 0; ; attempt++) {
            if (base == null) {
                return null;
            }
            Node changed = change.apply(client.getKubernetesSerialization().clone(base));
            if (changed == null) {
                return base;
            }
            try {
                var resource = client.nodes().resource(changed);
                Node updated = status ? resource.updateStatus() : resource.update();
                nodes.wrote(updated);
                return updated;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt >= MAX_CONFLICT_RETRIES) {
                    throw e;
                }
                base = client.nodes().withName(name).get();
                if (base != null) {
                    nodes.wrote(base);
                }
            }
        }
    }

    /** JSON Pointer escaping of one path segment. */
    static String escape(String segment) {
        return segment.replace("~", "~0").replace("/", "~1");
    }
}
