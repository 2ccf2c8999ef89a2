package io.mcdhooks.bridge.cli;

import io.mcdhooks.bridge.lag.LagMonitor;
import io.mcdhooks.bridge.lag.LagStatus;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

@Command(
        name = "lag",
        description = "Each hook's lag on the gate requests and its state (OK, WARNING, STALLED, STOPPED, ERROR).")
final class LagCommand implements Callable<Integer> {

    static final String GROUP_PREFIX = "mcdhooks.hook.";

    @ParentCommand
    Cli cli;

    @Mixin
    Sampling sampling;

    @Override
    public Integer call() throws Exception {
        KafkaSettings kafka = cli.kafka();
        Map<String, LagStatus> statuses = sample(kafka, hooksWithGroups(kafka), sampling.samples, sampling.every);
        PrintWriter out = cli.spec.commandLine().getOut();
        out.printf("%-28s %-9s %8s  %s%n", "HOOK", "STATE", "LAG", "DETAIL");
        Instant now = Instant.now();
        new TreeMap<>(statuses)
                .forEach((hook, s) -> out.printf("%-28s %-9s %8d  %s%n", hook, s.state(), s.lag(), s.describe(now)));
        return 0;
    }

    /** Hooks that have (or had) a consumer group. */
    List<String> hooksWithGroups(KafkaSettings kafka) throws Exception {
        try (Admin admin = Admin.create(new HashMap<>(kafka.asMap()))) {
            return admin.listConsumerGroups().all().get(cli.timeout.toMillis(), TimeUnit.MILLISECONDS).stream()
                    .map(ConsumerGroupListing::groupId)
                    .filter(g -> g.startsWith(GROUP_PREFIX))
                    .map(g -> g.substring(GROUP_PREFIX.length()).split("\\.", 2)[0])
                    .distinct()
                    .sorted()
                    .toList();
        }
    }

    Map<String, LagStatus> sample(KafkaSettings kafka, List<String> hooks, int count, Duration pause)
            throws InterruptedException {
        try (LagMonitor monitor = new LagMonitor(kafka, cli.requestsTopic, count, Clock.systemUTC())) {
            Map<String, LagStatus> result = monitor.sample(hooks);
            for (int i = 1; i < count; i++) {
                // A command line tool samples over time by waiting: there is nothing to react to.
                Thread.sleep(pause.toMillis());
                result = monitor.sample(hooks);
            }
            return result;
        }
    }
}
