package io.mcdhooks.bridge;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.mcdhooks.bridge.publish.PublishedLog;
import io.mcdhooks.schemas.GateRequest;
import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * A part of the bridge that follows the cluster with it (the gatekeeper): it hears the bridge's
 * start, in its order, and every change the bridge sees, on the bridge's event loop.
 */
public interface ClusterListener {

    /** Before the read-back: watch what the part needs; completes once synced. */
    default Future<Void> startWatching() {
        return Future.succeededFuture();
    }

    /** What the read-back found, oldest first, before the MCO informers start. */
    default void recover(List<PublishedLog.Recovered> recovered) {}

    /** The cluster is known (the informers have synced): act, and read on from {@code ends}. */
    default Future<Void> follow(Map<TopicPartition, Long> ends) {
        return Future.succeededFuture();
    }

    default Future<Void> stop() {
        return Future.succeededFuture();
    }

    default void onPool(GenericKubernetesResource pool) {}

    default void onNode(Node node) {}

    default void onNodeDeleted(Node node) {}

    /** A gate request the bridge is publishing: heard in-process, before any hook can answer it. */
    default void onGateRequest(GateRequest request) {}
}
