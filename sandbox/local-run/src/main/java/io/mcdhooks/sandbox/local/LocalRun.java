package io.mcdhooks.sandbox.local;

import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./run-local}: starts the embedded Kafka broker, the in-memory cluster with the simulated
 * MCO, the bridge with the gatekeeper and the example hooks, registers the hooks, rolls out a
 * kernel change and shows it progressing until it completes or is held; then prints what was
 * released and what was held, and why. Given {@code --kubeconfig} and/or
 * {@code --bootstrap-servers}, the same processes use that cluster and that Kafka instead.
 */
@Command(
        name = "run-local",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Runs mcd-update-hooks locally and shows a kernel update being gated.")
public final class LocalRun implements Callable<Integer> {

    static final int EXIT_TIME_LIMIT = 3;

    @Option(
            names = "--scenario",
            defaultValue = "happy",
            paramLabel = "NAME",
            description = "happy | kmod-missing | post-check-fails | hook-down | ssh-key (default: ${DEFAULT-VALUE})")
    String scenario;

    @Option(names = "--masters", defaultValue = "3", description = "master nodes (default: ${DEFAULT-VALUE})")
    int masters;

    @Option(names = "--workers", defaultValue = "6", description = "worker nodes (default: ${DEFAULT-VALUE})")
    int workers;

    @Option(
            names = "--topology",
            defaultValue = "ha",
            paramLabel = "ha|single-node",
            description = "ha: --masters and --workers; single-node: one master and no worker, rolled out in"
                    + " pool master (default: ${DEFAULT-VALUE})")
    String topology;

    @Option(
            names = "--zones",
            defaultValue = "3",
            paramLabel = "N|a,b,..",
            description = "zones: a count or a list of names (default: ${DEFAULT-VALUE})")
    String zones;

    @Option(
            names = "--max-unavailable",
            defaultValue = "1",
            description = "maxUnavailable of the worker pool (default: ${DEFAULT-VALUE})")
    int maxUnavailable;

    @Option(
            names = "--time-scale",
            defaultValue = "100",
            description = "simulated seconds per real second (default: ${DEFAULT-VALUE})")
    double timeScale;

    @Option(
            names = {"--plain", "--no-ui"},
            description = "plain lines, one per change (the default when stdout is not a terminal)")
    boolean plain;

    @Option(
            names = "--kubeconfig",
            paramLabel = "FILE",
            description = "use this cluster instead of the in-memory one (no simulator; no rollout unless --roll-out)")
    Path kubeconfig;

    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT",
            description = "use this Kafka instead of the embedded broker (KAFKA_* variables add client settings)")
    String bootstrapServers;

    @Option(
            names = "--roll-out",
            description = "with --kubeconfig: apply the kernel MachineConfig 99-worker-realtime to the worker pool")
    boolean rollOut;

    @Option(
            names = "--http-port",
            defaultValue = "8080",
            description = "the bridge's port for the status page, 0 for any (default: ${DEFAULT-VALUE})")
    int httpPort;

    @Option(
            names = "--hook-down-policy",
            defaultValue = "Ignore",
            paramLabel = "Fail|Ignore",
            description = "hook-down: failurePolicy of the stopped hook (default: ${DEFAULT-VALUE})")
    FailurePolicy hookDownPolicy;

    @Option(
            names = "--time-limit",
            defaultValue = "110",
            paramLabel = "SECONDS",
            description = "give up waiting for the rollout to complete or settle (default: ${DEFAULT-VALUE})")
    int timeLimit;

    @Option(
            names = "--stay",
            description = "keep everything running after the summary (status page included) until Ctrl-C")
    boolean stay;

    private final PrintStream out;

    public LocalRun() {
        this(System.out);
    }

    LocalRun(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        if (System.getProperty("mcdhooks.log.file") == null) {
            System.setProperty(
                    "mcdhooks.log.file",
                    Path.of(System.getProperty("java.io.tmpdir"), "mcdhooks-local-run.log")
                            .toString());
        }
        int code = new CommandLine(new LocalRun())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .execute(args);
        System.exit(code);
    }

    LocalRunConfig config() {
        boolean inMemory = kubeconfig == null;
        boolean singleNode = switch (topology.trim().toLowerCase(Locale.ROOT)) {
            case "ha" -> false;
            case "single-node" -> true;
            default ->
                throw new IllegalArgumentException("unknown --topology '" + topology + "', expected ha or single-node");
        };
        return new LocalRunConfig(
                Scenario.fromWire(scenario),
                singleNode ? 1 : masters,
                singleNode ? 0 : workers,
                zoneNames(zones),
                maxUnavailable,
                timeScale,
                kubeconfig,
                bootstrapServers,
                inMemory || rollOut,
                hookDownPolicy,
                Duration.ofSeconds(10),
                Duration.ofSeconds(timeLimit),
                Duration.ofSeconds(6),
                httpPort);
    }

    @Override
    public Integer call() {
        LocalRunConfig config;
        try {
            config = config();
        } catch (IllegalArgumentException e) {
            System.err.println("run-local: " + e.getMessage());
            return CommandLine.ExitCode.USAGE;
        }
        boolean ansi = !plain && System.console() != null;
        AtomicReference<LocalSystem> system = new AtomicReference<>();
        AtomicReference<RunWatch> watch = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        AtomicBoolean stopping = new AtomicBoolean();
        Thread shutdown = new Thread(
                () -> {
                    stopping.set(true);
                    RunWatch w = watch.get();
                    if (w != null) {
                        w.stop();
                    }
                    if (done.getCount() > 0 && w != null) {
                        RunSummary summary = w.summary(RunSummary.Ending.INTERRUPTED);
                        if (summary != null) {
                            out.print(summary.render());
                        }
                    }
                    LocalSystem s = system.get();
                    if (s != null) {
                        s.close();
                        out.println(
                                "stopped: hooks, bridge, simulator, in-memory cluster, Kafka broker and registry are closed");
                        out.flush();
                    }
                },
                "local-run-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        out.println("run-local: scenario " + config.scenario() + " - "
                + config.scenario().description() + " (log: " + System.getProperty("mcdhooks.log.file", "-") + ")");
        out.flush();
        try {
            LocalSystem started = LocalSystem.start(config);
            system.set(started);
            TerminalView view = new TerminalView(out, ansi);
            RunWatch w = new RunWatch(started, view);
            watch.set(w);
            RunSummary summary = w.run();
            if (summary.ending() == RunSummary.Ending.INTERRUPTED) {
                return 130;
            }
            done.countDown();
            out.print(summary.render());
            out.flush();
            if (stay) {
                // The view goes on below the summary (on a terminal, the summary stays under it).
                String still = "still running: status page at " + started.statusUri() + " - Ctrl-C stops everything";
                out.println(still);
                out.flush();
                view.footer(summary.render() + still);
                w.follow();
                return 130;
            }
            return summary.ending() == RunSummary.Ending.TIME_LIMIT ? EXIT_TIME_LIMIT : 0;
        } catch (RuntimeException e) {
            if (!stopping.get()) {
                System.err.println("run-local: " + e.getMessage());
            }
            return 1;
        } finally {
            LocalSystem s = system.get();
            if (s != null && done.getCount() == 0) {
                s.close();
            }
        }
    }

    static List<String> zoneNames(String zones) {
        String text = zones == null ? "1" : zones.trim();
        if (text.matches("\\d+")) {
            int n = Integer.parseInt(text);
            if (n < 1 || n > 26) {
                throw new IllegalArgumentException("--zones must be between 1 and 26, or a list of names");
            }
            List<String> names = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                names.add("zone-" + (char) ('a' + i));
            }
            return names;
        }
        return Arrays.stream(text.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }
}
