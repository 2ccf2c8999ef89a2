package io.mcdhooks.sandbox.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Row 4: the gatekeeper's speed with JMH ({@link GatekeeperBench}), its memory with
 * {@link GatekeeperProbe}; both in forked JVMs on this one's classpath, sized as the bridge is.
 */
final class VerdictThroughput {

    /** The bridge image's JVM under its memory limit, as {@link GatekeeperBench} runs. */
    static final List<String> JVM_OPTIONS = List.of(GatekeeperBench.MAX_RAM, GatekeeperBench.MAX_RAM_PERCENTAGE);

    /** Verdicts per second, records decoded and decided ({@code decodeAndDecide}) and decided alone. */
    record Speed(double decodeAndDecide, double decide, int shots) {}

    private VerdictThroughput() {}

    static Speed speed(int gates, int hooks, int warmups, int shots) throws RunnerException {
        List<String> jvm = new ArrayList<>(JVM_OPTIONS);
        jvm.add(forkLog("jmh"));
        Options options = new OptionsBuilder()
                .include(GatekeeperBench.class.getName() + "\\.")
                .param("gates", Integer.toString(gates))
                .param("hooks", Integer.toString(hooks))
                .warmupIterations(warmups)
                .measurementIterations(shots)
                .forks(1)
                .jvmArgsAppend(jvm.toArray(String[]::new))
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT)
                .build();
        Map<String, Double> msPerShot = new HashMap<>();
        for (RunResult result : new Runner(options).run()) {
            String method = result.getParams().getBenchmark();
            msPerShot.put(
                    method.substring(method.lastIndexOf('.') + 1),
                    result.getPrimaryResult().getScore());
        }
        double verdicts = (double) gates * hooks;
        return new Speed(
                verdicts / (msPerShot.get("decodeAndDecide") / 1000),
                verdicts / (msPerShot.get("decide") / 1000),
                shots);
    }

    /** A log file of a forked JVM's own next to this one's, which it would otherwise overwrite. */
    private static String forkLog(String fork) {
        String log = System.getProperty("mcdhooks.log.file", "target/benchmarks.log");
        return "-Dmcdhooks.log.file=" + log.replaceFirst("(\\.log)?$", "-" + fork + ".log");
    }

    static Map<String, Double> memory(int nodes, int hooks) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(JVM_OPTIONS);
        command.add(forkLog("probe"));
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                GatekeeperProbe.class.getName(),
                Integer.toString(nodes),
                Integer.toString(hooks)));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Map<String, Double> result = new HashMap<>();
        StringBuilder output = new StringBuilder();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                output.append(line).append('\n');
                if (line.startsWith("RESULT ")) {
                    for (String pair : line.substring(7).trim().split("\\s+")) {
                        String[] kv = pair.split("=", 2);
                        result.put(kv[0], Double.parseDouble(kv[1]));
                    }
                }
            }
        }
        if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0 || result.isEmpty()) {
            process.destroyForcibly();
            throw new IllegalStateException("the gatekeeper probe failed:\n" + output);
        }
        return result;
    }
}
