package io.mcdhooks.sandbox.bench;

import io.mcdhooks.bridge.gate.Gatekeeper;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Rows 4 and 4a as JMH benchmarks. One shot is a whole rollout's answers: every hook's PASS on
 * every one of {@link #gates} open post-update gates, hooks interleaved as they come off the
 * topic, fed to a {@link Gatekeeper} whose gates were opened before the shot (not timed).
 * {@link #decodeAndDecide} starts from the records' bytes, as {@code GatekeeperService} does after
 * a poll (CloudEvents headers, JSON Schema validation, Jackson, then the gate);
 * {@link #decide} from verdicts already decoded (the gate machine alone).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 5)
@Fork(
        value = 1,
        jvmArgsAppend = {GatekeeperBench.MAX_RAM, GatekeeperBench.MAX_RAM_PERCENTAGE})
public class GatekeeperBench {

    /**
     * The bridge image's JVM under its 1 GiB memory limit: {@code -XX:MaxRAMPercentage=75} of a
     * machine of 1 GiB, so the heap's initial and maximum sizes are the container's, not this
     * host's. Default GC (G1).
     */
    static final String MAX_RAM = "-XX:MaxRAM=1g";

    static final String MAX_RAM_PERCENTAGE = "-XX:MaxRAMPercentage=75";

    @Param("5000")
    public int gates;

    @Param("20")
    public int hooks;

    private List<String> hookNames;
    private List<GateRequest> requests;
    private List<ProducerRecord<String, byte[]>> records;
    private List<Verdict> verdicts;
    private Gatekeeper gatekeeper;
    private long decisions;

    /** Every shot's input, built once: encoding is not what is measured. */
    @Setup(Level.Trial)
    public void answers() {
        hookNames = BenchBridge.hookNames(hooks);
        requests = new ArrayList<>(gates);
        for (int n = 0; n < gates; n++) {
            requests.add(BenchKafka.postUpdateRequest(BenchBridge.CLUSTER, "worker-" + n, "rendered-worker-bench"));
        }
        records = new ArrayList<>(gates * hooks);
        verdicts = new ArrayList<>(gates * hooks);
        Instant now = Instant.now();
        for (String hook : hookNames) {
            for (GateRequest request : requests) {
                records.add(BenchKafka.pass("verdicts", request, hook));
                verdicts.add(Verdict.answering(request, hook, Outcome.PASS, "ChecksPassed", null, null, now));
            }
        }
    }

    /** Fresh gates for each shot, all open and waiting on every hook. */
    @Setup(Level.Iteration)
    public void openGates() {
        gatekeeper = GatekeeperProbe.gatekeeper(hookNames, d -> decisions++);
        requests.forEach(gatekeeper::onGateRequest);
    }

    /** A shot that left a gate unreleased measured something else than a rollout's answers. */
    @TearDown(Level.Iteration)
    public void everyGateReleased() {
        if (gatekeeper.gates().stream().anyMatch(g -> !g.released())) {
            throw new IllegalStateException("some gates were not released by every hook's PASS");
        }
    }

    @Benchmark
    public long decodeAndDecide() {
        for (ProducerRecord<String, byte[]> record : records) {
            gatekeeper.onVerdict((Verdict) BenchKafka.decode(record.key(), record.headers(), record.value()));
        }
        return decisions;
    }

    @Benchmark
    public long decide() {
        for (Verdict verdict : verdicts) {
            gatekeeper.onVerdict(verdict);
        }
        return decisions;
    }
}
