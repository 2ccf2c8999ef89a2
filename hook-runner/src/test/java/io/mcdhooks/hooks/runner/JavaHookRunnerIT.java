package io.mcdhooks.hooks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mcdhooks.hooks.api.CheckContext;
import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.api.Hook;
import io.mcdhooks.hooks.examples.ChangeFreezeHook;
import io.mcdhooks.hooks.testing.Requests;
import io.mcdhooks.hooks.testing.WithKafkaFixture;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.DeadLetters;
import io.mcdhooks.schemas.kafka.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Java hook hosted by the runner against a real broker. */
class JavaHookRunnerIT extends WithKafkaFixture {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void publishesTheVerdictAndCommitsTheRequestOnlyOnceTheVerdictIsAcknowledged() throws Exception {
        // Given a hook whose check waits to be released
        CompletableFuture<CheckResult> release = new CompletableFuture<>();
        TestHook hook = new TestHook(GateSelector.stages(Stage.PRE_UPDATE), (r, c) -> release);
        HookRunnerConfig config = HookRunnerConfig.fromEnvironment(fx.env("java-pass"));
        fx.deploy(hook, config);
        GateRequest request = Requests.preUpdate("node-1", Duration.ofMinutes(5));

        // When a request arrives and the check is under way
        long offset = fx.publish(request).offset();
        await().atMost(WAIT).until(() -> !fx.verdictsFor(request).isEmpty());

        // Then it heartbeats and nothing is committed yet
        assertThat(fx.verdictsFor(request)).allSatisfy(v -> {
            assertThat(v.outcome()).isEqualTo(Outcome.PENDING);
            assertThat(v.reason()).isEqualTo("CheckInProgress");
        });
        assertThat(fx.committed(Topics.hookGroup("java-pass"))).isEqualTo(-1);

        // When the check passes
        release.complete(CheckResult.pass("AllGood", "fine"));

        // Then one PASS with the deterministic id goes out, and then the request's offset + 1 is committed
        Verdict pass = fx.awaitFinalVerdict(request, WAIT);
        assertThat(pass.outcome()).isEqualTo(Outcome.PASS);
        assertThat(pass.hook()).isEqualTo("java-pass");
        ConsumerRecord<byte[], byte[]> record = fx.verdictRecords().stream()
                .filter(r -> fx.verdict(r).outcome() == Outcome.PASS)
                .findFirst()
                .orElseThrow();
        String expectedId = new GateCheck(request, "java-pass", config.policy())
                .finalVerdictId(CheckResult.pass("AllGood", "fine"));
        assertThat(CloudEventsKafka.header(record.headers(), "ce_id")).isEqualTo(expectedId);
        assertThat(CloudEventsKafka.header(record.headers(), "ce_source")).isEqualTo("/hooks/java-pass");
        await().atMost(WAIT).until(() -> fx.committed(Topics.hookGroup("java-pass")) == offset + 1);
    }

    @Test
    void skipsRequestsOutsideItsSelectorOrPastTheirDeadlineAndCommitsThem() throws Exception {
        // Given a hook for pre-update gates of pool "worker"
        TestHook hook = new TestHook(
                GateSelector.stages(Stage.PRE_UPDATE).inPools(Set.of("worker")),
                (r, c) -> CompletableFuture.completedFuture(CheckResult.pass("AllGood", "fine")));
        fx.deploy(hook, HookRunnerConfig.fromEnvironment(fx.env("java-skip")));
        GateRequest otherStage = Requests.postUpdate("node-1", Duration.ofMinutes(5));
        GateRequest otherPool = Requests.request(Stage.PRE_UPDATE, "infra", "node-2", Duration.ofMinutes(5));
        GateRequest expired = Requests.preUpdate("node-3", Duration.ofSeconds(-1));
        GateRequest wanted = Requests.preUpdate("node-4", Duration.ofMinutes(5));

        // When all four arrive
        fx.publish(otherStage);
        fx.publish(otherPool);
        fx.publish(expired);
        long last = fx.publish(wanted).offset();

        // Then only the wanted one is checked and answered, and all are committed
        fx.awaitFinalVerdict(wanted, WAIT);
        await().atMost(WAIT).until(() -> fx.committed(Topics.hookGroup("java-skip")) == last + 1);
        assertThat(hook.checks.get()).isEqualTo(1);
        assertThat(fx.verdicts()).extracting(Verdict::gateId).containsOnly(wanted.gateId());
    }

