package io.mcdhooks.sandbox.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.MaxUnavailable;
import io.mcdhooks.sandbox.mco.Topology;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.kafka.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Rows 2 and 3 on the in-memory API server with the bridge and its gatekeeper, one post-update
 * hook played by a plain Kafka consumer in the hook's group. The harness plays the MCD on a few
 * nodes, each in a closed loop, round after round with a new rendered config:
 * <ol>
 * <li>assign the update and "reboot" ({@code desiredConfig}, {@code state=Working},
 *     {@code post-config-action=Rebooting}); wait for the gatekeeper's taint;
 * <li><b>row 2</b>: clear {@code post-config-action} (the node is back: RESUMED) and time it until
 *     the hook's consumer receives the post-update GateRequest. The harness's own watch seeing the
 *     same write gives the API server's floor (write → watch event);
 * <li>finish the update as the MCD does (Done, uncordon requested and applied); wait for the
 *     gatekeeper's cordon;
 * <li><b>row 3</b>: produce the hook's PASS (the last required verdict) and time it until the
 *     harness's watch shows the node neither tainted nor cordoned.
 * </ol>
 */
final class GateLatency {

    static final String HOOK = "bench-check";
    private static final Duration STEP_LIMIT = Duration.ofSeconds(60);

    record Result(Latency.Stats toRequest, Latency.Stats apiFloor, Latency.Stats toRelease) {}

    private GateLatency() {}

    static Result measure(String bootstrap, int samples, int warmup, int concurrency) throws Exception {
        int rounds = (samples + warmup + concurrency - 1) / concurrency;
        int warmupRounds = (warmup + concurrency - 1) / concurrency;
        Latency toRequest = new Latency();
        Latency apiFloor = new Latency();
        Latency toRelease = new Latency();
        try (InMemoryCluster cluster = InMemoryCluster.start()) {
            KubernetesClient client = cluster.client();
            Topology topology = Topology.builder()
                    .masters(1)
                    .workers(concurrency)
                    .zones("us-east-2a")
                    .maxUnavailable(BenchBridge.POOL, MaxUnavailable.of(concurrency))
                    .build();
            topology.apply(client);
            BenchBridge.prepare(client, List.of(HOOK), List.of(UpdateHookSpec.StageName.POST_UPDATE));
            for (int r = 0; r < rounds; r++) {
                BenchBridge.renderedConfig(client, target(r));
            }
            Map<String, CompletableFuture<Long>> requests = new ConcurrentHashMap<>();
            try (NodeWatch watch = new NodeWatch(cluster.newClient());
                    BenchBridge bridge = BenchBridge.start(bootstrap, cluster);
                    KafkaProducer<String, byte[]> producer = BenchKafka.producer(bootstrap, "mcdhooks-hook-" + HOOK);
                    KafkaFloor.ConsumerLoop hook = new KafkaFloor.ConsumerLoop(
                            BenchKafka.groupConsumer(bootstrap, Topics.hookGroup(HOOK)),
                            List.of(bridge.config().gateRequestsTopic()),
                            record -> {
                                long now = System.nanoTime();
                                GateRequest request =
                                        (GateRequest) BenchKafka.decode(record.key(), record.headers(), record.value());
                                requests.computeIfAbsent(request.gateId(), id -> new CompletableFuture<>())
                                        .complete(now);
                            })) {
                hook.awaitAssignment(Duration.ofSeconds(60));
                ExecutorService nodes = Executors.newFixedThreadPool(concurrency);
                try {
                    AtomicInteger done = new AtomicInteger();
                    List<Future<?>> loops = new ArrayList<>();
                    for (String node : topology.nodeNames(BenchBridge.POOL)) {
                        loops.add(nodes.submit(() -> {
                            for (int r = 0; r < rounds; r++) {
                                boolean counted = r >= warmupRounds;
                                Sample s = cycle(client, watch, producer, bridge, requests, node, target(r));
                                if (counted && done.getAndIncrement() < samples) {
                                    toRequest.record(s.toRequest());
                                    apiFloor.record(s.apiFloor());
                                    toRelease.record(s.toRelease());
                                }
                            }
                            return null;
                        }));
                    }
                    for (Future<?> loop : loops) {
                        loop.get();
                    }
                } finally {
                    nodes.shutdownNow();
                }
            }
        }
        return new Result(toRequest.stats(), apiFloor.stats(), toRelease.stats());
    }

