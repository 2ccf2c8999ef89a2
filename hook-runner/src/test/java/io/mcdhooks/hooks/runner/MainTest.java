package io.mcdhooks.hooks.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The runner process, started for real: a wrong setting stops it before it reaches for Kafka. */
class MainTest {

    @Test
    void exitsWithStatusTwoAndOneLineNamingTheVariableWhenASettingIsWrong() throws Exception {
        // Given a runner whose heartbeat interval is in a duration form the grammar does not have, and no broker
        ProcessBuilder builder = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().clear();
        builder.environment().put("KAFKA_BOOTSTRAP_SERVERS", "localhost:1");
        builder.environment().put("MCDHOOKS_HOOK_NAME", "disk-check");
        builder.environment().put("MCDHOOKS_HOOK_KIND", "exec");
        builder.environment().put("MCDHOOKS_EXEC_COMMAND", "true");
        builder.environment().put("MCDHOOKS_HEARTBEAT_INTERVAL", "PT30S");

        // When it starts
        Process runner = builder.start();
        boolean exited = runner.waitFor(60, TimeUnit.SECONDS);

        // Then it stops at once with status 2 and says what is wrong on one line
        try {
            assertThat(exited).as("the runner exited").isTrue();
            assertThat(runner.exitValue()).isEqualTo(Main.EXIT_CONFIG).isEqualTo(2);
            assertThat(stderr(runner))
                    .singleElement()
                    .asString()
                    .startsWith("mcdhooks hook runner: configuration error: MCDHOOKS_HEARTBEAT_INTERVAL='PT30S' is"
                            + " invalid: expected a whole number and a unit ms, s, m, h or d");
        } finally {
            runner.destroyForcibly();
        }
    }

    private static List<String> stderr(Process process) throws IOException {
        return new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)
                .lines()
                .toList();
    }
}
