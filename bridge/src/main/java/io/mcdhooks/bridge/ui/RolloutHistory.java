package io.mcdhooks.bridge.ui;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the status page's timeline draws: for each node and each pool, the phases it went through
 * (each from when it began) and the verdicts its gates received. Bounded: at most
 * {@link #SPANS} phases and {@link #MARKS} verdicts per row (the oldest go first) and
 * {@link #ROWS} rows of each kind, so memory stays at nodes × entries whatever a rollout does.
 * Pure; one event loop owns it.
 */
public final class RolloutHistory {

    static final int SPANS = 64;
    static final int MARKS = 64;
    static final int ROWS = 10_000;

    /** A phase and when it began. */
    public record Span(String phase, String label, Instant from) {}

    /** A verdict on one of the row's gates, or a hook's timeout. */
    public record Mark(String gate, String stage, String hook, String outcome, String reason, Instant at) {
        String key() {
            return gate + "/" + hook + "/" + outcome + "/" + at;
        }
    }

    /** One row: a node (with its pool) or a pool. */
    public static final class Row {
        private final String name;
        private String pool;
        private final ArrayDeque<Span> spans = new ArrayDeque<>();
        private final ArrayDeque<Mark> marks = new ArrayDeque<>();
        private final Set<String> markKeys = new HashSet<>();

        private Row(String name, String pool) {
            this.name = name;
            this.pool = pool;
        }

        public String name() {
            return name;
        }

        public String pool() {
            return pool;
        }

        public List<Span> spans() {
            return List.copyOf(spans);
        }

        public List<Mark> marks() {
            return List.copyOf(marks);
        }

        /** The phase now, or {@code null} before the first. */
        public Span current() {
            return spans.peekLast();
        }
    }

    private final Map<String, Row> nodes = new LinkedHashMap<>();
    private final Map<String, Row> pools = new LinkedHashMap<>();
    private long dropped;

    /**
     * Notes the phase a node is in at {@code at} (moved to no earlier than its current phase's
     * start); nothing if it is in that phase already. Returns whether a phase began.
     */
    public boolean nodePhase(String node, String pool, String phase, String label, Instant at) {
        Row row = row(nodes, node, pool);
        if (row == null) {
            return false;
        }
        row.pool = pool;
        return begin(row, phase, label, at);
    }

    public boolean poolPhase(String pool, String phase, String label, Instant at) {
        Row row = row(pools, pool, pool);
        return row != null && begin(row, phase, label, at);
    }

    /** Notes a verdict of a node's gate; the same verdict seen again is kept once. */
    public void nodeMark(String node, Mark mark) {
        Row row = nodes.get(node);
        if (row != null) {
            mark(row, mark);
        }
    }

    public void poolMark(String pool, Mark mark) {
        Row row = pools.get(pool);
        if (row != null) {
            mark(row, mark);
        }
    }

    /** Forgets nodes no longer in the cluster and pools no longer defined. */
    public void retain(Set<String> nodeNames, Set<String> poolNames) {
        nodes.keySet().retainAll(nodeNames);
        pools.keySet().retainAll(poolNames);
    }

    public Collection<Row> nodes() {
        return nodes.values();
    }

    public Collection<Row> pools() {
        return pools.values();
    }

    public Row node(String name) {
        return nodes.get(name);
    }

    public Row pool(String name) {
        return pools.get(name);
    }

    /** Rows refused because {@link #ROWS} were kept already. */
    public long dropped() {
        return dropped;
    }

    private Row row(Map<String, Row> rows, String name, String pool) {
        Row row = rows.get(name);
        if (row == null) {
            if (rows.size() >= ROWS) {
                dropped++;
                return null;
            }
            row = new Row(name, pool);
            rows.put(name, row);
        }
        return row;
    }

    private static boolean begin(Row row, String phase, String label, Instant at) {
        Span last = row.spans.peekLast();
        if (last != null && last.phase().equals(phase)) {
            return false;
        }
        Instant from = last != null && at.isBefore(last.from()) ? last.from() : at;
        if (last != null && from.equals(last.from())) {
            // The last phase lasted no time (seen a moment before a gate's own time): replaced.
            row.spans.removeLast();
            if (row.spans.isEmpty() || !row.spans.peekLast().phase().equals(phase)) {
                row.spans.addLast(new Span(phase, label, from));
            }
            return true;
        }
        if (row.spans.size() >= SPANS) {
            row.spans.removeFirst();
        }
        row.spans.addLast(new Span(phase, label, from));
        return true;
    }

    private static void mark(Row row, Mark mark) {
        if (!row.markKeys.add(mark.key())) {
            return;
        }
        if (row.marks.size() >= MARKS) {
            row.markKeys.remove(row.marks.removeFirst().key());
        }
        // Kept in time order: a verdict seen late (a slow hook's clock) goes where it belongs.
        List<Mark> later = new ArrayList<>();
        while (!row.marks.isEmpty() && row.marks.peekLast().at().isAfter(mark.at())) {
            later.add(0, row.marks.removeLast());
        }
        row.marks.addLast(mark);
        row.marks.addAll(later);
    }
}
