package io.mcdhooks.sandbox.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * One line of the result table: a latency (percentiles in ms) or a single value, with its
 * target and whether it was met ({@code null}: no target).
 */
record Row(String number, String name, String span, Latency.Stats latency, Double value, String unit,
           String target, Boolean met, String note) {

    static Row latency(String number, String name, String span, Latency.Stats stats, String target, Boolean met,
                       String note) {
        return new Row(number, name, span, stats, null, "ms", target, met, note);
    }

    static Row value(String number, String name, String span, double value, String unit, String target, Boolean met,
                     String note) {
        return new Row(number, name, span, null, value, unit, target, met, note);
    }

    /** Every number of the row, for a check that the run produced sane figures. */
    List<Double> numbers() {
        List<Double> out = new ArrayList<>();
        if (latency != null) {
            out.add((double) latency.count());
            out.add(latency.p50());
            out.add(latency.p99());
            out.add(latency.p999());
        }
        if (value != null) {
            out.add(value);
        }
        return out;
    }
}
