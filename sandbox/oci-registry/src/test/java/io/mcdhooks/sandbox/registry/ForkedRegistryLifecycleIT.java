package io.mcdhooks.sandbox.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The registry goes away with whoever started it, however that one ends. */
class ForkedRegistryLifecycleIT {

    @BeforeAll
    static void needsTheRegistry() {
        assumeTrue(ForkedRegistry.installed(), ForkedRegistry.MISSING);
    }

    @Test
    void closeLeavesNoRegistryProcess() {
        ForkedRegistry registry = ForkedRegistry.start(ForkedRegistry.Options.basic("u", "p"));
        List<Long> pids = registry.processIds();
        assertThat(pids).isNotEmpty().allSatisfy(pid -> assertThat(alive(pid)).isTrue());

        registry.close();

        assertThat(pids).allSatisfy(pid -> assertThat(alive(pid)).isFalse());
    }

    @Test
    void theRegistryExitsWhenTheJvmThatStartedItIsKilled() throws Exception {
        // Given a JVM that started a registry
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        RegistryChild.class.getName())
                .redirectErrorStream(true)
                .start();
        List<Long> pids;
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            do {
                line = out.readLine();
            } while (line != null && !line.startsWith("registry ["));
            assertThat(line).as("the child's registry line").isNotNull();
            pids = Arrays.stream(line.substring("registry [".length(), line.length() - 1)
                            .split(", "))
                    .map(Long::parseLong)
                    .toList();
        }

        // When that JVM is killed without a chance to clean up
        child.destroyForcibly().waitFor();

        // Then the registry and its wrapper exit too
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(pids)
                        .allSatisfy(pid -> assertThat(alive(pid)).isFalse()));
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
