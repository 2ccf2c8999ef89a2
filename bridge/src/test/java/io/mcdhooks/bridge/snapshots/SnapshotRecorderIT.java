package io.mcdhooks.bridge.snapshots;

import static io.mcdhooks.bridge.rollback.MachineConfigObjects.mc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.mcdhooks.bridge.TestEnvironment;
import io.mcdhooks.bridge.publish.KafkaRecordSender;
import io.mcdhooks.bridge.publish.TopicSetup;
import io.mcdhooks.bridge.rollback.ConfigSnapshot;
import io.mcdhooks.bridge.rollback.Ownership;
import io.mcdhooks.bridge.rollback.SnapshotCodec;
import io.mcdhooks.bridge.rollback.SourceConfig;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.kafka.junit.KafkaBrokerExtension;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.sign.StateSeal;
import io.vertx.core.Context;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Config snapshots on a real broker's compacted topic: recorded once, sealed, bounded, read back after a restart. */
@ExtendWith(KafkaBrokerExtension.class)
class SnapshotRecorderIT {

    private static final String CLUSTER = "snap-cluster";
    private static final Map<String, String> WORKER = Map.of("machineconfiguration.openshift.io/role", "worker");

    private final KafkaBroker broker;
    private final Map<String, GenericKubernetesResource> machineConfigs = new HashMap<>();
    private final AtomicReference<GenericKubernetesResource> pool = new AtomicReference<>();
    private final List<KafkaRecordSender> senders = new ArrayList<>();
    private Vertx vertx;
    private Context context;
    private KafkaSettings kafka;
    private String topic;
    private Instant now = Instant.parse("2026-12-03T10:00:00Z");

    SnapshotRecorderIT(KafkaBroker broker) {
        this.broker = broker;
    }

    @BeforeEach
    void setUp() {
        vertx = Vertx.vertx();
        context = vertx.getOrCreateContext();
        kafka = KafkaSettings.of(Map.of("bootstrap.servers", broker.bootstrapServers()));
        topic = "snapshots-" + UUID.randomUUID().toString().substring(0, 8);
        TopicSetup.ensure(kafka, List.of(topic), 3, Map.of(topic, Map.of("cleanup.policy", "compact")));
        machineConfigs.put(
                "00-worker", mc("00-worker", Map.of(Ownership.GENERATED_BY, "v1"), Map.of("osImageURL", "a")));
        machineConfigs.put("99-worker-kargs", mc("99-worker-kargs", Map.of(), kargs("nosmt")));
    }

    @AfterEach
    void tearDown() {
        senders.forEach(KafkaRecordSender::close);
        vertx.close().await();
    }

    @Test
    void eachTargetIsRecordedOnceAsItWasAndReadBackAfterARestart() {
        target("rendered-worker-1", "rendered-worker-1");
        SnapshotRecorder recorder = started(5);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> recorder.snapshot("worker", "rendered-worker-1").isPresent());

