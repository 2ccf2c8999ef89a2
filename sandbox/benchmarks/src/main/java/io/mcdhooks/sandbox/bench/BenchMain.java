package io.mcdhooks.sandbox.bench;

import io.mcdhooks.sandbox.kafka.ForkedKafkaBroker;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs every measurement of docs/benchmarks.md against one forked Kafka broker, prints the table
 * and writes it as Markdown.
 */
@Command(
        name = "benchmarks",
        mixinStandardHelpOptions = true,
        description =
                "Latency against the broker's floor, gatekeeper throughput and memory, publish rate, rollout overhead.")
public final class BenchMain implements Callable<Integer> {

    @Option(names = "--nodes", defaultValue = "5000", description = "Nodes of rows 4 and 5 (default ${DEFAULT-VALUE}).")
    int nodes;

    @Option(
            names = "--hooks",
            defaultValue = "20",
            description = "Hooks of rows 4, 5 and 6 (default ${DEFAULT-VALUE}).")
    int hooks;

    @Option(
            names = "--samples",
            defaultValue = "600",
            description = "Samples of rows 2 and 3 (default ${DEFAULT-VALUE}).")
    int samples;

    @Option(
            names = "--floor-samples",
            defaultValue = "5000",
            description = "Samples of row 1 (default ${DEFAULT-VALUE}).")
    int floorSamples;

    @Option(
            names = "--concurrency",
            defaultValue = "4",
            description = "Nodes cycled at once in rows 2 and 3 (default ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(
            names = "--shots",
            defaultValue = "5",
            description = "JMH shots of row 4, after as many warm-up shots (default ${DEFAULT-VALUE}).")
    int shots;

    @Option(
            names = "--rollout-nodes",
            defaultValue = "5000",
            description = "Workers of the simulated rollouts of row 6 (default ${DEFAULT-VALUE}).")
    int rolloutNodes;

    @Option(
            names = "--rollout-scale",
            defaultValue = "100",
            description = "Simulated seconds per real second in row 6 (default ${DEFAULT-VALUE}).")
    double rolloutScale;

    @Option(
            names = "--rollout-fallback",
            description =
                    "Row 6 also without the admission policy (batch pacing): one more rollout, several times as long.")
    boolean rolloutFallback;

    @Option(
            names = "--rows",
            defaultValue = "1,2,3,4,5,6",
            split = ",",
            description = "Which rows to run (default ${DEFAULT-VALUE}); 2 and 3 run together.")
    Set<Integer> only;

    @Option(names = "--out", defaultValue = "target/benchmarks.md", description = "Where to write the Markdown table.")
    Path out;

    private Report report;

    private Row burstRow(String number, String name, PublishBurst.Result r) {
        return Row.value(
                number,
                name,
                nodes + " nodes assigned at once → " + r.messages() + " of " + r.expected()
                        + " messages read back; last after "
                        + String.format(
                                Locale.ROOT,
                                "%.1f s, API writes done after %.1f s",
                                r.lastSeconds(),
                                r.writesSeconds()),
                r.rate(),
                "messages/s",
                null,
                null,
                null);
    }

