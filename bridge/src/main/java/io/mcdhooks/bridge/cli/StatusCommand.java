package io.mcdhooks.bridge.cli;

import io.mcdhooks.bridge.gate.WhyHeld;
import io.mcdhooks.bridge.lag.LagMonitor;
import io.mcdhooks.bridge.lag.LagStatus;
import io.mcdhooks.bridge.rollback.RollbackText;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.LifecycleEvent;
import io.mcdhooks.schemas.Transition;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "status", description = "Pools, nodes, and open gates with who blocks them.")
final class StatusCommand implements Callable<Integer> {

    @ParentCommand
    Cli cli;

    @Option(
            names = "--lookback",
            defaultValue = "48h",
            converter = Cli.DurationConverter.class,
            description = "How far back to read (default: ${DEFAULT-VALUE}).")
    Duration lookback;

    @Override
    public Integer call() {
        KafkaSettings kafka = cli.kafka();
        KafkaView view = KafkaView.read(cli, kafka, lookback);
        PrintWriter out = cli.spec.commandLine().getOut();
        out.println("POOLS");
        out.printf("  %-24s %-10s %-18s %s%n", "POOL", "UPDATED", "LAST", "TARGET");
        for (LifecycleEvent pool : view.pools.values()) {
            String target = pool.toConfig();
            List<LifecycleEvent> members = view.nodes.values().stream()
                    .filter(n -> pool.object().name().equals(n.pool())
                            && pool.cluster().equals(n.cluster()))
                    .toList();
            long updated = members.stream()
                    .filter(n -> n.transition() == Transition.DONE && target != null && target.equals(n.toConfig()))
                    .count();
            out.printf(
                    "  %-24s %-10s %-18s %s%n",
                    pool.cluster() + "/" + pool.object().name(),
                    updated + "/" + members.size(),
                    pool.transition(),
                    target);
            if (pool.schedule() != null) {
                out.printf("    new nodes: %s (as of %s)%n", pool.schedule().description(), pool.observedAt());
            }
            GateDecision rollback =
                    view.rollbacks.get(pool.cluster() + "/" + pool.object().name());
            if (rollback != null) {
                out.printf("    %s%n", RollbackText.of(rollback));
            }
        }
        out.println("NODES");
        out.printf("  %-40s %-12s %-20s %s%n", "NODE", "POOL", "LAST", "TARGET");
        for (LifecycleEvent node : view.nodes.values()) {
            out.printf(
                    "  %-40s %-12s %-20s %s%n",
                    node.cluster() + "/" + node.object().name(),
                    node.pool(),
                    node.transition() + (node.late() ? " (late)" : ""),
                    node.toConfig());
        }
        List<GateDecision> open = view.openGates();
        Map<String, LagStatus> lag = open.isEmpty() ? Map.of() : lagOf(kafka, open);
        out.println("OPEN GATES");
        for (GateDecision gate : open) {
            out.printf("  %s (attempt %d): %s%n", gate.gateId(), gate.attempt(), gate.decision());
            out.printf("    %s%n", WhyHeld.of(gate));
            if (gate.rollback() != null) {
                out.printf(
                        "    rollback %s: %s%n",
                        gate.rollback().state(), gate.rollback().message());
            }
            for (String hook : gate.blockingHooks()) {
                LagStatus status = lag.get(hook);
                if (status != null) {
                    out.printf("    hook %s: %s%n", hook, status.describe(Instant.now()));
                }
            }
        }
        if (open.isEmpty()) {
            out.println("  none");
        }
        return 0;
    }

    private Map<String, LagStatus> lagOf(KafkaSettings kafka, List<GateDecision> open) {
        List<String> hooks = open.stream()
                .flatMap(g -> g.blockingHooks().stream())
                .distinct()
                .collect(Collectors.toList());
        try (LagMonitor monitor = new LagMonitor(kafka, cli.requestsTopic, 1, Clock.systemUTC())) {
            return monitor.sample(hooks);
        }
    }
}
