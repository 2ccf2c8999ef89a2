package io.mcdhooks.sandbox.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The result table in Markdown, with the machine it ran on and each latency against the floor. */
final class Report {

    private final Machine machine;
    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private Latency.Stats floor;
    private double seconds;
    private String loadAfter = "n/a";
    private String sizes = "";

    Report(Machine machine) {
        this.machine = machine;
    }

    void floor(Latency.Stats floor) {
        this.floor = floor;
    }

    void add(Row row) {
        rows.add(row);
    }

    void note(String note) {
        notes.add(note);
    }

    void finish(double seconds, String loadAfter, String sizes) {
        this.seconds = seconds;
        this.loadAfter = loadAfter;
        this.sizes = sizes;
    }

    List<Row> rows() {
        return List.copyOf(rows);
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append(String.format(
                Locale.ROOT,
                "Machine: %d cores (%s), %,d MiB memory, %s, %s. "
                        + "Load average at start %s, at end %s. Run took %.0f s. Sizes: %s.%n%n",
                machine.cores(),
                machine.cpu(),
                machine.memoryMiB(),
                machine.jvm(),
                machine.os(),
                machine.loadAverage(),
                loadAfter,
                seconds,
                sizes));
        md.append(
                "| # | measurement | from → to | n | p50 | p99 | p99.9 | value | p99 / floor p99 | target | met? |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row row : rows) {
            Latency.Stats l = row.latency();
            String ratio = l != null && row.againstFloor() && floor != null && floor.p99() > 0
                    ? String.format(Locale.ROOT, "%.1f×", l.p99() / floor.p99())
                    : "";
            md.append("| ")
                    .append(row.number())
                    .append(" | ")
                    .append(row.name())
                    .append(" | ")
                    .append(row.span())
                    .append(" | ")
                    .append(l == null ? "" : Long.toString(l.count()))
                    .append(" | ")
                    .append(l == null ? "" : ms(l.p50()))
                    .append(" | ")
                    .append(l == null ? "" : ms(l.p99()))
                    .append(" | ")
                    .append(l == null ? "" : ms(l.p999()))
                    .append(" | ")
                    .append(row.value() == null ? "" : value(row.value(), row.unit()))
                    .append(" | ")
                    .append(ratio)
                    .append(" | ")
                    .append(row.target() == null ? "" : row.target())
                    .append(" | ")
                    .append(row.met() == null ? "" : row.met() ? "yes" : "**no**")
                    .append(" |\n");
        }
        if (!notes.isEmpty()) {
            md.append('\n');
            notes.forEach(n -> md.append("- ").append(n).append('\n'));
        }
        return md.toString();
    }

    private static String ms(double value) {
        return String.format(Locale.ROOT, value < 10 ? "%.2f ms" : "%.1f ms", value);
    }

    private static String value(double value, String unit) {
        String number = Math.abs(value) >= 1000
                ? String.format(Locale.ROOT, "%,.0f", value)
                : String.format(Locale.ROOT, Math.abs(value) >= 10 ? "%.1f" : "%.2f", value);
        return number + " " + unit;
    }
}
