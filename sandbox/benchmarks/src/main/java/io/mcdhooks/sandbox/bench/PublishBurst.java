package io.mcdhooks.sandbox.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.MaxUnavailable;
import io.mcdhooks.sandbox.mco.Topology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Row 5: {@code nodes} workers are assigned an update at once (each node's {@code desiredConfig}
 * and {@code state=Working} written as fast as the API server takes them, 8 writers), with
 * {@code hooks} pre- and post-update hooks registered, so the gatekeeper pulls its levers on every
 * node meanwhile (or none: the bridge only publishes). Each node makes two lifecycle events
 * (update-assigned, working) and, with hooks, one pre-update gate request. Rate = messages read back from Kafka / (last message read − first
 * write); also the time from a node's write to its gate request, and when the writes ended.
 */
final class PublishBurst {

    record Result(
            double rate,
            long messages,
            long expected,
            double writesSeconds,
            double lastSeconds,
            Latency.Stats writeToRequest) {}

    private PublishBurst() {}

    static Result measure(String bootstrap, int nodes, int hooks) throws Exception {
        try (InMemoryCluster cluster = InMemoryCluster.start()) {
            KubernetesClient client = cluster.client();
            Topology topology = Topology.builder()
                    .masters(1)
                    .workers(nodes)
                    .maxUnavailable(BenchBridge.POOL, MaxUnavailable.percent(10))
                    .build();
            topology.apply(client);
            BenchBridge.prepare(
                    client,
                    BenchBridge.hookNames(hooks),
                    List.of(UpdateHookSpec.StageName.PRE_UPDATE, UpdateHookSpec.StageName.POST_UPDATE));
            // Without hooks no gate is requested: the bridge publishes lifecycle events only.
            long expected = (hooks > 0 ? 3L : 2L) * nodes;
            String target = "rendered-worker-bench-burst";
            BenchBridge.renderedConfig(client, target);
            try (BenchBridge bridge = BenchBridge.start(bootstrap, cluster);
                    KafkaConsumer<String, byte[]> reader = BenchKafka.reader(bootstrap)) {
                if (hooks > 0) {
                    // Pools with pre-update hooks are paused at rest: the gatekeeper has taken over.
                    BenchBridge.waitFor(
                            Duration.ofMinutes(3),
                            "the gatekeeper to pause the pool",
                            () -> BenchBridge.poolPaused(client));
                } else {
                    BenchBridge.waitFor(Duration.ofMinutes(3), "the bridge to be ready", bridge::ready);
                }
                String requestsTopic = bridge.config().gateRequestsTopic();
                List<TopicPartition> partitions = new ArrayList<>();
                for (String topic : List.of(bridge.config().lifecycleTopic(), requestsTopic)) {
                    reader.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
                }
                reader.assign(partitions);
                reader.seekToEnd(partitions);
                partitions.forEach(reader::position);

                List<String> names = topology.nodeNames(BenchBridge.POOL);
                Map<String, Long> writtenAt = new ConcurrentHashMap<>();
                String patch = "{\"metadata\":{\"annotations\":{\"" + McoApi.DESIRED_CONFIG + "\":\"" + target + "\",\""
                        + McoApi.STATE + "\":\"" + McoApi.STATE_WORKING + "\"}}}";
                ExecutorService writers = Executors.newFixedThreadPool(8);
                long start = System.nanoTime();
                List<Future<?>> writes = new ArrayList<>();
                for (String name : names) {
                    writes.add(writers.submit(() -> {
                        writtenAt.put(name, System.nanoTime());
                        client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
                    }));
                }
                Latency toRequest = new Latency();
                long messages = 0;
                long last = start;
                long writesDone = -1;
                long deadline = System.nanoTime() + Duration.ofMinutes(4).toNanos();
                while (messages < expected && System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, byte[]> record : reader.poll(Duration.ofMillis(50))) {
                        long now = System.nanoTime();
                        messages++;
                        last = now;
                        if (record.topic().equals(requestsTopic)) {
                            Long at = writtenAt.get(record.key());
                            if (at != null) {
                                toRequest.record(now - at);
                            }
                        }
                    }
                    if (writesDone < 0 && writes.stream().allMatch(Future::isDone)) {
                        writesDone = System.nanoTime();
                    }
                }
                for (Future<?> write : writes) {
                    write.get();
                }
                writers.shutdown();
                if (writesDone < 0) {
                    writesDone = System.nanoTime();
                }
                double seconds = (last - start) / 1e9;
                return new Result(
                        messages / seconds, messages, expected, (writesDone - start) / 1e9, seconds, toRequest.stats());
            }
        }
    }
}