    @Test
    void sendsMalformedRequestsToTheDeadLetterTopicAndCarriesOn() throws Exception {
        // Given a running hook
        TestHook hook = new TestHook(
                GateSelector.stages(Stage.PRE_UPDATE),
                (r, c) -> CompletableFuture.completedFuture(CheckResult.pass("AllGood", "fine")));
        fx.deploy(hook, HookRunnerConfig.fromEnvironment(fx.env("java-dlq")));

        // When a record that is no CloudEvent arrives, then a good request
        fx.publishRaw(new ProducerRecord<>(
                fx.requestsTopic,
                "node-9".getBytes(StandardCharsets.UTF_8),
                "{not json".getBytes(StandardCharsets.UTF_8)));
        GateRequest good = Requests.preUpdate("node-1", Duration.ofMinutes(5));
        long last = fx.publish(good).offset();

        // Then the bad one is dead-lettered, naming the hook and why, and the good one answered
        await().atMost(WAIT).until(() -> !fx.deadLetters().isEmpty());
        ConsumerRecord<byte[], byte[]> letter = fx.deadLetters().get(0);
        assertThat(CloudEventsKafka.header(letter.headers(), DeadLetters.CONSUMER))
                .isEqualTo("java-dlq");
        assertThat(CloudEventsKafka.header(letter.headers(), DeadLetters.REASON))
                .isEqualTo("NOT_A_CLOUDEVENT");
        assertThat(CloudEventsKafka.header(letter.headers(), DeadLetters.ORIGINAL_OFFSET))
                .isEqualTo("0");
        assertThat(new String(letter.value(), StandardCharsets.UTF_8)).isEqualTo("{not json");
        fx.awaitFinalVerdict(good, WAIT);
        await().atMost(WAIT).until(() -> fx.committed(Topics.hookGroup("java-dlq")) == last + 1);
    }

