package io.mcdhooks.sandbox.bench;

import org.HdrHistogram.Histogram;

/** Latencies in nanoseconds (3 significant digits), recorded from any thread, read in milliseconds. */
final class Latency {

    private final Histogram histogram = new Histogram(3);

    synchronized void record(long nanos) {
        histogram.recordValue(Math.max(0, nanos));
    }

    synchronized Stats stats() {
        return new Stats(
                histogram.getTotalCount(),
                ms(histogram.getValueAtPercentile(50)),
                ms(histogram.getValueAtPercentile(99)),
                ms(histogram.getValueAtPercentile(99.9)),
                ms(histogram.getMaxValue()));
    }

    private static double ms(long nanos) {
        return nanos / 1_000_000.0;
    }

    /** Percentiles in milliseconds over {@code count} samples. */
    record Stats(long count, double p50, double p99, double p999, double max) {}
}
