package io.mcdhooks.sandbox.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * One line of the result table: a latency (percentiles in ms) or a single value, with its
 * target and whether it was met ({@code null}: no target). A latency of a message's way through
 * the system is set against the Kafka floor; a duration of the simulated MCO's is not.
 */
record Row(
        String number,
        String name,
        String span,
        Latency.Stats latency,
        Double value,
        String unit,
        String target,
        Boolean met,
        String note,
        boolean againstFloor) {

    static Row latency(
            String number, String name, String span, Latency.Stats stats, String target, Boolean met, String note) {
        return new Row(number, name, span, stats, null, "ms", target, met, note, true);
    }

    /** A step of a simulated rollout: percentiles, but nothing the Kafka floor bounds. */
    static Row duration(String number, String name, String span, Latency.Stats stats) {
        return new Row(number, name, span, stats, null, "ms", null, null, null, false);
    }

    static Row value(
            String number,
            String name,
            String span,
            double value,
            String unit,
            String target,
            Boolean met,
            String note) {
        return new Row(number, name, span, null, value, unit, target, met, note, false);
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
