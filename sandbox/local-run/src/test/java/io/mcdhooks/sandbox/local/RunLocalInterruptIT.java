package io.mcdhooks.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mcdhooks.sandbox.registry.ForkedRegistry;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The real main in a child JVM, as {@code ./run-local} starts it: Ctrl-C (SIGINT) mid-rollout stops
 * everything, and no forked {@code SandboxBroker} process is left behind.
 */
class RunLocalInterruptIT {

    private Process child;

    @AfterEach
    void killChild() {
        if (child != null && child.isAlive()) {
            child.descendants().forEach(ProcessHandle::destroyForcibly);
            child.destroyForcibly();
        }
    }

    @Test
    void ctrlCMidRolloutStopsEverythingAndLeavesNoBrokerProcess() throws Exception {
        assumeTrue(ForkedRegistry.installed(), ForkedRegistry.MISSING);
        // Given the local run started as a separate process, mid-rollout
        String classes = System.getProperty("local-run.classes");
        String classpath = Files.readString(Path.of(System.getProperty("local-run.classpath")))
                .trim();
        Path log = Files.createTempFile("run-local-interrupt", ".log");
        child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Dmcdhooks.log.file=" + log,
                        "-cp",
                        classes + File.pathSeparator + classpath,
                        LocalRun.class.getName(),
                        "--scenario",
                        "post-check-fails",
                        "--masters",
                        "1",
                        "--workers",
                        "3",
                        "--zones",
                        "1",
                        "--http-port",
                        "0",
                        "--plain")
                .redirectErrorStream(true)
                .start();
        List<String> lines = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader in =
                            new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line = in.readLine(); line != null; line = in.readLine()) {
                            lines.add(line);
                        }
                    } catch (Exception e) {
                        lines.add("reader: " + e);
                    }
                },
                "child-output");
        reader.start();
        await().atMost(Duration.ofSeconds(90)).until(() -> lines.stream().anyMatch(l -> l.contains("rolled out")));
        List<ProcessHandle> brokers = new ArrayList<>(
                child.descendants().filter(RunLocalInterruptIT::isBroker).toList());
        assertThat(brokers).as("the forked broker runs under the local run").isNotEmpty();
        List<ProcessHandle> registries = new ArrayList<>(child.descendants()
                .filter(p -> commandLine(p).contains("docker-registry"))
                .toList());
        assertThat(registries).as("the registry runs under the local run").isNotEmpty();

        // When it gets SIGINT, as from Ctrl-C
        Process kill = new ProcessBuilder("/bin/sh", "-c", "kill -INT " + child.pid()).start();
        assertThat(kill.waitFor()).isZero();

        // Then it stops, says so, and no broker process remains
        await().atMost(Duration.ofSeconds(60)).until(() -> !child.isAlive());
        reader.join(5000);
        assertThat(lines).anyMatch(l -> l.startsWith("stopped:"));
        assertThat(brokers).noneMatch(ProcessHandle::isAlive);
        await().atMost(Duration.ofSeconds(20)).until(() -> registries.stream().noneMatch(ProcessHandle::isAlive));
        assertThat(ProcessHandle.allProcesses()
                        .filter(RunLocalInterruptIT::isBroker)
                        .filter(p -> p.parent()
                                .map(parent -> parent.pid() == child.pid())
                                .orElse(false)))
                .isEmpty();
        Files.deleteIfExists(log);
    }

    /** The forked broker's main class is on its command line. */
    private static boolean isBroker(ProcessHandle process) {
        return commandLine(process).contains("SandboxBroker");
    }

    /** A process's command line ({@code /proc} on Linux, else what the JDK sees); empty once gone. */
    private static String commandLine(ProcessHandle process) {
        Path cmdline = Path.of("/proc", Long.toString(process.pid()), "cmdline");
        try {
            if (Files.isReadable(cmdline)) {
                return new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            return ""; // gone meanwhile
        }
        return process.info().commandLine().orElse("");
    }
}
