package io.mcdhooks.bridge.snapshots;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.mcdhooks.bridge.ClusterListener;
import io.mcdhooks.bridge.publish.RecordSender;
import io.mcdhooks.bridge.rollback.ConfigSnapshot;
import io.mcdhooks.bridge.rollback.SnapshotCodec;
import io.mcdhooks.bridge.rollback.SnapshotRetention;
import io.mcdhooks.bridge.rollback.SnapshotTaker;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records a snapshot of the MachineConfigs of every rendered config a pool targets, the first
 * time it targets it, on the compacted snapshots topic; keeps each pool's newest few
 * ({@link SnapshotRetention}) and lets the rest go. A rollback reads them back from here.
 *
 * <p>Confined to the bridge's event loop, but for the read at start.
 */
public final class SnapshotRecorder implements ClusterListener {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotRecorder.class);

    /** Where snapshots go and how many per pool are kept. */
    public record Settings(String cluster, KafkaSettings kafka, String topic, int kept) {}

    private final Vertx vertx;
    private final Settings settings;
    private final SnapshotCodec codec;
    private final RecordSender sender;
    private final Function<String, GenericKubernetesResource> machineConfigs;
    private final Supplier<Collection<GenericKubernetesResource>> pools;
    private final Clock clock;
    private final Map<String, ConfigSnapshot> snapshots = new HashMap<>();
    /** Keys sent and not yet acknowledged: not taken again meanwhile. */
    private final Set<String> sending = new HashSet<>();

    /**
     * @param machineConfigs the MachineConfigs informer's store, by name
     * @param pools          the pools informer's store, walked once the cluster is known
     */
    public SnapshotRecorder(
            Vertx vertx,
            Settings settings,
            SnapshotCodec codec,
            RecordSender sender,
            Function<String, GenericKubernetesResource> machineConfigs,
            Supplier<Collection<GenericKubernetesResource>> pools,
            Clock clock) {
        this.vertx = vertx;
        this.settings = settings;
        this.codec = codec;
        this.sender = sender;
        this.machineConfigs = machineConfigs;
        this.pools = pools;
        this.clock = clock;
    }

    @Override
    public Future<Void> startWatching() {
        return vertx.executeBlocking(() -> SnapshotLog.read(
                        settings.kafka(), settings.topic(), settings.cluster(), codec, Duration.ofMinutes(2)))
                .map(read -> {
                    snapshots.putAll(read);
                    LOG.atInfo()
                            .addKeyValue("snapshots", read.size())
                            .log("read back the config snapshots of cluster {}", settings.cluster());
                    return null;
                });
    }

    /** The cluster is known: a pool's target may have no snapshot yet (first start, or one missed). */
    @Override
    public Future<Void> follow(Map<TopicPartition, Long> ends) {
        pools.get().forEach(this::onPool);
        return Future.succeededFuture();
    }

    @Override
    public void onPool(GenericKubernetesResource pool) {
        SnapshotTaker.take(
                        settings.cluster(),
                        pool,
                        machineConfigs,
                        key -> snapshots.containsKey(key) || sending.contains(key),
                        clock.instant())
                .ifPresent(this::record);
        letGo(pool);
    }

    /** The snapshot of {@code pool}'s {@code renderedConfig}, if one was recorded. */
    public Optional<ConfigSnapshot> snapshot(String pool, String renderedConfig) {
        return Optional.ofNullable(snapshots.get(ConfigSnapshot.key(settings.cluster(), pool, renderedConfig)));
    }

    /** How many snapshots of this cluster are recorded. */
    public int size() {
        return snapshots.size();
    }

    private void record(ConfigSnapshot snapshot) {
        String key = snapshot.key();
        sending.add(key);
        SnapshotCodec.Sealed sealed;
        try {
            sealed = codec.encode(snapshot);
        } catch (RuntimeException e) {
            sending.remove(key);
            LOG.atError().addKeyValue("snapshot", key).setCause(e).log("cannot encode a config snapshot");
            return;
        }
        sender.send(SnapshotLog.record(settings.topic(), key, sealed)).onComplete(sent -> {
            sending.remove(key);
            if (sent.succeeded()) {
                snapshots.put(key, snapshot);
                LOG.atInfo()
                        .addKeyValue("pool", snapshot.pool())
                        .addKeyValue("config", snapshot.renderedConfig())
                        .addKeyValue("machineConfigs", snapshot.sources().size())
                        .addKeyValue("bytes", sealed.value().length)
                        .log("recorded a config snapshot");
            } else {
                // Taken again at the pool's next event (its informer resyncs every few minutes).
                LOG.atWarn()
                        .addKeyValue("snapshot", key)
                        .setCause(sent.cause())
                        .log(
                                "cannot record a config snapshot ({})",
                                sent.cause().getClass().getSimpleName());
            }
        });
    }

    private void letGo(GenericKubernetesResource pool) {
        String name = pool.getMetadata().getName();
        var ofPool =
                snapshots.values().stream().filter(s -> s.pool().equals(name)).toList();
        if (ofPool.size() <= settings.kept()) {
            return;
        }
        Set<String> inUse = new HashSet<>();
        Stream.of(configuration(pool, "spec"), configuration(pool, "status"))
                .filter(c -> c != null)
                .forEach(inUse::add);
        for (String key : SnapshotRetention.dropped(ofPool, settings.kept(), inUse)) {
            snapshots.remove(key);
            sender.send(SnapshotLog.tombstone(settings.topic(), key))
                    .onFailure(e -> LOG.atWarn()
                            .addKeyValue("snapshot", key)
                            .setCause(e)
                            .log("cannot let a config snapshot go; it is let go again after the next start"));
        }
    }

    private static String configuration(GenericKubernetesResource pool, String part) {
        return pool.getAdditionalProperties().get(part) instanceof Map<?, ?> m
                        && m.get("configuration") instanceof Map<?, ?> c
                        && c.get("name") instanceof String name
                ? name
                : null;
    }
}
