package io.mcdhooks.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The bridge process, started for real: a wrong setting stops it before it reaches for Kafka or Kubernetes. */
class MainTest {

    @Test
    void exitsWithStatusTwoAndOneLineNamingTheVariableWhenASettingIsWrong() throws Exception {
        // Given a bridge whose MCDHOOKS_GATEKEEPER is neither true nor false, and no broker anywhere
        ProcessBuilder builder = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().clear();
        builder.environment().put("MCDHOOKS_CLUSTER", "c");
        builder.environment()
                .put(
                        "MCDHOOKS_STATE_KEY_FILE",
                        TestEnvironment.stateKeyFile("c").toString());
        builder.environment().put("KAFKA_BOOTSTRAP_SERVERS", "localhost:1");
        builder.environment().put("MCDHOOKS_GATEKEEPER", "yes");

        // When it starts
        Process bridge = builder.start();
        boolean exited = bridge.waitFor(60, TimeUnit.SECONDS);

        // Then it stops at once with status 2 and says what is wrong on one line
        try {
            assertThat(exited).as("the bridge exited").isTrue();
            assertThat(bridge.exitValue()).isEqualTo(2);
            assertThat(stderr(bridge))
                    .containsExactly("mcdhooks bridge: configuration error: MCDHOOKS_GATEKEEPER='yes' is invalid:"
                            + " expected true or false");
        } finally {
            bridge.destroyForcibly();
        }
    }

    private static List<String> stderr(Process process) throws IOException {
        return new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)
                .lines()
                .toList();
    }
}