    private record Sample(long toRequest, long apiFloor, long toRelease) {}

    private static Sample cycle(
            KubernetesClient client,
            NodeWatch watch,
            KafkaProducer<String, byte[]> producer,
            BenchBridge bridge,
            Map<String, CompletableFuture<Long>> requests,
            String node,
            String target) {
        // 1. Assigned and rebooting; the gatekeeper taints the node on its way.
        CompletableFuture<Long> tainted = watch.when(node, NodeWatch::tainted);
        annotate(
                client,
                node,
                Map.of(
                        McoApi.DESIRED_CONFIG,
                        target,
                        McoApi.STATE,
                        McoApi.STATE_WORKING,
                        McoApi.POST_CONFIG_ACTION,
                        McoApi.POST_CONFIG_REBOOTING));
        KafkaFloor.await(tainted.orTimeout(STEP_LIMIT.toSeconds(), TimeUnit.SECONDS), "the taint on " + node);

        // 2. Back from the reboot: the transition that opens the post-update gate.
        String gateId = GateId.of(BenchBridge.CLUSTER, Stage.POST_UPDATE, node, target);
        CompletableFuture<Long> request = requests.computeIfAbsent(gateId, id -> new CompletableFuture<>());
        CompletableFuture<Long> written =
                watch.when(node, n -> "".equals(NodeWatch.annotation(n, McoApi.POST_CONFIG_ACTION)));
        long changed = System.nanoTime();
        annotate(client, node, Map.of(McoApi.POST_CONFIG_ACTION, ""));
        long received = KafkaFloor.await(request, "the gate request " + gateId);
        long watched = KafkaFloor.await(written, "the watch event of " + node);
        requests.remove(gateId);

        // 3. The MCD finishes and asks to uncordon; the gatekeeper cordons again.
        CompletableFuture<Long> cordoned = watch.when(node, NodeWatch::cordonedByGatekeeper);
        annotate(
                client,
                node,
                Map.of(
                        McoApi.CURRENT_CONFIG,
                        target,
                        McoApi.STATE,
                        McoApi.STATE_DONE,
                        McoApi.DESIRED_DRAIN,
                        McoApi.UNCORDON_PREFIX + target,
                        McoApi.LAST_APPLIED_DRAIN,
                        McoApi.UNCORDON_PREFIX + target));
        KafkaFloor.await(cordoned, "the gatekeeper's cordon on " + node);

        // 4. The last required verdict: the node is released.
        CompletableFuture<Long> released = watch.when(node, NodeWatch::released);
        // The verdict echoes what the gatekeeper compares: gate, attempt, stage, pool, node, target.
        GateRequest gate = BenchKafka.postUpdateRequest(BenchBridge.CLUSTER, node, target);
        var verdict = BenchKafka.pass(bridge.config().verdictsTopic(), gate, HOOK);
        long passed = System.nanoTime();
        producer.send(verdict);
        long free = KafkaFloor.await(released, "the release of " + node);
        return new Sample(received - changed, watched - changed, free - passed);
    }

    private static void annotate(KubernetesClient client, String node, Map<String, String> annotations) {
        StringBuilder json = new StringBuilder("{\"metadata\":{\"annotations\":{");
        boolean first = true;
        for (var e : annotations.entrySet()) {
            json.append(first ? "" : ",")
                    .append('"')
                    .append(e.getKey())
                    .append("\":\"")
                    .append(e.getValue())
                    .append('"');
            first = false;
        }
        json.append("}}}");
        client.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE), json.toString());
    }

    static String target(int round) {
        return "rendered-worker-bench-" + round;
    }
}
