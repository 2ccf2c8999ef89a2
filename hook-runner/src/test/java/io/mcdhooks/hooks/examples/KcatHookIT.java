package io.mcdhooks.hooks.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mcdhooks.hooks.testing.KafkaFixture;
import io.mcdhooks.hooks.testing.Requests;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.kafka.junit.KafkaBrokerExtension;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The guide's shell hook: stock kcat and jq, nothing from this project but the schema. */
@ExtendWith(KafkaBrokerExtension.class)
class KcatHookIT {

    private static final Path SCRIPT = Path.of("examples/kcat/change-freeze.sh").toAbsolutePath();

    private KafkaFixture fx;
    private Process hook;

    @BeforeEach
    void fixture(KafkaBroker broker) {
        assumeTrue(
                onPath("kcat") && onPath("jq"),
                "kcat and jq are not installed (Debian: apt-get install kcat jq); the shell hook cannot be tested");
        fx = new KafkaFixture(broker);
    }

    @AfterEach
    void close() throws Exception {
        if (hook != null) {
            // The script runs in its own session: kill its whole pipeline (kcat, the loop, jq).
            new ProcessBuilder("kill", "-KILL", "--", "-" + hook.pid()).start().waitFor();
            hook.waitFor();
        }
        if (fx != null) {
            fx.close();
        }
    }

    @Test
    void aShellScriptWithKcatAnswersGateRequestsWithValidVerdicts() throws Exception {
        // Given the guide's script running during a change freeze (kcat exits if its topic is missing)
        fx.createTopic(fx.requestsTopic, 1);
        ProcessBuilder builder = new ProcessBuilder("setsid", SCRIPT.toString())
                .redirectErrorStream(true)
                .redirectOutput(new File("target/kcat-hook.log"));
        builder.environment()
                .putAll(Map.of(
                        "BOOTSTRAP",
                        fx.bootstrapServers(),
                        "REQUESTS_TOPIC",
                        fx.requestsTopic,
                        "VERDICTS_TOPIC",
                        fx.verdictsTopic,
                        "FREEZE",
                        "end-of-quarter"));
        hook = builder.start();

        // When a pool gate and a node gate open
        GateRequest pool = Requests.poolPreUpdate("worker", Duration.ofMinutes(5));
        GateRequest node = Requests.preUpdate("node-1", Duration.ofMinutes(5));
        fx.publish(pool);
        fx.publish(node);

        // Then each gets a FAIL that passes the wire contract (CloudEvents headers, schema, key)
        Verdict poolVerdict = fx.awaitFinalVerdict(pool, Duration.ofSeconds(60));
        Verdict nodeVerdict = fx.awaitFinalVerdict(node, Duration.ofSeconds(60));
        assertThat(poolVerdict.outcome()).isEqualTo(Outcome.FAIL);
        assertThat(poolVerdict.reason()).isEqualTo("ChangeFreeze");
        assertThat(poolVerdict.message()).isEqualTo("change freeze: end-of-quarter");
        assertThat(poolVerdict.node()).isNull();
        assertThat(poolVerdict.hook()).isEqualTo("shell-change-freeze");
        assertThat(nodeVerdict.node()).isEqualTo("node-1");
        assertThat(nodeVerdict.attempt()).isEqualTo(node.attempt());
        List<ConsumerRecord<byte[], byte[]>> records = fx.verdictRecords();
        assertThat(records)
                .allSatisfy(r -> assertThat(CloudEventsKafka.header(r.headers(), "ce_source"))
                        .isEqualTo("/hooks/shell-change-freeze"));
    }

    private static boolean onPath(String command) {
        return Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, command)));
    }
}
