package io.mcdhooks.hooks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mcdhooks.hooks.testing.Requests;
import io.mcdhooks.hooks.testing.WithKafkaFixture;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.kafka.Topics;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A runner process SIGKILLed during a check, then restarted: still exactly one final verdict. */
class RunnerKilledMidCheckIT extends WithKafkaFixture {

    private Process runner;

    @AfterEach
    void killRunner() throws Exception {
        if (runner != null) {
            runner.destroyForcibly().waitFor();
        }
    }

    @Test
    void aRunnerKilledMidCheckGivesExactlyOneFinalVerdictPerGateAndAttemptAfterRestart() throws Exception {
        // Given a runner process hosting a slow exec hook (a dead member leaves the group after 6 s)
        Map<String, String> env = fx.env(
                "slow-exec",
                "MCDHOOKS_HOOK_KIND",
                "exec",
                "MCDHOOKS_EXEC_COMMAND",
                "sleep 3; echo checked $MCDHOOKS_NODE",
                "KAFKA_SESSION_TIMEOUT_MS",
                "6000",
                "KAFKA_HEARTBEAT_INTERVAL_MS",
                "1000");
        runner = startRunner(env, "first");
        GateRequest request = Requests.preUpdate("node-1", Duration.ofMinutes(5));
        long offset = fx.publish(request).offset();

        // When it is killed while the check runs (its heartbeats are on the topic, no final verdict yet)
        await().atMost(Duration.ofSeconds(60))
                .until(() -> !fx.verdictsFor(request).isEmpty());
        assertThat(fx.finalVerdictsFor(request)).isEmpty();
        runner.destroyForcibly().waitFor();

        // And a new runner takes over
        runner = startRunner(env, "second");

        // Then the gate gets exactly one final verdict for its attempt, and the request is committed
        await().atMost(Duration.ofSeconds(90))
                .until(() -> !fx.finalVerdictsFor(request).isEmpty());
        await().atMost(Duration.ofSeconds(30)).until(() -> fx.committed(Topics.hookGroup("slow-exec")) == offset + 1);
        List<Verdict> finals = fx.finalVerdictsFor(request);
        assertThat(finals).hasSize(1);
        assertThat(finals.get(0).outcome()).isEqualTo(Outcome.PASS);
        assertThat(finals.get(0).attempt()).isEqualTo(request.attempt());
        assertThat(finals.get(0).message()).isEqualTo("checked node-1");
    }

    private static Process startRunner(Map<String, String> env, String name) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(
                        java,
                        "-Xmx128m",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName())
                .redirectErrorStream(true)
                .redirectOutput(new File("target/runner-killed-mid-check-" + name + ".log"));
        builder.environment().putAll(env);
        return builder.start();
    }
}
