package io.mcdhooks.sandbox.bench;

import io.mcdhooks.bridge.gate.Gatekeeper;
import io.mcdhooks.bridge.gate.RegisteredHook;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import java.lang.ref.Reference;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Rows 4b–4e, run in a JVM of its own so its resident memory is the gatekeeper's and nothing
 * else's: {@code nodes} post-update gates open at once, each waiting on {@code hooks} hooks, then
 * every hook's PASS on every gate, fed from the verdict records' bytes as
 * {@code GatekeeperService} does after a poll. Measures the memory of the {@link Gatekeeper} core
 * (the state the bridge keeps) with the decoding going on; its speed is {@link GatekeeperBench}'s.
 * Prints one {@code RESULT key=value ...} line.
 */
public final class GatekeeperProbe {

    /** Records a consumer poll returns at most (Kafka's default {@code max.poll.records}). */
    private static final int POLL = 500;

    private GatekeeperProbe() {}

    public static void main(String[] args) {
        int nodes = Integer.parseInt(args[0]);
        int hooks = Integer.parseInt(args[1]);
        List<String> hookNames = BenchBridge.hookNames(hooks);

        // A warm-up on a small rollout first, as the bridge has run before such a burst.
        run(Math.min(nodes, 500), hookNames, false);
        gc();
        long heapBefore = usedHeap();
        long rssBefore = Machine.residentKiB();
        Probe probe = run(nodes, hookNames, true);
        System.out.printf(
                "RESULT gates=%d heapBeforeKiB=%d openHeapKiB=%d openRssKiB=%d openCommittedKiB=%d "
                        + "answeredHeapKiB=%d answeredRssKiB=%d answeredCommittedKiB=%d rssBeforeKiB=%d "
                        + "peakRssKiB=%d%n",
                nodes,
                heapBefore / 1024,
                probe.openHeap / 1024,
                probe.openRss,
                probe.openCommitted / 1024,
                probe.answeredHeap / 1024,
                probe.answeredRss,
                probe.answeredCommitted / 1024,
                rssBefore,
                Machine.peakResidentKiB());
    }

    private static final class Probe {
        long openHeap;
        long openRss;
        long answeredHeap;
        long answeredRss;
        long openCommitted;
        long answeredCommitted;
    }

    private static Probe run(int nodes, List<String> hookNames, boolean measure) {
        Probe probe = new Probe();
        Gatekeeper gatekeeper = gatekeeper(hookNames, d -> {});
        List<GateRequest> requests = new ArrayList<>(nodes);
        for (int n = 0; n < nodes; n++) {
            GateRequest request =
                    BenchKafka.postUpdateRequest(BenchBridge.CLUSTER, "worker-" + n, "rendered-worker-probe");
            requests.add(request);
            gatekeeper.onGateRequest(request);
        }
        if (measure) {
            gc();
            probe.openHeap = usedHeap();
            probe.openRss = settledResidentKiB();
            probe.openCommitted = Runtime.getRuntime().totalMemory();
        }
        // Verdicts as they come off the topic, a poll's worth at a time (max.poll.records): each
        // hook answers every gate, hooks interleaved.
        int total = nodes * hookNames.size();
        List<ProducerRecord<String, byte[]>> batch = new ArrayList<>(POLL);
        for (int i = 0; i < total; i++) {
            batch.add(BenchKafka.pass("verdicts", requests.get(i % nodes), hookNames.get(i / nodes)));
            if (batch.size() == POLL || i == total - 1) {
                for (ProducerRecord<String, byte[]> record : batch) {
                    Message message = BenchKafka.decode(record.key(), record.headers(), record.value());
                    gatekeeper.onVerdict((Verdict) message);
                }
                batch.clear();
            }
        }
        if (gatekeeper.gates().stream().anyMatch(g -> !g.released())) {
            throw new IllegalStateException("some gates were not released by every hook's PASS");
        }
        if (measure) {
            gc();
            probe.answeredHeap = usedHeap();
            probe.answeredRss = settledResidentKiB();
            probe.answeredCommitted = Runtime.getRuntime().totalMemory();
            // The gates must still be there when the heap is measured, not collected as unused.
            Reference.reachabilityFence(gatekeeper);
        }
        return probe;
    }

    static Gatekeeper gatekeeper(List<String> hookNames, Consumer<GateDecision> decided) {
        Gatekeeper gatekeeper = new Gatekeeper(BenchBridge.CLUSTER, Clock.systemUTC(), decided);
        for (String name : hookNames) {
            gatekeeper.putHook(new RegisteredHook(
                    name,
                    Set.of(Stage.POST_UPDATE),
                    Set.of(BenchBridge.POOL),
                    Map.of(),
                    Duration.ofMinutes(30),
                    Duration.ZERO,
                    GateDecision.FailurePolicy.Fail,
                    GateDecision.Mode.Enforcing,
                    RegisteredHook.PostUpdateFailure.Hold,
                    false));
        }
        return gatekeeper;
    }

    /**
     * Resident size once it stops falling after a GC. G1 gives shrunk heap regions back to the OS
     * from a background task after the collection returns, so a reading taken at once still counts
     * memory the heap no longer holds. Sampled every 100 ms until 1 s brings no drop, at most 15 s.
     */
    private static long settledResidentKiB() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        long lowest = Machine.residentKiB();
        long lowestAt = System.nanoTime();
        while (System.nanoTime() - lowestAt < TimeUnit.SECONDS.toNanos(1) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            long now = Machine.residentKiB();
            if (now < lowest - 1024) {
                lowest = now;
                lowestAt = System.nanoTime();
            }
        }
        return Math.min(lowest, Machine.residentKiB());
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
