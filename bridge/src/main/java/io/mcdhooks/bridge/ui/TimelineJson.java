package io.mcdhooks.bridge.ui;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code /api/timeline}: the rollout's history as the timeline draws it, grouped by pool. Up to
 * {@value #ALL_ROWS} nodes every node has a row; beyond, nodes that only waited or were up to date
 * all along are counted per phase instead ({@code collapsed}), and at most {@value #ROW_CAP} rows
 * are sent: held and degraded nodes first, then those in progress, then the latest done. Times are
 * epoch milliseconds of the bridge's clock. Pure.
 */
final class TimelineJson {

    static final int ALL_ROWS = 40;
    static final int ROW_CAP = 300;
    /** The longest stretch of time shown, back from now. */
    static final Duration WINDOW = Duration.ofHours(12);

    private static final Set<String> QUIET = Set.of(NodePhase.UP_TO_DATE.name(), NodePhase.WAITING.name());

    private TimelineJson() {}

    private record Candidate(RolloutHistory.Row row, RolloutObserver.NodeNow now, int rank, Instant lastChange) {}

    static JsonObject build(RolloutHistory history, Map<String, RolloutObserver.NodeNow> current, Instant now) {
        Instant floor = now.minus(WINDOW);
        List<Candidate> all = new ArrayList<>();
        for (RolloutHistory.Row row : history.nodes()) {
            RolloutObserver.NodeNow seen = current.get(row.name());
            if (seen != null && row.current() != null) {
                all.add(new Candidate(row, seen, rank(row, seen), row.current().from()));
            }
        }
        // Which nodes get a row: the most telling first, the latest change first within a rank.
        List<Candidate> chosen = new ArrayList<>();
        Map<String, Map<String, Long>> collapsed = new HashMap<>();
        all.sort(Comparator.comparingInt(Candidate::rank)
                .thenComparing(Candidate::lastChange, Comparator.reverseOrder())
                .thenComparing(c -> c.row().name()));
        boolean everyNode = all.size() <= ALL_ROWS;
        for (Candidate c : all) {
            if (everyNode || (c.rank() < 3 && chosen.size() < ROW_CAP)) {
                chosen.add(c);
            } else {
                collapsed
                        .computeIfAbsent(poolKey(c.now().pool()), p -> new TreeMap<>())
                        .merge(c.now().phase().name(), 1L, Long::sum);
            }
        }
        Map<String, List<Candidate>> byPool = new TreeMap<>();
        Map<String, Map<String, Long>> counts = new TreeMap<>();
        for (Candidate c : all) {
            counts.computeIfAbsent(poolKey(c.now().pool()), p -> new TreeMap<>())
                    .merge(c.now().phase().name(), 1L, Long::sum);
        }
        for (Candidate c : chosen) {
            byPool.computeIfAbsent(poolKey(c.now().pool()), p -> new ArrayList<>())
                    .add(c);
        }
        Instant start = now;
        JsonArray groups = new JsonArray();
        List<String> poolNames = new ArrayList<>(counts.keySet());
        for (RolloutHistory.Row pool : history.pools()) {
            if (!poolNames.contains(pool.name())) {
                poolNames.add(pool.name());
            }
        }
        poolNames.sort(Comparator.comparing((String p) -> p.isEmpty()).thenComparing(Comparator.naturalOrder()));
        for (String poolName : poolNames) {
            RolloutHistory.Row pool = history.pool(poolName);
            JsonObject group = new JsonObject().put("pool", poolName);
            if (pool != null && pool.current() != null) {
                group.put("phase", pool.current().phase())
                        .put("label", pool.current().label());
                group.put("spans", spans(pool, floor)).put("marks", marks(pool, floor));
                start = earliest(start, pool, PoolPhase.AT_REST.name(), floor);
            } else {
                group.put("spans", new JsonArray()).put("marks", new JsonArray());
            }
            group.put("counts", new JsonObject(new HashMap<>(counts.getOrDefault(poolName, Map.of()))));
            group.put("collapsed", new JsonObject(new HashMap<>(collapsed.getOrDefault(poolName, Map.of()))));
            List<Candidate> rows = byPool.getOrDefault(poolName, List.of());
            // Held nodes on top of their pool; the others as a staircase, by when each started.
            rows.sort(Comparator.comparing((Candidate c) -> !c.now().phase().held())
                    .thenComparing(c -> firstActive(c.row()), Comparator.nullsLast(Comparator.naturalOrder()))
                    .thenComparing(c -> c.row().name()));
            JsonArray nodes = new JsonArray();
            for (Candidate c : rows) {
                nodes.add(node(c, floor));
                start = earliest(start, c.row(), NodePhase.UP_TO_DATE.name(), floor);
            }
            groups.add(group.put("nodes", nodes));
        }
        if (!start.isBefore(now)) {
            start = now.minus(Duration.ofMinutes(1));
        }
        JsonObject phases = new JsonObject();
        for (NodePhase p : NodePhase.values()) {
            phases.put(p.name(), p.label());
        }
        for (PoolPhase p : PoolPhase.values()) {
            phases.put(p.name(), p.label());
        }
        return new JsonObject()
                .put("generatedAt", now.toEpochMilli())
                .put("start", start.toEpochMilli())
                .put("total", all.size())
                .put("shown", chosen.size())
                .put("phases", phases)
                .put("groups", groups);
    }

    /** 0 held or degraded, 1 in progress, 2 done, 3 only waited or up to date. */
    private static int rank(RolloutHistory.Row row, RolloutObserver.NodeNow now) {
        NodePhase phase = now.phase();
        if (phase.held() || phase == NodePhase.DEGRADED) {
            return 0;
        }
        boolean quiet = row.marks().isEmpty() && row.spans().stream().allMatch(s -> QUIET.contains(s.phase()));
        if (quiet) {
            return 3;
        }
        return phase == NodePhase.DONE || QUIET.contains(phase.name()) ? 2 : 1;
    }

    private static JsonObject node(Candidate c, Instant floor) {
        JsonArray blocking = new JsonArray();
        for (RolloutObserver.Blocking b : c.now().blocking()) {
            blocking.add(new JsonObject()
                    .put("hook", b.hook())
                    .put("stage", b.stage())
                    .put("state", b.state())
                    .put("reason", b.reason())
                    .put("message", b.message()));
        }
        return new JsonObject()
                .put("name", c.row().name())
                .put("zone", c.now().zone())
                .put("phase", c.now().phase().name())
                .put("label", c.now().phase().label())
                .put("held", c.now().phase().held())
                .put("spans", spans(c.row(), floor))
                .put("marks", marks(c.row(), floor))
                .put("blocking", blocking);
    }

    private static JsonArray spans(RolloutHistory.Row row, Instant floor) {
        JsonArray out = new JsonArray();
        List<RolloutHistory.Span> spans = row.spans();
        for (int i = 0; i < spans.size(); i++) {
            RolloutHistory.Span s = spans.get(i);
            boolean endsBeforeFloor =
                    i + 1 < spans.size() && spans.get(i + 1).from().isBefore(floor);
            if (!endsBeforeFloor) {
                Instant from = s.from().isBefore(floor) ? floor : s.from();
                out.add(new JsonObject().put("phase", s.phase()).put("from", from.toEpochMilli()));
            }
        }
        return out;
    }

    private static JsonArray marks(RolloutHistory.Row row, Instant floor) {
        JsonArray out = new JsonArray();
        for (RolloutHistory.Mark m : row.marks()) {
            if (!m.at().isBefore(floor)) {
                out.add(new JsonObject()
                        .put("gate", m.gate())
                        .put("stage", m.stage())
                        .put("hook", m.hook())
                        .put("outcome", m.outcome())
                        .put("reason", m.reason())
                        .put("at", m.at().toEpochMilli()));
            }
        }
        return out;
    }

    /** When the row's first phase other than {@code rest} began, or {@code null}. */
    private static Instant firstActive(RolloutHistory.Row row) {
        for (RolloutHistory.Span s : row.spans()) {
            if (!QUIET.contains(s.phase())) {
                return s.from();
            }
        }
        return null;
    }

    private static Instant earliest(Instant start, RolloutHistory.Row row, String rest, Instant floor) {
        for (RolloutHistory.Span s : row.spans()) {
            if (!s.phase().equals(rest)) {
                Instant from = s.from().isBefore(floor) ? floor : s.from();
                return from.isBefore(start) ? from : start;
            }
        }
        return start;
    }

    private static String poolKey(String pool) {
        return pool == null ? "" : pool;
    }
}
