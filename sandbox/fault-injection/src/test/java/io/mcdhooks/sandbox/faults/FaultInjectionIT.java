package io.mcdhooks.sandbox.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.sandbox.faults.FaultRun.Fault;
import io.mcdhooks.sandbox.faults.FaultRun.Result;
import io.mcdhooks.sandbox.faults.FaultRun.Spec;
import io.mcdhooks.sandbox.kafka.ForkedKafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Simulated rollouts under injected faults, each checked against the invariants. Short form by
 * default (CI); {@code -Dfaults.long=true} for the long one; {@code -Dfaults.seed=N} replays a
 * run: every run prints its seed. Results go to {@code target/fault-injection-report.md}.
 *
 * <p>Most runs have the shipped admission policy installed, so pools are not paused for post-update
 * gates and kube-apiserver keeps held nodes cordoned while the gatekeeper is killed; the others run
 * without it, on the batch-paced fallback. The short form has one of each; the long form kills the
 * gatekeeper over 50 times with the policy installed. The two tests run side by side
 * (junit-platform.properties): each run has its own cluster and child JVMs; the broker is shared.
 */
@Execution(ExecutionMode.CONCURRENT)
class FaultInjectionIT {

    private static final Logger LOG = LoggerFactory.getLogger(FaultInjectionIT.class);
    private static final boolean LONG = Boolean.getBoolean("faults.long");
    private static final List<Result> RESULTS = new ArrayList<>();
    private static ForkedKafkaBroker broker;
    private static long baseSeed;

    @BeforeAll
    static void startBroker() {
        String seed = System.getProperty("faults.seed", "");
        baseSeed = seed.isBlank() ? new Random().nextLong() & 0xffff_ffffL : Long.parseLong(seed.trim());
        broker = ForkedKafkaBroker.start(Map.of());
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
        writeReport();
    }

    @Test
    void gatekeeperBrokerAndHooksKilledMidRolloutNeverOpenAGateEarly() throws Exception {
        int runs = Integer.getInteger("faults.runs", LONG ? 6 : 1);
        List<Result> results = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            Map<Fault, Integer> faults = new EnumMap<>(Fault.class);
            // The short form keeps CI within its time: fewer workers and kills, every kind of fault.
            faults.put(Fault.GATEKEEPER_KILL, LONG ? 13 : 4);
            faults.put(Fault.BRIDGE_OUTAGE, LONG ? 2 : 1);
            faults.put(Fault.BROKER_RESTART, LONG ? 2 : 1);
            faults.put(Fault.RUNNER_KILL, LONG ? 3 : 1);
            // long: four runs with the policy (52 gatekeeper kills), two on the fallback
            boolean policy = !LONG || i < 4;
            String name = policy ? "mixed" : "mixed-fallback";
            results.add(record(new FaultRun(
                            broker, new Spec(name, baseSeed + i, LONG ? 8 : 6, 2, 1, faults, true, policy), logRoot())
                    .run()));
        }
        results.forEach(FaultInjectionIT::check);
    }

    @Test
    void twoReplicasRacingForTheLeaseNeverActTogether() throws Exception {
        int runs = LONG ? 2 : 1;
        List<Result> results = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            Map<Fault, Integer> faults = new EnumMap<>(Fault.class);
            faults.put(Fault.LEADER_KILL, LONG ? 3 : 1);
            faults.put(Fault.LEASE_LOSS, LONG ? 3 : 1);
            // short: on the fallback (the mixed run has the policy); long: one run of each
            boolean policy = LONG && i == 0;
            results.add(record(new FaultRun(
                            broker,
                            new Spec(
                                    policy ? "replicas" : "replicas-fallback",
                                    baseSeed + 100 + i,
                                    LONG ? 6 : 4,
                                    2,
                                    2,
                                    faults,
                                    false,
                                    policy),
                            logRoot())
                    .run()));
        }
        results.forEach(FaultInjectionIT::check);
    }

    /** Every run is reported as soon as it ends, also when an earlier one failed or a later one hangs. */
    private static Result record(Result result) {
        synchronized (RESULTS) {
            RESULTS.add(result);
            appendToReport((RESULTS.size() == 1 ? header() : "") + row(result));
        }
        LOG.info(
                "run {} seed {}: {} in {} s, violations {}",
                result.spec().name(),
                result.spec().seed(),
                result.injected(),
                result.duration().toSeconds(),
                result.violations());
        return result;
    }

    private static void check(Result result) {
        assertThat(result.violations())
                .as(
                        "run %s seed %d (replay with -Dfaults.seed=%d); logs in %s",
                        result.spec().name(), result.spec().seed(), baseSeed, result.logs())
                .isEmpty();
    }

    private static Path logRoot() {
        return Path.of("target", "faults");
    }

    private static void writeReport() {
        if (RESULTS.isEmpty()) {
            return;
        }
        Map<String, Long> totals = new TreeMap<>();
        int violations = 0;
        for (Result r : RESULTS) {
            r.injected().forEach((k, v) -> totals.merge(k, v, Long::sum));
            violations += r.violations().size();
        }
        appendToReport("\nTotals: " + RESULTS.size() + " runs, " + totals + ", violations " + violations + "\n\n");
    }

    private static String header() {
        return "## " + Instant.now() + (LONG ? " long" : " short") + " form, base seed " + baseSeed + ", "
                + Runtime.getRuntime().availableProcessors() + " cores\n\n"
                + "| run | seed | workers | replicas | faults injected | verdicts | decisions | bridge starts "
                + "| most unavailable | seconds | violations |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
    }

    private static String row(Result r) {
        return "| " + r.spec().name() + " | " + r.spec().seed() + " | "
                + r.spec().workers() + " (max "
                + r.spec().maxUnavailable() + ") | " + r.spec().replicas() + " | " + r.injected() + " | " + r.verdicts()
                + " | " + r.decisions() + " | " + r.bridgeStarts() + " | " + r.mostUnavailable() + " | "
                + r.duration().toSeconds() + " | "
                + (r.violations().isEmpty() ? "0" : r.violations().toString())
                + " |\n";
    }

    private static void appendToReport(String text) {
        String file = System.getProperty("faults.report");
        if (file == null) {
            return;
        }
        try {
            Files.writeString(Path.of(file), text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            LOG.warn("cannot write {}", file, e);
        }
    }
}
