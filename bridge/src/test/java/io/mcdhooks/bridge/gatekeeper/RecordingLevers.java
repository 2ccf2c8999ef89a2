package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.vertx.core.Future;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** Levers that move nothing and remember what they were last asked for, per node and per pool. */
final class RecordingLevers implements Levers {

    /** What each node's levers were last brought to. */
    final Map<String, LeverPlan.NodeLevers> nodes = new ConcurrentHashMap<>();
    /** What each pool's pause was last brought to; empty: no say. */
    final Map<String, Optional<Boolean>> pools = new ConcurrentHashMap<>();
    /** Nodes whose gate pod and budget exist. */
    final Set<String> gatePods = ConcurrentHashMap.newKeySet();
    /** Nodes a cordoning write of which is on its way. */
    final Set<String> cordoning = ConcurrentHashMap.newKeySet();

    @Override
    public Future<Void> watch(Consumer<String> changed) {
        return Future.succeededFuture();
    }

    @Override
    public boolean gatePodReady(String node) {
        return gatePods.contains(node);
    }

    @Override
    public boolean cordoning(String node) {
        return cordoning.contains(node);
    }

    @Override
    public Map<String, String> gatePodsNotHolding() {
        return Map.of();
    }

    @Override
    public void applyNode(Node current, LeverPlan.NodeLevers want, Runnable planAgain) {
        nodes.put(current.getMetadata().getName(), want);
    }

    @Override
    public void applyPool(GenericKubernetesResource pool, Boolean paused, Runnable planAgain) {
        pools.put(pool.getMetadata().getName(), Optional.ofNullable(paused));
    }

    @Override
    public void nodeDeleted(String node, Runnable planAgain) {
        nodes.remove(node);
    }

    @Override
    public void stop() {}
}
