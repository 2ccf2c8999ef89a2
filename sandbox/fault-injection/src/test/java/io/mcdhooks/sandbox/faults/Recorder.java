package io.mcdhooks.sandbox.faults;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.mcdhooks.bridge.kube.McoInformers;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.sandbox.faults.History.KafkaEntry;
import io.mcdhooks.sandbox.faults.History.NodeState;
import io.mcdhooks.sandbox.faults.History.PoolState;
import io.mcdhooks.sandbox.mco.Mco;
import io.mcdhooks.schemas.codec.InvalidMessageException;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Records what happened from outside the system under test: every Node and MachineConfigPool
 * state the API server sends to a watch (its own client, never faulted), and every record of the
 * gate-request, verdict and decision topics with the broker's append time. Nothing here asks the
 * bridge or the gatekeeper what they believe.
 */
final class Recorder implements AutoCloseable {

    private final List<NodeState> nodes = new CopyOnWriteArrayList<>();
    private final List<PoolState> pools = new CopyOnWriteArrayList<>();
    private final List<KafkaEntry> kafka = new CopyOnWriteArrayList<>();
    private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();
    private final SharedIndexInformer<Node> nodeInformer;
    private final SharedIndexInformer<GenericKubernetesResource> poolInformer;
    private final SharedIndexInformer<Lease> leaseInformer;
    private final List<History.LeaseState> leases = new CopyOnWriteArrayList<>();
    private final ExecutorService kafkaLoop = Executors.newSingleThreadExecutor(r -> new Thread(r, "recorder-kafka"));
    private final KafkaConsumer<String, byte[]> consumer;
    private final CloudEventsKafka cloudEvents = new CloudEventsKafka(new MessageCodec());
    private volatile boolean running = true;
    private volatile String undecodable;

    Recorder(KubernetesClient client, String namespace, String bootstrapServers, List<TopicPartition> partitions) {
        leaseInformer = client.leases()
                .inNamespace(namespace)
                .inform(handler(l -> leases.add(new History.LeaseState(
                        l.getSpec().getHolderIdentity(),
                        l.getSpec().getRenewTime() == null
                                ? null
                                : l.getSpec().getRenewTime().toInstant(),
                        l.getSpec().getLeaseDurationSeconds() == null
                                ? 0
                                : l.getSpec().getLeaseDurationSeconds()))));
        nodeInformer = client.nodes().inform(handler(this::recordNode));
        poolInformer = client.genericKubernetesResources(Mco.POOLS).inform(handler(this::recordPool));
        consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false,
                        ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG,
                        500),
                new StringDeserializer(),
                new ByteArrayDeserializer());
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        kafkaLoop.submit(this::follow);
    }

    private void follow() {
        while (running) {
            try {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    try {
                        CloudEventsKafka.Received received = cloudEvents.fromRecord(r.key(), r.headers(), r.value());
                        kafka.add(new KafkaEntry(
                                Instant.ofEpochMilli(r.timestamp()),
                                r.topic(),
                                r.partition(),
                                r.offset(),
                                received.id(),
                                received.message()));
                    } catch (InvalidMessageException e) {
                        undecodable = r.topic() + "/" + r.partition() + "@" + r.offset() + ": " + e.getMessage();
                    }
                    positions.put(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
                }
            } catch (RuntimeException e) {
                // the broker may be away (a fault); the consumer reconnects on the next poll
            }
        }
        consumer.close();
    }

    /** Whether every record up to {@code endOffsets} has been read. */
    boolean caughtUp(Map<TopicPartition, Long> endOffsets) {
        return endOffsets.entrySet().stream().allMatch(e -> positions.getOrDefault(e.getKey(), 0L) >= e.getValue());
    }

    /** A record that could not be decoded, or null. */
    String undecodable() {
        return undecodable;
    }

    List<NodeState> nodes() {
        List<NodeState> copy = new ArrayList<>(nodes);
        // the in-memory API server's resourceVersion is one global counter: the order of writes
        copy.sort(Comparator.comparingLong(NodeState::resourceVersion));
        return copy;
    }

    List<PoolState> pools() {
        List<PoolState> copy = new ArrayList<>(pools);
        copy.sort(Comparator.comparingLong(PoolState::resourceVersion));
        return copy;
    }

    List<History.LeaseState> leases() {
        return List.copyOf(leases);
    }

    List<KafkaEntry> kafka() {
        return List.copyOf(kafka);
    }

    private void recordNode(Node node) {
        Map<String, String> a = node.getMetadata().getAnnotations() == null
                ? Map.of()
                : node.getMetadata().getAnnotations();
        boolean ready = node.getStatus() != null
                && node.getStatus().getConditions() != null
                && node.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        boolean tainted = node.getSpec().getTaints() != null
                && node.getSpec().getTaints().stream().anyMatch(t -> LeverPlan.POST_UPDATE_TAINT.equals(t.getKey()));
        nodes.add(new NodeState(
                Instant.now(),
                Long.parseLong(node.getMetadata().getResourceVersion()),
                node.getMetadata().getName(),
                ready,
                Boolean.TRUE.equals(node.getSpec().getUnschedulable()),
                tainted,
                a.get(McoApi.CURRENT_CONFIG),
                a.get(McoApi.DESIRED_CONFIG),
                a.get(McoApi.STATE),
                a.get(McoApi.LAST_APPLIED_DRAIN)));
    }

    @SuppressWarnings("unchecked")
    private void recordPool(GenericKubernetesResource pool) {
        Object paused = pool.get("spec", "paused");
        Object config = pool.get("status", "configuration", "name");
        List<Map<String, Object>> conditions = (List<Map<String, Object>>) pool.get("status", "conditions");
        boolean updated = conditions != null
                && conditions.stream().anyMatch(c -> "Updated".equals(c.get("type")) && "True".equals(c.get("status")));
        pools.add(new PoolState(
                Instant.now(),
                Long.parseLong(pool.getMetadata().getResourceVersion()),
                Boolean.TRUE.equals(paused),
                Objects.toString(config, null),
                updated));
    }

    /** Every state an object takes; a deletion is no state of it. */
    private static <T> ResourceEventHandler<T> handler(Consumer<T> record) {
        return McoInformers.levelHandler(record, (deleted, unknown) -> {});
    }

    @Override
    public void close() {
        leaseInformer.close();
        nodeInformer.close();
        poolInformer.close();
        running = false;
        kafkaLoop.shutdown();
        try {
            kafkaLoop.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