    @Test
    void heartbeatsWhileACheckOutlivesItsTimeAndThenCutsItOffWithATimeoutVerdict() throws Exception {
        // Given a check that never answers, a 2 s check timeout and 300 ms heartbeats
        AtomicBoolean cancelled = new AtomicBoolean();
        TestHook hook = new TestHook(GateSelector.stages(Stage.PRE_UPDATE), (r, c) -> {
            c.onCancel(() -> cancelled.set(true));
            return new CompletableFuture<>();
        });
        fx.deploy(hook, HookRunnerConfig.fromEnvironment(fx.env("java-slow", "MCDHOOKS_CHECK_TIMEOUT", "2s")));
        GateRequest request = Requests.preUpdate("node-1", Duration.ofMinutes(5));

        // When its request arrives
        long offset = fx.publish(request).offset();

        // Then PENDING heartbeats come first, each a distinct event, then one FAIL CheckTimedOut
        Verdict verdict = fx.awaitFinalVerdict(request, WAIT);
        assertThat(verdict.outcome()).isEqualTo(Outcome.FAIL);
        assertThat(verdict.reason()).isEqualTo("CheckTimedOut");
        List<ConsumerRecord<byte[], byte[]>> heartbeats = fx.verdictRecords().stream()
                .filter(r -> fx.verdict(r).outcome() == Outcome.PENDING)
                .toList();
        assertThat(heartbeats).hasSizeGreaterThanOrEqualTo(3);
        assertThat(heartbeats)
                .extracting(r -> CloudEventsKafka.header(r.headers(), "ce_id"))
                .doesNotHaveDuplicates();
        assertThat(fx.verdictsFor(request).get(fx.verdictsFor(request).size() - 1))
                .isEqualTo(verdict);
        assertThat(cancelled).isTrue();
        await().atMost(WAIT).until(() -> fx.committed(Topics.hookGroup("java-slow")) == offset + 1);
        // And no heartbeat follows the final verdict
        int count = fx.verdictsFor(request).size();
        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(3))
                .until(() -> fx.verdictsFor(request).size() == count);
    }

    @Test
    void retriesTransientErrorsWithBackOffAndThenPasses() throws Exception {
        // Given a check that fails twice before it answers
        AtomicInteger calls = new AtomicInteger();
        TestHook hook = new TestHook(
                GateSelector.stages(Stage.PRE_UPDATE),
                (r, c) -> calls.incrementAndGet() <= 2
                        ? CompletableFuture.failedFuture(new IllegalStateException("registry unreachable"))
                        : CompletableFuture.completedFuture(CheckResult.pass("AllGood", "fine")));
        fx.deploy(hook, HookRunnerConfig.fromEnvironment(fx.env("java-retry")));
        GateRequest request = Requests.preUpdate("node-1", Duration.ofMinutes(5));

        // When its request arrives
        fx.publish(request);

        // Then the only final verdict is the PASS of the third run
        assertThat(fx.awaitFinalVerdict(request, WAIT).outcome()).isEqualTo(Outcome.PASS);
        assertThat(calls).hasValue(3);
        assertThat(fx.finalVerdictsFor(request)).hasSize(1);
    }

    @Test
    void aFailThatAsksForARecheckIsFollowedByAPassOfTheSameAttempt(@TempDir Path dir) throws Exception {
        // Given the guide's change-freeze hook, with the freeze in place
        Path freeze = Files.createFile(dir.resolve("freeze"));
        fx.deploy(
                new ChangeFreezeHook(freeze, Duration.ofSeconds(1)),
                HookRunnerConfig.fromEnvironment(fx.env("change-freeze")));
        GateRequest request = Requests.poolPreUpdate("worker", Duration.ofMinutes(5));

        // When its request arrives
        long offset = fx.publish(request).offset();

        // Then it FAILs, promising a re-check, and the request stays uncommitted
        Verdict fail = fx.awaitFinalVerdict(request, WAIT);
        assertThat(fail.outcome()).isEqualTo(Outcome.FAIL);
        assertThat(fail.reason()).isEqualTo("ChangeFreeze");
        assertThat(fail.retryAfterSeconds()).isEqualTo(1);
        assertThat(fx.committed(Topics.hookGroup("change-freeze"))).isEqualTo(-1);

        // When the freeze is lifted
        Files.delete(freeze);

        // Then a re-check PASSes the same gate and attempt, and only now is the request committed
        await().atMost(WAIT)
                .until(() -> fx.finalVerdictsFor(request).stream().anyMatch(v -> v.outcome() == Outcome.PASS));
        Verdict pass =
                fx.finalVerdictsFor(request).get(fx.finalVerdictsFor(request).size() - 1);
        assertThat(pass.reason()).isEqualTo("NoChangeFreeze");
        assertThat(pass.attempt()).isEqualTo(fail.attempt());
        await().atMost(WAIT).until(() -> fx.committed(Topics.hookGroup("change-freeze")) == offset + 1);
    }

    @Test
    void aSoakedPostUpdateCheckPassesOnlyAfterPassingThroughoutAndAFailDuringItHolds() throws Exception {
        // Given a self-check soaked for 2 s, run every 300 ms: worker-1 stays healthy, worker-2 breaks on its 4th run
        AtomicInteger worker2Runs = new AtomicInteger();
        TestHook hook = new TestHook(GateSelector.stages(Stage.POST_UPDATE), (r, c) -> {
            boolean broken = r.node().name().equals("worker-2") && worker2Runs.incrementAndGet() >= 4;
            return CompletableFuture.completedFuture(
                    broken
                            ? CheckResult.fail("ProbeFailed", "kubelet does not answer")
                            : CheckResult.pass("Healthy", "probes answer"));
        });
        fx.deploy(
                hook,
                HookRunnerConfig.fromEnvironment(
                        fx.env("java-soak", "MCDHOOKS_SOAK", "2s", "MCDHOOKS_SOAK_INTERVAL", "300ms")));
        GateRequest healthy = Requests.postUpdate("worker-1", Duration.ofMinutes(5));
        GateRequest breaking = Requests.postUpdate("worker-2", Duration.ofMinutes(5));

        // When both nodes' post-update gates open
        long start = System.nanoTime();
        fx.publish(healthy);
        fx.publish(breaking);

        // Then worker-1's only final verdict is a PASS that came after the soak, heartbeats saying how far it was
        Verdict pass = fx.awaitFinalVerdict(healthy, WAIT);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        assertThat(pass.outcome()).isEqualTo(Outcome.PASS);
        assertThat(pass.message()).isEqualTo("probes answer (healthy for 2 s)");
        assertThat(fx.verdictsFor(healthy))
                .filteredOn(v -> v.outcome() == Outcome.PENDING)
                .anySatisfy(v -> {
                    assertThat(v.reason()).isEqualTo(GateCheck.SOAKING_REASON);
                    assertThat(v.message()).startsWith("soaking: ").endsWith(" of 2 s");
                });

        // And worker-2's is the FAIL that broke its soak, which holds it
        Verdict fail = fx.awaitFinalVerdict(breaking, WAIT);
        assertThat(fail.outcome()).isEqualTo(Outcome.FAIL);
        assertThat(fail.reason()).isEqualTo("ProbeFailed");
        assertThat(fail.message()).startsWith("after ").endsWith(" of a 2 s soak: kubelet does not answer");
        assertThat(fx.finalVerdictsFor(breaking)).hasSize(1);
    }

    /** A hook whose behaviour each test sets. */
    static final class TestHook implements Hook {
        private final GateSelector selector;
        final AtomicInteger checks = new AtomicInteger();
        private final BiFunction<GateRequest, CheckContext, CompletionStage<CheckResult>> behaviour;

        TestHook(GateSelector selector, BiFunction<GateRequest, CheckContext, CompletionStage<CheckResult>> behaviour) {
            this.selector = selector;
            this.behaviour = behaviour;
        }

        @Override
        public GateSelector selector() {
            return selector;
        }

        @Override
        public CompletionStage<CheckResult> check(GateRequest request, CheckContext context) {
            checks.incrementAndGet();
            return behaviour.apply(request, context);
        }
    }
}
