package io.mcdhooks.sandbox.bench;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.producer.ProducerRecord;

import io.mcdhooks.bridge.gate.Gatekeeper;
import io.mcdhooks.bridge.gate.HookSpec;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;

/**
 * Row 4, run in a JVM of its own so its resident memory is the gatekeeper's and nothing else's:
 * {@code nodes} post-update gates open at once, each waiting on {@code hooks} hooks, then every
 * hook's PASS on every gate. Measures the {@link Gatekeeper} core (the state the bridge keeps and
 * the {@code GateMachine} decisions) fed from the verdict records' bytes, as
 * {@code GatekeeperService} does after a poll: CloudEvents decoding and schema validation, then
 * the gate. Kafka's fetch, metrics and the lever writes are not in it. Prints one
 * {@code RESULT key=value ...} line.
 */
public final class GatekeeperProbe {

    /** Records a consumer poll returns at most (Kafka's default {@code max.poll.records}). */
    private static final int POLL = 500;

    private GatekeeperProbe() {
    }

    public static void main(String[] args) {
        int nodes = Integer.parseInt(args[0]);
        int hooks = Integer.parseInt(args[1]);
        List<String> hookNames = BenchBridge.hookNames(hooks);

        // A warm-up on a small rollout, so the timed one runs compiled code.
        run(Math.min(nodes, 500), hookNames, false);
        gc();
        long heapBefore = usedHeap();
        long rssBefore = Machine.residentKiB();
        Probe probe = run(nodes, hookNames, true);
        System.out.printf("RESULT rate=%.1f coreRate=%.1f verdicts=%d decisions=%d gates=%d heapBeforeKiB=%d "
                        + "openHeapKiB=%d openRssKiB=%d openCommittedKiB=%d answeredHeapKiB=%d answeredRssKiB=%d "
                        + "answeredCommittedKiB=%d rssBeforeKiB=%d peakRssKiB=%d%n",
                probe.rate, probe.coreRate, probe.verdicts, probe.decisions, nodes, heapBefore / 1024,
                probe.openHeap / 1024, probe.openRss, probe.openCommitted / 1024, probe.answeredHeap / 1024,
                probe.answeredRss, probe.answeredCommitted / 1024, rssBefore, Machine.peakResidentKiB());
    }

    private static final class Probe {
        double rate;
        double coreRate;
        long verdicts;
        long decisions;
        long openHeap;
        long openRss;
        long answeredHeap;
        long answeredRss;
        long openCommitted;
        long answeredCommitted;
    }

    private static Probe run(int nodes, List<String> hookNames, boolean measure) {
        Probe probe = new Probe();
        long[] decisions = new long[1];
        Gatekeeper gatekeeper = gatekeeper(hookNames, d -> decisions[0]++);
        List<GateRequest> requests = new ArrayList<>(nodes);
        for (int n = 0; n < nodes; n++) {
            GateRequest request = BenchKafka.postUpdateRequest(BenchBridge.CLUSTER, "worker-" + n,
                    "rendered-worker-probe");
            requests.add(request);
            gatekeeper.onGateRequest(request);
        }
        if (measure) {
            gc();
            probe.openHeap = usedHeap();
            probe.openRss = Machine.residentKiB();
            probe.openCommitted = Runtime.getRuntime().totalMemory();
        }
        // Verdicts as they come off the topic, a poll's worth at a time (max.poll.records): each
        // hook answers every gate, hooks interleaved. Encoding them is not timed.
        int total = nodes * hookNames.size();
        long elapsed = 0;
        List<ProducerRecord<String, byte[]>> batch = new ArrayList<>(POLL);
        for (int i = 0; i < total; i++) {
            batch.add(BenchKafka.pass("verdicts", requests.get(i % nodes), hookNames.get(i / nodes)));
            if (batch.size() == POLL || i == total - 1) {
                long start = System.nanoTime();
                for (ProducerRecord<String, byte[]> record : batch) {
                    Message message = BenchKafka.decode(record.key(), record.headers(), record.value());
                    gatekeeper.onVerdict((Verdict) message);
                }
                elapsed += System.nanoTime() - start;
                batch.clear();
            }
        }
        probe.verdicts = total;
        probe.rate = total / (elapsed / 1e9);
        probe.decisions = decisions[0];
        if (gatekeeper.gates().stream().anyMatch(g -> !g.released())) {
            throw new IllegalStateException("some gates were not released by every hook's PASS");
        }
        if (measure) {
            gc();
            probe.answeredHeap = usedHeap();
            probe.answeredRss = Machine.residentKiB();
            probe.answeredCommitted = Runtime.getRuntime().totalMemory();
            // The gates must still be there when the heap is measured, not collected as unused.
            java.lang.ref.Reference.reachabilityFence(gatekeeper);
            probe.coreRate = coreOnly(requests, hookNames);
        }
        return probe;
    }

    /** The gate machine alone, on verdicts already decoded. */
    private static double coreOnly(List<GateRequest> requests, List<String> hookNames) {
        Gatekeeper gatekeeper = gatekeeper(hookNames, d -> { });
        requests.forEach(gatekeeper::onGateRequest);
        List<Verdict> verdicts = new ArrayList<>(requests.size() * hookNames.size());
        Instant now = Instant.now();
        for (String hook : hookNames) {
            for (GateRequest request : requests) {
                verdicts.add(Verdict.answering(request, hook, io.mcdhooks.schemas.Outcome.PASS, "ChecksPassed", null,
                        null, now));
            }
        }
        long start = System.nanoTime();
        verdicts.forEach(gatekeeper::onVerdict);
        return verdicts.size() / ((System.nanoTime() - start) / 1e9);
    }

    private static Gatekeeper gatekeeper(List<String> hookNames, java.util.function.Consumer<GateDecision> decided) {
        Gatekeeper gatekeeper = new Gatekeeper(BenchBridge.CLUSTER, Clock.systemUTC(), decided);
        for (String name : hookNames) {
            gatekeeper.putHook(new HookSpec(name, Set.of(Stage.POST_UPDATE), Set.of(BenchBridge.POOL), Map.of(),
                    Duration.ofMinutes(30), Duration.ZERO, GateDecision.FailurePolicy.Fail, GateDecision.Mode.Enforcing,
                    HookSpec.PostUpdateFailure.Hold, false));
        }
        return gatekeeper;
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    private static void gc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
    }
}
