package io.mcdhooks.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.hooks.kmod.KmmTemplate;
import io.mcdhooks.sandbox.mco.Mco;
import io.mcdhooks.sandbox.registry.ForkedRegistry;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every scenario of the local run end to end, in this JVM: a real forked broker, the in-memory
 * cluster with the simulated MCO at 100x, the bridge with its gatekeeper and the example hooks in
 * real runners; 1 master and 4 workers in 2 zones, maxUnavailable 1. The post-check-fails
 * scenario is the one the docs' operator commands are run against, in {@link DocumentedExamplesIT}.
 */
class LocalRunIT {

    private static final int WORKERS = 4;
    private static final Duration SCENARIO_LIMIT = Duration.ofMinutes(2);

    @BeforeAll
    static void needsTheRegistry() {
        assumeTrue(ForkedRegistry.installed(), ForkedRegistry.MISSING);
    }

    @Test
    void happyRollsTheKernelChangeThroughEveryWorkerAndHoldsNothing() {
        run(Scenario.HAPPY, r -> {
            LocalSystem system = r.system();
            RunSummary summary = r.summary();
            assertThat(summary.ending()).isEqualTo(RunSummary.Ending.COMPLETED);
            assertThat(summary.updated()).isEqualTo(WORKERS);
            assertThat(summary.held()).isEmpty();
            assertThat(summary.heldNodes()).isEmpty();
            assertThat(summary.released())
                    .extracting(RunSummary.GateOutcome::stage)
                    .containsOnly("pool-pre-update", "post-update")
                    .hasSize(1 + WORKERS);
            String target = poolTarget(summary);
            assertThat(workers(system)).allSatisfy(n -> {
                assertThat(annotation(n, McoApi.CURRENT_CONFIG)).isEqualTo(target);
                assertThat(tainted(n)).isFalse();
                assertThat(n.getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
            });
        });
    }

    @Test
    void rollbackTakesThePoolBackToItsPreviousConfigWhenTheRealtimeKernelFailsItsCheck() {
        run(Scenario.ROLLBACK, r -> {
            RunSummary summary = r.summary();
            assertThat(summary.ending()).isEqualTo(RunSummary.Ending.ROLLED_BACK);
            assertThat(summary.maxUnavailableSeen()).isLessThanOrEqualTo(1);
            assertThat(poolTarget(summary)).isEqualTo(r.system().initialTarget());
            assertThat(workers(r.system())).allSatisfy(n -> {
                assertThat(annotation(n, McoApi.CURRENT_CONFIG))
                        .isEqualTo(r.system().initialTarget());
                assertThat(tainted(n)).isFalse();
                assertThat(n.getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
            });
            // the MachineConfig the rollout added is gone again
            assertThat(r.output()).contains("rollout ROLLED BACK");
            assertThat(Mco.machineConfigs(r.system().client())
                            .withName(LocalSystem.MACHINE_CONFIG)
                            .get())
                    .isNull();
        });
    }

    @Test
    void aSingleNodeClusterRollsOutItsMasterWithItsGatesAdvisoryAndNeverPausesIt() {
        run(Scenario.HAPPY, 1, 0, r -> {
            RunSummary summary = r.summary();
            assertThat(summary.ending()).isEqualTo(RunSummary.Ending.COMPLETED);
            assertThat(summary.updated()).isEqualTo(1);
            assertThat(summary.released())
                    .extracting(RunSummary.GateOutcome::stage)
                    .containsExactlyInAnyOrder("pool-pre-update", "post-update");
            assertThat(r.output())
                    .contains("pool master is never paused for gates")
                    .contains("post-update gates (SingleNodeAdvisory)")
                    .contains("pool master: 1/1 nodes updated");
            assertThat(RunSummary.find(summary.finalStatus().getJsonArray("pools"), "name", "master")
                            .getBoolean("paused"))
                    .isFalse();
        });
    }

    @Test
    void kmodMissingBlocksThePoolUntilTheModulesAppearAndThenCompletes() {
        run(Scenario.KMOD_MISSING, r -> {
            LocalSystem system = r.system();
            RunSummary summary = r.summary();
            String output = r.output();
            int blocked = output.indexOf("/pool-pre-update/worker/");
            assertThat(output)
                    .containsPattern("gate local/pool-pre-update/worker/\\S+: BLOCKED - blocked by kmod-check");
            int blockedAt = output.indexOf(": BLOCKED - blocked by kmod-check");
            int releasedAt = output.indexOf(": RELEASED (released)", blocked);
            assertThat(blockedAt).isPositive();
            assertThat(releasedAt).isGreaterThan(blockedAt);
            assertThat(output).contains("the module build landed: pushed ");
            assertThat(system.notes())
                    .anyMatch(n -> n.contains("the module build landed")
                            && n.contains("/kmods/nvidia:" + KmmTemplate.normalize(LocalRegistry.REALTIME_KERNEL)));
            assertThat(summary.ending()).isEqualTo(RunSummary.Ending.COMPLETED);
            assertThat(summary.updated()).isEqualTo(WORKERS);
            assertThat(summary.held()).isEmpty();
            assertThat(summary.released())
                    .filteredOn(g -> g.stage().equals("pool-pre-update"))
                    .singleElement()
                    .satisfies(g -> assertThat(g.why()).contains("kmod-check PASS ModulesReady"));
        });
    }

    @Test
    void hookDownTimesOutItsGatesPerItsPolicyWhileItsLagGrows() {
        run(Scenario.HOOK_DOWN, r -> {
            LocalSystem system = r.system();
            RunSummary summary = r.summary();
            assertThat(summary.ending()).isEqualTo(RunSummary.Ending.COMPLETED);
            assertThat(summary.updated()).isEqualTo(WORKERS);
            assertThat(summary.released())
                    .filteredOn(g -> g.stage().equals("pre-update"))
                    .hasSize(WORKERS)
                    .allSatisfy(g -> {
                        assertThat(g.decision()).isEqualTo("TIMED_OUT");
                        assertThat(g.why()).contains("cmdb-sync TIMED_OUT").contains("failurePolicy Ignore");
                    });
            // The view saw its lag grow while its gates timed out
            List<Long> seen = Pattern.compile("hook cmdb-sync: lag (\\d+)")
                    .matcher(r.output())
                    .results()
                    .map(m -> Long.parseLong(m.group(1)))
                    .toList();
            assertThat(seen).hasSizeGreaterThanOrEqualTo(2).isSorted();
            assertThat(seen.get(seen.size() - 1)).isGreaterThan(seen.get(0));
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                Map<String, Long> lag = lags(system.status());
                assertThat(lag.get(LocalHooks.CMDB)).isGreaterThanOrEqualTo(WORKERS);
                assertThat(lag.get(LocalHooks.KMOD)).isLessThan(lag.get(LocalHooks.CMDB));
            });
        });
    }

