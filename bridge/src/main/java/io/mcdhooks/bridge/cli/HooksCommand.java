package io.mcdhooks.bridge.cli;

import io.mcdhooks.bridge.lag.LagStatus;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "hooks", description = "Hooks the gates wait on, their latest verdicts, and their lag state.")
final class HooksCommand implements Callable<Integer> {

    @ParentCommand
    Cli cli;

    @Option(
            names = "--lookback",
            defaultValue = "48h",
            converter = Cli.DurationConverter.class,
            description = "How far back to read decisions (default: ${DEFAULT-VALUE}).")
    Duration lookback;

    @Mixin
    Sampling sampling;

    @Override
    public Integer call() throws Exception {
        KafkaSettings kafka = cli.kafka();
        KafkaView view = KafkaView.read(cli, kafka, lookback);
        Map<String, List<String>> verdicts = new TreeMap<>();
        Map<String, String> modes = new TreeMap<>();
        for (GateDecision gate : view.gates.values()) {
            for (GateDecision.HookStatus h : gate.hooks()) {
                modes.put(h.hook(), h.mode() == null ? "Enforcing" : h.mode().name());
                verdicts.computeIfAbsent(h.hook(), k -> new ArrayList<>())
                        .add(gate.gateId() + ": " + h.state() + (h.reason() == null ? "" : " " + h.reason()));
            }
        }
        LagCommand lag = new LagCommand();
        lag.cli = cli;
        TreeSet<String> names = new TreeSet<>(modes.keySet());
        names.addAll(lag.hooksWithGroups(kafka));
        Map<String, LagStatus> statuses = lag.sample(kafka, List.copyOf(names), sampling.samples, sampling.every);
        PrintWriter out = cli.spec.commandLine().getOut();
        Instant now = Instant.now();
        for (String hook : names) {
            LagStatus s = statuses.get(hook);
            out.printf(
                    "%s (%s) lag: %s%n",
                    hook, modes.getOrDefault(hook, "no gates seen"), s == null ? "unknown" : s.describe(now));
            List<String> last = verdicts.getOrDefault(hook, List.of());
            for (String v : last.subList(Math.max(0, last.size() - 5), last.size())) {
                out.printf("  %s%n", v);
            }
        }
        return 0;
    }
}
