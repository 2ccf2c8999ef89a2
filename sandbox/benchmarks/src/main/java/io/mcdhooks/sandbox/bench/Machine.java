package io.mcdhooks.sandbox.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What the numbers were measured on, read from the JVM and /proc. */
record Machine(int cores, String cpu, long memoryMiB, String jvm, String os, String loadAverage) {

    static Machine current() {
        return new Machine(
                Runtime.getRuntime().availableProcessors(),
                cpuModel(),
                memTotalKiB() / 1024,
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                currentLoad());
    }

    /** The 1, 5 and 15 minute load averages: other work on a shared machine shows here. */
    static String currentLoad() {
        List<String> lines = lines("/proc/loadavg");
        if (lines.isEmpty()) {
            return "n/a";
        }
        String[] parts = lines.get(0).split("\\s+");
        return parts.length >= 3 ? parts[0] + " " + parts[1] + " " + parts[2] : "n/a";
    }

    /** Resident set size of this process, in KiB (VmRSS), or -1 where /proc is not there. */
    static long residentKiB() {
        return field("/proc/self/status", "VmRSS:");
    }

    /** The highest resident set size of this process so far, in KiB (VmHWM), or -1. */
    static long peakResidentKiB() {
        return field("/proc/self/status", "VmHWM:");
    }

    private static long memTotalKiB() {
        return field("/proc/meminfo", "MemTotal:");
    }

    private static String cpuModel() {
        return lines("/proc/cpuinfo").stream()
                .filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim())
                .findFirst()
                .orElse("n/a");
    }

    private static long field(String file, String name) {
        return lines(file).stream()
                .filter(l -> l.startsWith(name))
                .map(l -> Long.parseLong(l.substring(name.length()).trim().split("\\s+")[0]))
                .findFirst()
                .orElse(-1L);
    }

    private static List<String> lines(String file) {
        try {
            return Files.readAllLines(Path.of(file));
        } catch (IOException e) {
            return List.of();
        }
    }
}