    /** One finished run: the system still up, its summary, and what the plain view printed. */
    record Run(LocalSystem system, RunSummary summary, String output) {}

    private static void run(Scenario scenario, Consumer<Run> then) {
        run(scenario, 1, WORKERS, then);
    }

    /** Runs {@code scenario} on {@code masters} and {@code workers} to its summary, then {@code then}. */
    static void run(Scenario scenario, int masters, int workers, Consumer<Run> then) {
        LocalRunConfig config = LocalRunConfig.defaults(scenario)
                .withTopology(masters, workers, List.of("zone-a", "zone-b"), 1)
                .withHttpPort(0);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        try (LocalSystem system = LocalSystem.start(config)) {
            RunSummary summary = new RunWatch(system, new TerminalView(out, false)).run();
            out.print(summary.render());
            String output = bytes.toString(StandardCharsets.UTF_8);
            System.out.println(output);
            assertThat(summary.elapsed()).isLessThan(SCENARIO_LIMIT);
            then.accept(new Run(system, summary, output));
        }
    }

    private static Map<String, Long> lags(JsonObject status) {
        return status.getJsonArray("hooks").stream()
                .map(JsonObject.class::cast)
                .filter(h -> h.getLong("lag") != null)
                .collect(Collectors.toMap(h -> h.getString("name"), h -> h.getLong("lag")));
    }

    private static String poolTarget(RunSummary summary) {
        return RunSummary.find(summary.finalStatus().getJsonArray("pools"), "name", "worker")
                .getString("target");
    }

    private static List<Node> workers(LocalSystem system) {
        return system.client().nodes().list().getItems().stream()
                .filter(n -> n.getMetadata().getLabels().containsKey("node-role.kubernetes.io/worker"))
                .toList();
    }

    private static String annotation(Node node, String key) {
        return node.getMetadata().getAnnotations() == null
                ? null
                : node.getMetadata().getAnnotations().get(key);
    }

    private static boolean tainted(Node node) {
        return node.getSpec().getTaints() != null
                && node.getSpec().getTaints().stream().anyMatch(t -> LeverPlan.POST_UPDATE_TAINT.equals(t.getKey()));
    }
}
