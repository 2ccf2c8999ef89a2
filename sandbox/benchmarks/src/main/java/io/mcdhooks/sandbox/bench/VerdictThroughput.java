package io.mcdhooks.sandbox.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs {@link GatekeeperProbe} in a forked JVM (same classpath) and reads its result line. */
final class VerdictThroughput {

    /** The bridge image's heap under its 1 GiB memory limit ({@code -XX:MaxRAMPercentage=75}), default GC. */
    static final List<String> JVM_OPTIONS = List.of("-Xmx768m");

    private VerdictThroughput() {
    }

    static Map<String, Double> measure(int nodes, int hooks) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new java.util.ArrayList<>();
        command.add(java);
        command.addAll(JVM_OPTIONS);
        command.add("-Dmcdhooks.log.file=" + System.getProperty("mcdhooks.log.file", "target/benchmarks-probe.log"));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), GatekeeperProbe.class.getName(),
                Integer.toString(nodes), Integer.toString(hooks)));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Map<String, Double> result = new HashMap<>();
        StringBuilder output = new StringBuilder();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
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
