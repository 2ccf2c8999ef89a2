package io.mcdhooks.sandbox.faults;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A process of the system under test (the bridge, a hook runner) in a JVM of its own, so that it
 * can be killed like a real one: {@link #kill()} is SIGKILL on Linux. Started with the test's
 * classpath and settings that make a JVM start fast on a small machine.
 */
final class ChildJvm {

    private volatile String name;
    private final String mainClass;
    private final Map<String, String> env;
    private final List<String> jvmOptions;
    private final Path log;
    private Process process;
    private int starts;
    private long logOffsetAtStart;
    /** While true the supervisor leaves the process down (an outage being injected). */
    private volatile boolean heldDown;

    ChildJvm(String name, String mainClass, Map<String, String> env, List<String> jvmOptions, Path log) {
        this.name = name;
        this.mainClass = mainClass;
        this.env = Map.copyOf(env);
        this.jvmOptions = List.copyOf(jvmOptions);
        this.log = log;
    }

    String name() {
        return name;
    }

    /**
     * SIGKILL, then start again as a new instance (a replacement pod): {@code {name}} in env and
     * options becomes {@code newName}. One step, so the supervisor's restart of the killed process
     * cannot come in between and start it under the old name, or under both.
     */
    synchronized void replace(String newName) {
        kill();
        name = newName;
        start();
    }

    synchronized void start() {
        if (isAlive()) {
            return;
        }
        String instance = name; // read once: env and options name the same instance
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Xshare:auto",
                "-XX:-UsePerfData",
                "-Djava.awt.headless=true"));
        jvmOptions.forEach(o -> command.add(o.replace("{name}", instance)));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ChildMain.class.getName(), mainClass));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        env.forEach((k, v) -> builder.environment().put(k, v.replace("{name}", instance)));
        logOffsetAtStart = log.toFile().length();
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + instance, e);
        }
        starts++;
    }

    /** SIGKILL, and waits until the process is gone. */
    synchronized void kill() {
        Process p = process;
        if (p == null) {
            return;
        }
        p.destroyForcibly();
        try {
            p.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    void holdDown(boolean down) {
        heldDown = down;
    }

    /** Restarts the process if it exited (crashed, halted after losing the lease), as a kubelet would. */
    synchronized boolean restartIfExited() {
        if (heldDown || process == null || process.isAlive()) {
            return false;
        }
        start();
        return true;
    }

    synchronized int starts() {
        return starts;
    }

    Path log() {
        return log;
    }

    /** Whether the current (or last) process wrote {@code text} to its log. */
    synchronized boolean loggedSinceStart(String text) {
        try (var file = new RandomAccessFile(log.toFile(), "r")) {
            file.seek(Math.min(logOffsetAtStart, file.length()));
            byte[] rest = new byte[(int) (file.length() - file.getFilePointer())];
            file.readFully(rest);
            return new String(rest, StandardCharsets.UTF_8).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    synchronized void close() {
        heldDown = true;
        kill();
    }
}