        // The administrator's change: the same MachineConfig, another kernel argument
        machineConfigs.put("99-worker-kargs", mc("99-worker-kargs", Map.of(), kargs("nosmt", "mitigations=off")));
        target("rendered-worker-2", "rendered-worker-1");
        onPool(recorder);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> recorder.snapshot("worker", "rendered-worker-2").isPresent());
        onPool(recorder);

        SnapshotRecorder restarted = started(5);
        assertThat(restarted.size()).isEqualTo(2);
        SourceConfig before = restarted
                .snapshot("worker", "rendered-worker-1")
                .orElseThrow()
                .source("99-worker-kargs")
                .orElseThrow();
        assertThat(before.spec()).isEqualTo(kargs("nosmt"));
        assertThat(restarted
                        .snapshot("worker", "rendered-worker-2")
                        .orElseThrow()
                        .source("00-worker")
                        .orElseThrow()
                        .spec())
                .as("a controller's MachineConfig is kept as its digest")
                .isEmpty();
        assertThat(records())
                .as("each recorded once, however often its pool was seen")
                .hasSize(2);
    }

    @Test
    void aRecordThisClustersBridgeDidNotSealIsNeverReadBack() throws Exception {
        var other = new StateSeal(Files.readAllBytes(TestEnvironment.stateKeyFile("another-cluster")));
        ConfigSnapshot forged = new ConfigSnapshot(
                CLUSTER,
                "worker",
                "rendered-worker-9",
                now,
                List.of(SourceConfig.of("99-worker-kargs", WORKER, List.of(), kargs("init=/bin/sh"))));
        sender().send(SnapshotLog.record(topic, forged.key(), new SnapshotCodec(CLUSTER, other).encode(forged)))
                .await();

        assertThat(started(5).snapshot("worker", "rendered-worker-9")).isEmpty();
    }

    @Test
    void aPoolKeepsItsNewestSnapshotsAndTheConfigItsNodesAreOn() {
        SnapshotRecorder recorder = started(2);
        for (int i = 1; i <= 4; i++) {
            String config = "rendered-worker-" + i;
            machineConfigs.put("99-worker-kargs", mc("99-worker-kargs", Map.of(), kargs("n=" + i)));
            // The pool's nodes stay on the first config all along (a rollout held at its first node)
            target(config, "rendered-worker-1");
            onPool(recorder);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> recorder.snapshot("worker", config).isPresent());
        }
        onPool(recorder);

        // What a restart reads back: the tombstone let rendered-worker-2 go
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(SnapshotLog.read(
                                        kafka,
                                        topic,
                                        CLUSTER,
                                        new SnapshotCodec(CLUSTER, seal()),
                                        Duration.ofSeconds(30))
                                .keySet())
                        .containsExactlyInAnyOrder(
                                key("rendered-worker-1"), key("rendered-worker-3"), key("rendered-worker-4")));
    }

    private static String key(String config) {
        return ConfigSnapshot.key(CLUSTER, "worker", config);
    }

    private SnapshotRecorder started(int kept) {
        var recorder = new SnapshotRecorder(
                vertx,
                new SnapshotRecorder.Settings(CLUSTER, kafka, topic, kept),
                new SnapshotCodec(CLUSTER, seal()),
                sender(),
                machineConfigs::get,
                () -> pool.get() == null ? List.of() : List.of(pool.get()),
                Clock.fixed(now, ZoneOffset.UTC));
        recorder.startWatching().await();
        // The recorder is confined to an event loop, as the bridge's is
        runOn(() -> recorder.follow(Map.of()));
        return recorder;
    }

    private void onPool(SnapshotRecorder recorder) {
        runOn(() -> recorder.onPool(pool.get()));
    }

    private void target(String spec, String status) {
        now = now.plusSeconds(60);
        List<Map<String, String>> sources = machineConfigs.keySet().stream()
                .sorted()
                .map(name -> Map.of("kind", "MachineConfig", "name", name))
                .toList();
        pool.set(new GenericKubernetesResourceBuilder()
                .withApiVersion("machineconfiguration.openshift.io/v1")
                .withKind("MachineConfigPool")
                .withNewMetadata()
                .withName("worker")
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("configuration", Map.of("name", spec, "source", sources)))
                .addToAdditionalProperties("status", Map.of("configuration", Map.of("name", status)))
                .build());
    }

    private void runOn(Runnable action) {
        Promise<Void> done = Promise.promise();
        context.runOnContext(v -> {
            action.run();
            done.complete();
        });
        done.future().await();
    }

    private KafkaRecordSender sender() {
        var sender = new KafkaRecordSender(vertx, kafka, "snapshots-it");
        senders.add(sender);
        return sender;
    }

    private static StateSeal seal() {
        try {
            return new StateSeal(Files.readAllBytes(TestEnvironment.stateKeyFile(CLUSTER)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The keys of every record on the topic, as written (nothing is compacted this soon). */
    private List<String> records() {
        Map<String, Object> config = new HashMap<>(kafka.asMap());
        config.put("group.id", "snapshots-it-" + UUID.randomUUID());
        config.put("auto.offset.reset", "earliest");
        List<String> keys = new ArrayList<>();
        try (var consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(r -> keys.add(r.key()));
                var assigned = consumer.assignment();
                if (!assigned.isEmpty()
                        && consumer.endOffsets(assigned).entrySet().stream()
                                .allMatch(e -> consumer.position(e.getKey()) >= e.getValue())) {
                    break;
                }
            }
        }
        return keys;
    }

    private static Map<String, Object> kargs(String... args) {
        var spec = new LinkedHashMap<String, Object>();
        spec.put("kernelArguments", List.of(args));
        return spec;
    }
}
