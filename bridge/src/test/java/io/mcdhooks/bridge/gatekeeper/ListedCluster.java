package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.Views;
import io.mcdhooks.bridge.metrics.BridgeMetrics;
import io.mcdhooks.bridge.rollback.ConfigSnapshot;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gatekeeper's view of a cluster as fixed lists, every node in pool "worker", counting how
 * often the gatekeeper scans every node: what a lever plan costs.
 */
final class ListedCluster implements Cluster {

    final AtomicInteger scans = new AtomicInteger();
    private final List<Node> nodes;
    private volatile GenericKubernetesResource pool;

    /** @param pool the "worker" pool, or {@code null} for none */
    ListedCluster(List<Node> nodes, GenericKubernetesResource pool) {
        this.nodes = nodes;
        this.pool = pool;
    }

    /** The "worker" pool as the informer would see it after the MCC's write. */
    void pool(GenericKubernetesResource pool) {
        this.pool = pool;
    }

    /** {@code count} worker nodes, {@code worker-0} on, at rest and unmanaged by the MCO. */
    static List<Node> workers(int count) {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            nodes.add(new NodeBuilder()
                    .withNewMetadata()
                    .withName("worker-" + i)
                    .addToLabels("node-role.kubernetes.io/worker", "")
                    .endMetadata()
                    .withNewSpec()
                    .endSpec()
                    .build());
        }
        return nodes;
    }

    /** A gatekeeper service over this cluster, writing through {@code client}, with no Kafka behind it. */
    GatekeeperService service(Vertx vertx, Context context, KubernetesClient client) {
        GatekeeperService.Settings settings = new GatekeeperService.Settings(
                "test",
                KafkaSettings.of(Map.of("bootstrap.servers", "127.0.0.1:9")),
                "requests",
                "verdicts",
                "dead-letter",
                "mcdhooks",
                "pause",
                Duration.ofSeconds(1),
                Duration.ofSeconds(10),
                10,
                Duration.ofMinutes(2),
                Duration.ofMinutes(1),
                false);
        return new GatekeeperService(
                vertx,
                context,
                client,
                settings,
                this,
                null,
                record -> Future.failedFuture("no Kafka here"),
                BridgeMetrics.create(),
                Clock.systemUTC());
    }

    @Override
    public Node node(String name) {
        return nodes.stream()
                .filter(n -> n.getMetadata().getName().equals(name))
                .findFirst()
                .orElse(null);
    }

    @Override
    public List<Node> nodes() {
        scans.incrementAndGet();
        return nodes;
    }

    @Override
    public GenericKubernetesResource pool(String name) {
        return "worker".equals(name) ? pool : null;
    }

    @Override
    public NodeView view(Node node) {
        return Views.node(node, null);
    }

    @Override
    public String poolOf(NodeView node) {
        return "worker";
    }

    /** Every change here reboots, so drains: the gate pod holds pre-update gates. */
    @Override
    public GateRequest.Disruption disruption(NodeView node, String target) {
        return new GateRequest.Disruption("reboot", true, true, List.of(new GateRequest.Action("Reboot", null)));
    }

    /** No MachineConfigs here. */
    @Override
    public GenericKubernetesResource machineConfig(String name) {
        return null;
    }

    @Override
    public Optional<ConfigSnapshot> snapshot(String pool, String renderedConfig) {
        return Optional.empty();
    }
}
