package io.mcdhooks.hooks.exec;

import io.mcdhooks.hooks.api.CheckContext;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a shell command in a process group of its own ({@code setsid}), so that cancelling it kills
 * everything it started, background children included; leftovers are killed when it exits, too.
 * Input and output go through temporary files: no pipe can fill up and block the command, and a
 * background child holding stdout open cannot keep the check waiting. Blocking: call it on a worker.
 */
public final class GroupCommand {

    /** Variables of the runner that a command must not see: Kafka credentials and runner settings. */
    private static final String[] HIDDEN_PREFIXES = {"KAFKA_", "MCDHOOKS_"};

    private static final int MAX_TAIL_BYTES = 8192;

    private GroupCommand() {}

    public static CommandResult run(String command, Map<String, String> environment, byte[] stdin, CheckContext context)
            throws IOException, InterruptedException {
        Path in = Files.createTempFile("mcdhooks-stdin-", ".json");
        Path out = Files.createTempFile("mcdhooks-output-", ".log");
        try {
            Files.write(in, stdin);
            ProcessBuilder builder = new ProcessBuilder("setsid", "/bin/sh", "-c", command)
                    .redirectInput(in.toFile())
                    .redirectOutput(out.toFile())
                    .redirectErrorStream(true);
            Map<String, String> env = builder.environment();
            env.keySet().removeIf(name -> Arrays.stream(HIDDEN_PREFIXES).anyMatch(name::startsWith));
            env.putAll(environment);
            Process process = builder.start();
            // The child of the JVM is no group leader, so setsid execs without forking: pid == pgid.
            long group = process.pid();
            context.onCancel(() -> killGroup(group));
            int exitCode = process.waitFor();
            killGroup(group);
            return new CommandResult(exitCode, lastLine(out));
        } finally {
            Files.deleteIfExists(in);
            Files.deleteIfExists(out);
        }
    }

    /** SIGKILL to the whole group; quietly nothing when the group is already gone. */
    static void killGroup(long group) {
        try {
            Process kill = new ProcessBuilder("kill", "-KILL", "--", "-" + group)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            kill.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill for process group " + group, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String lastLine(Path output) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(output.toFile(), "r")) {
            long length = file.length();
            int size = (int) Math.min(length, MAX_TAIL_BYTES);
            byte[] tail = new byte[size];
            file.seek(length - size);
            file.readFully(tail);
            String[] lines = new String(tail, StandardCharsets.UTF_8).split("\\R");
            for (int i = lines.length - 1; i >= 0; i--) {
                if (!lines[i].isBlank()) {
                    return lines[i].strip();
                }
            }
            return "";
        }
    }
}