    public static void main(String[] args) {
        // A bridge closed between measurements still has Kubernetes writes queued on its workers;
        // their completions find the event loop gone. That is the end of a measurement, not a fault.
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            if (!(e instanceof RejectedExecutionException)) {
                e.printStackTrace();
            }
        });
        System.exit(new CommandLine(new BenchMain()).execute(args));
    }

    /** Runs with {@code args} and returns the report (for the smoke test). */
    static Report run(String... args) {
        BenchMain main = new BenchMain();
        int code = new CommandLine(main).execute(args);
        if (code != 0) {
            throw new IllegalStateException("benchmarks exited with " + code);
        }
        return main.report;
    }

    @Override
    public Integer call() throws Exception {
        long started = System.nanoTime();
        report = new Report(Machine.current());
        PrintWriter console = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        console.println("starting a Kafka broker (forked JVM)");
        try (KafkaBroker broker = ForkedKafkaBroker.start(Map.of())) {
            String bootstrap = broker.bootstrapServers();
            Latency.Stats floor = null;
            if (only.contains(1)) {
                console.printf("1. Kafka floor: %d round trips%n", floorSamples);
                floor = KafkaFloor.measure(bootstrap, floorSamples, Math.max(50, floorSamples / 10));
                report.floor(floor);
                report.add(Row.latency(
                        "1",
                        "floor: Kafka round trip",
                        "record produced → consumed (hook's consumer settings)",
                        floor,
                        null,
                        null,
                        null));
                console.println("   " + floor);
            }
            if (only.contains(2) || only.contains(3)) {
                console.printf("2/3. gate latency: %d samples, %d nodes at once%n", samples, concurrency);
                GateLatency.Result r =
                        GateLatency.measure(bootstrap, samples, Math.max(concurrency, samples / 10), concurrency);
                report.add(Row.latency(
                        "2",
                        "transition → gate request",
                        "node annotation written → hook's consumer has the GateRequest",
                        r.toRequest(),
                        null,
                        null,
                        null));
                report.add(Row.latency(
                        "2a",
                        "API floor (reference)",
                        "node annotation written → another watch sees it",
                        r.apiFloor(),
                        null,
                        null,
                        null));
                Boolean met = floor == null ? null : r.toRelease().p99() <= 3 * floor.p99();
                report.add(Row.latency(
                        "3",
                        "last verdict → node released",
                        "PASS produced → watch sees node untainted and uncordoned",
                        r.toRelease(),
                        "p99 ≤ 3× floor p99",
                        met,
                        null));
                console.println(
                        "   request " + r.toRequest() + "\n   api " + r.apiFloor() + "\n   release " + r.toRelease());
            }
            if (only.contains(4)) {
                console.printf(
                        "4. gatekeeper: %d gates × %d hooks (JMH, then the memory probe; forked JVMs)%n", nodes, hooks);
                VerdictThroughput.Speed speed = VerdictThroughput.speed(nodes, hooks, shots, shots);
                Map<String, Double> p = VerdictThroughput.memory(nodes, hooks);
                double rate = speed.decodeAndDecide();
                double rss = Math.max(p.get("openRssKiB"), p.get("answeredRssKiB")) / 1024;
                double perGate = (p.get("openHeapKiB") - p.get("heapBeforeKiB")) / nodes;
                double perAnswered = (p.get("answeredHeapKiB") - p.get("heapBeforeKiB")) / nodes;
                report.add(Row.value(
                        "4",
                        "verdict throughput",
                        nodes + " gates × " + hooks
                                + " hooks, PASS records decoded → gate decided (Gatekeeper core, one thread; JMH, mean of "
                                + shots + " shots)",
                        rate,
                        "verdicts/s",
                        "≥ 20,000/s",
                        rate >= 20_000,
                        null));
                report.add(Row.value(
                        "4a",
                        "verdict throughput, gate machine only",
                        "decoded Verdict → gate decided",
                        speed.decide(),
                        "verdicts/s",
                        null,
                        null,
                        null));
                report.add(Row.value(
                        "4b",
                        "resident memory",
                        "VmRSS once settled after GC, " + nodes + " gates × " + hooks + " hooks, open and answered ("
                                + String.join(" ", VerdictThroughput.JVM_OPTIONS) + ")",
                        rss,
                        "MiB",
                        "≤ 512 MiB",
                        rss <= 512,
                        null));
                report.add(Row.value(
                        "4c",
                        "peak resident memory",
                        "VmHWM of the probe's JVM over the whole run, " + "decoding included",
                        p.get("peakRssKiB") / 1024,
                        "MiB",
                        null,
                        null,
                        null));
                report.add(Row.value(
                        "4d",
                        "heap per open gate",
                        "heap after GC / gates, waiting on " + hooks + " hooks",
                        perGate,
                        "KiB",
                        null,
                        null,
                        null));
                report.add(Row.value(
                        "4e",
                        "heap per answered gate",
                        "heap after GC / gates, " + hooks + " verdicts each",
                        perAnswered,
                        "KiB",
                        null,
                        null,
                        null));
                console.println("   " + speed + "\n   " + p);
            }
            if (only.contains(5)) {
                console.printf("5. publish burst: %d nodes at once, no hooks, then %d hooks%n", nodes, hooks);
                PublishBurst.Result plain = PublishBurst.measure(bootstrap, nodes, 0);
                report.add(burstRow("5", "bridge publish rate, no hooks", plain));
                console.println("   " + plain);
                PublishBurst.Result hooked = PublishBurst.measure(bootstrap, nodes, hooks);
                report.add(burstRow("5a", "bridge publish rate, " + hooks + " hooks", hooked));
                report.add(Row.latency(
                        "5b",
                        "burst: node written → its gate request",
                        "during the burst of row 5a",
                        hooked.writeToRequest(),
                        null,
                        null,
                        null));
                console.println("   " + hooked);
            }
            if (only.contains(6)) {
                console.printf(
                        "6. rollout overhead: %d workers, stock, %d hooks with the admission policy, slow hooks%s%n",
                        rolloutNodes, hooks, rolloutFallback ? ", without the policy" : "");
                RolloutOverhead.Result r =
                        RolloutOverhead.measure(bootstrap, rolloutNodes, hooks, rolloutScale, rolloutFallback);
                RolloutRows.add(report, r, rolloutNodes, hooks, rolloutScale);
                console.println("   stock:  " + r.stock().profile());
                console.println("   hooked: " + r.hooked().profile());
                console.println("   slow:   " + r.slow().profile());
                if (r.fallback() != null) {
                    console.println("   paced:  " + r.fallback().profile());
                }
            }
        }
        report.finish(
                (System.nanoTime() - started) / 1e9,
                Machine.currentLoad(),
                String.format(
                        Locale.ROOT,
                        "nodes %d, hooks %d, samples %d (rows 2–3, %d nodes at once), floor samples %d, rollout workers %d",
                        nodes,
                        hooks,
                        samples,
                        concurrency,
                        floorSamples,
                        rolloutNodes));
        String markdown = report.markdown();
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        Files.writeString(out, markdown);
        console.println();
        console.println(markdown);
        console.println("written to " + out.toAbsolutePath());
        return 0;
    }
}
