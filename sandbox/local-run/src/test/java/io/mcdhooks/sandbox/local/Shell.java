package io.mcdhooks.sandbox.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A documented command run by bash from the repository root, in its own session (so the whole
 * process group can be signalled), with its output collected line by line as it comes.
 */
final class Shell implements AutoCloseable {

    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private Shell(Process process) {
        this.process = process;
        this.reader = new Thread(
                () -> {
                    try (BufferedReader in = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line = in.readLine(); line != null; line = in.readLine()) {
                            lines.add(line);
                        }
                    } catch (IOException e) {
                        lines.add("(output no longer readable: " + e.getMessage() + ")");
                    }
                },
                "shell-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code script} with {@code bash -c}, stdout and stderr merged, with these extra
     * variables. SIGINT is reset to its default first: a build started in the background by a
     * non-interactive shell inherits it ignored, bash cannot undo that, and a JVM that finds it
     * ignored never installs its handler, so Ctrl-C ({@link #signal}) would be lost.
     */
    static Shell start(String script, Map<String, String> env) {
        ProcessBuilder builder = new ProcessBuilder("setsid", "env", "--default-signal=INT", "bash", "-c", script)
                .directory(DocBlocks.REPO.toFile())
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.PIPE);
        builder.environment().putAll(env);
        try {
            return new Shell(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start: " + script, e);
        }
    }

    /** Runs {@code script} to its end (at most {@code seconds}) and returns its exit code. */
    static Result run(String script, Map<String, String> env, long seconds) {
        try (Shell shell = start(script, env)) {
            int code = shell.waitFor(seconds);
            return new Result(script, code, shell.output());
        }
    }

    record Result(String script, int exitCode, String output) {}

    int waitFor(long seconds) {
        try {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                throw new AssertionError("still running after " + seconds + " s:\n" + output());
            }
            reader.join(TimeUnit.SECONDS.toMillis(5));
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    String output() {
        return String.join("\n", lines);
    }

    /** Sends a signal to the whole session: bash, the JVM it started, and what that started. */
    void signal(String name) {
        try {
            new ProcessBuilder("kill", "-" + name, "--", "-" + process.pid())
                    .start()
                    .waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            signal("KILL");
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
