package io.mcdhooks.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.kafka.junit.KafkaBrokerExtension;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.MachineConfigs;
import io.mcdhooks.sandbox.mco.McoSimulator;
import io.mcdhooks.sandbox.mco.SimulatorConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ./run-local --kubeconfig … --bootstrap-servers … --roll-out --stay}: the same bridge,
 * gatekeeper and hooks gate a rollout on a given cluster through a given Kafka to its end, and
 * the view goes on after the summary: a hook registered afterwards and a rollout started
 * afterwards show in it, to the rollout's end, as they do on the status page. Run as a person would against a cluster and a Kafka of their own (here an
 * in-memory cluster with the simulated MCO, and the tests' broker), in plain mode, through the
 * command's real entry point.
 */
@ExtendWith(KafkaBrokerExtension.class)
class LocalRunStayIT {

    @Test
    void afterTheSummaryTheViewShowsAHookRegisteredAndARolloutStartedAfterwards(KafkaBroker kafka, @TempDir Path dir)
            throws Exception {
        try (InMemoryCluster cluster = TwoWorkers.start()) {
            Path kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig"));
            try (McoSimulator mco = McoSimulator.start(
                    cluster.client(), SimulatorConfig.defaults().withTimeScale(100))) {
                // Given a run that rolled its change out, printed its summary and stays
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
                AtomicInteger exit = new AtomicInteger(-1);
                Thread run = new Thread(
                        () -> exit.set(new CommandLine(new LocalRun(out))
                                .setCaseInsensitiveEnumValuesAllowed(true)
                                .execute(
                                        "--kubeconfig",
                                        kubeconfig.toString(),
                                        "--bootstrap-servers",
                                        kafka.bootstrapServers(),
                                        "--roll-out",
                                        "--stay",
                                        "--plain",
                                        "--http-port",
                                        "0")),
                        "run-local");
                run.start();
                try {
                    await().atMost(Duration.ofMinutes(2))
                            .until(() -> text(bytes).contains("still running: status page at"));
                    // with the cluster's and the Kafka's own processes gating it to the end
                    assertThat(text(bytes))
                            .contains("Kafka at " + kafka.bootstrapServers())
                            .doesNotContain("starting the embedded Kafka broker")
                            .contains("rollout COMPLETED")
                            .contains("pool worker: 2/2 nodes updated")
                            .contains("released (3):")
                            .containsPattern("pool-pre-update +\\(pool\\) +RELEASED")
                            .containsPattern("post-update +worker-0 +RELEASED")
                            .containsPattern("post-update +worker-1 +RELEASED")
                            .contains("held (0): nothing");

                    // When a hook is registered and another change is rolled out
                    cluster.client()
                            .resources(UpdateHook.class)
                            .resource(lateHook())
                            .create();
                    mco.applyMachineConfig(
                            MachineConfigs.kernelArguments("99-worker-nosmt", "worker", List.of("nosmt")));

                    // Then the view shows both, and follows the new rollout through to its end
                    await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> {
                        String after = afterSummary(text(bytes));
                        assertThat(after)
                                .contains("hook late-check: post-update of pool worker, Advisory, Ignore after 60 s")
                                .containsPattern("gate local/pool-pre-update/worker/rendered-worker-\\S+: RELEASED")
                                .containsPattern("node worker-\\d: (Draining|Applying|Rebooting)")
                                .containsPattern("pool worker: 0/2 updated");
                        // the first rollout's 2/2 is printed right after the summary too: only one
                        // after the new rollout's 0/2 is its end
                        String rollout = after.substring(after.indexOf("pool worker: 0/2 updated"));
                        assertThat(rollout).containsPattern("pool worker: 2/2 updated");
                        Matcher gates = Pattern.compile(
                                        "gate local/post-update/(worker-\\d)/(rendered-worker-\\S+): RELEASED")
                                .matcher(after);
                        assertThat(gates.results()
                                        .map(m -> m.group(2))
                                        .distinct()
                                        .count())
                                .as(
                                        "the new rollout's own gates, in what the view printed after its summary:%n%s",
                                        after)
                                .isEqualTo(1);
                    });
                } finally {
                    // Ctrl-C ends a run that stays; here the run's thread is interrupted
                    run.interrupt();
                    run.join(Duration.ofSeconds(60).toMillis());
                }
                assertThat(run.isAlive()).isFalse();
                assertThat(exit.get()).isEqualTo(130);
            }
        }
    }

    private static UpdateHook lateHook() {
        UpdateHook hook = new UpdateHook();
        hook.getMetadata().setName("late-check");
        UpdateHookSpec spec = new UpdateHookSpec();
        spec.setStages(List.of(UpdateHookSpec.StageName.POST_UPDATE));
        spec.setPools(List.of("worker"));
        spec.setTimeoutSeconds(60);
        spec.setFailurePolicy(UpdateHookSpec.FailurePolicy.Ignore);
        spec.setMode(UpdateHookSpec.Mode.Advisory);
        hook.setSpec(spec);
        return hook;
    }

    private static String afterSummary(String output) {
        return output.substring(output.indexOf("still running: status page at"));
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
