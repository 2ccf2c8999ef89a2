package io.mcdhooks.hooks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mcdhooks.hooks.api.CheckContext;
import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.api.Hook;
import io.mcdhooks.hooks.testing.Requests;
import io.mcdhooks.hooks.testing.WithKafkaFixture;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.kafka.Topics;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One runner, 1,000 open gates: bounded concurrency and memory, every gate answered. */
class OpenGatesIT extends WithKafkaFixture {

    private static final Logger LOG = LoggerFactory.getLogger(OpenGatesIT.class);
    private static final int GATES = 1000;
    private static final int CONCURRENCY = 20;
    private static final int MAX_OPEN = 100;

    @Test
    void oneRunnerHoldsAThousandOpenGatesWithinItsLimitsAndAnswersThemAllOnceReleased() throws Exception {
        // Given a hook whose checks stay pending until released, 20 at a time, at most 100 gates held
        Queue<CompletableFuture<CheckResult>> pending = new ConcurrentLinkedQueue<>();
        Hook hook = new Hook() {
            @Override
            public GateSelector selector() {
                return GateSelector.stages(Stage.PRE_UPDATE);
            }

            @Override
            public CompletionStage<CheckResult> check(GateRequest request, CheckContext context) {
                CompletableFuture<CheckResult> answer = new CompletableFuture<>();
                pending.add(answer);
                return answer;
            }
        };
        HookRunnerVerticle runner = fx.deploy(
                hook,
                HookRunnerConfig.fromEnvironment(fx.env(
                        "thousand",
                        "MCDHOOKS_CONCURRENCY",
                        Integer.toString(CONCURRENCY),
                        "MCDHOOKS_MAX_OPEN_GATES",
                        Integer.toString(MAX_OPEN),
                        "MCDHOOKS_HEARTBEAT_INTERVAL",
                        "10s")));
        long heapBefore = usedHeapAfterGc();

        // When 1,000 gates open
        for (int i = 0; i < GATES; i++) {
            fx.publish(Requests.preUpdate("node-" + i, Duration.ofMinutes(10)));
        }

        // Then the runner fills up to its limits and pauses the consumer
        RunnerGauges gauges = runner.gauges();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> gauges.running() == CONCURRENCY && gauges.open() == MAX_OPEN && gauges.pauses() > 0);
        long heapFull = usedHeapAfterGc();
        LOG.atInfo()
                .addKeyValue("heapBeforeMiB", heapBefore >> 20)
                .addKeyValue("heapFullMiB", heapFull >> 20)
                .addKeyValue("open", gauges.open())
                .addKeyValue("running", gauges.running())
                .log("heap with the runner full of open gates");
        System.out.printf(
                "OpenGatesIT: used heap after GC: %d MiB before, %d MiB with %d open gates and %d checks running%n",
                heapBefore >> 20, heapFull >> 20, gauges.open(), gauges.running());

        // When the checks are released as they come
        await().atMost(Duration.ofSeconds(120)).until(() -> {
            CompletableFuture<CheckResult> next;
            while ((next = pending.poll()) != null) {
                next.complete(CheckResult.pass("AllGood", "released"));
            }
            return gauges.finalVerdicts() == GATES;
        });

        // Then every gate got its verdict, all requests are committed, and the limits always held
        await().atMost(Duration.ofSeconds(30)).until(() -> fx.committed(Topics.hookGroup("thousand")) == GATES);
        assertThat(gauges.maxRunning()).isEqualTo(CONCURRENCY);
        assertThat(gauges.maxOpen()).isLessThanOrEqualTo(MAX_OPEN);
        assertThat(gauges.pauses()).isPositive();
        assertThat(gauges.open()).isZero();
    }

    private static long usedHeapAfterGc() {
        Runtime runtime = Runtime.getRuntime();
        System.gc();
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
