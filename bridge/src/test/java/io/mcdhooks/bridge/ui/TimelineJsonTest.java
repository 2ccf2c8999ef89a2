package io.mcdhooks.bridge.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the timeline is sent: every node of a small cluster; of a large one the telling nodes, the rest counted. */
class TimelineJsonTest {

    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    private final RolloutHistory history = new RolloutHistory();
    private final Map<String, RolloutObserver.NodeNow> current = new HashMap<>();

    @Test
    void aSmallClusterHasARowPerNodeWithTheHeldOneOnTopOfItsPool() {
        // Given 6 workers: one done, one held after its update, one draining, three waiting
        history.poolPhase("worker", "ROLLING", "Rolling out", T0);
        walk("worker-0", NodePhase.WAITING, NodePhase.DRAINING, NodePhase.DONE);
        walk("worker-1", NodePhase.WAITING, NodePhase.POST_UPDATE_CHECK, NodePhase.HELD_POST_UPDATE);
        walk("worker-2", NodePhase.WAITING, NodePhase.DRAINING);
        for (int i = 3; i < 6; i++) {
            walk("worker-" + i, NodePhase.WAITING);
        }
        history.nodeMark(
                "worker-1",
                new RolloutHistory.Mark(
                        "g#1", "post-update", "node-selfcheck", "FAIL", "NodeUnhealthy", T0.plusSeconds(70)));

        // When the timeline is built
        JsonObject t = TimelineJson.build(history, current, T0.plusSeconds(100));

        // Then every node has a row, the held one first, its spans, mark and blocking hook with it
        JsonObject worker = group(t, "worker");
        assertThat(t.getInteger("shown")).isEqualTo(6);
        assertThat(worker.getJsonObject("collapsed")).isEmpty();
        List<JsonObject> rows = objects(worker.getJsonArray("nodes"));
        assertThat(rows).extracting(r -> r.getString("name")).first().isEqualTo("worker-1");
        assertThat(rows).extracting(r -> r.getString("name")).hasSize(6);
        JsonObject held = rows.get(0);
        assertThat(held.getBoolean("held")).isTrue();
        assertThat(objects(held.getJsonArray("spans")))
                .extracting(s -> s.getString("phase"))
                .containsExactly("WAITING", "POST_UPDATE_CHECK", "HELD_POST_UPDATE");
        assertThat(held.getJsonArray("marks").getJsonObject(0).getString("hook"))
                .isEqualTo("node-selfcheck");
        assertThat(held.getJsonArray("blocking").getJsonObject(0).getString("reason"))
                .isEqualTo("NodeUnhealthy");
        assertThat(worker.getJsonObject("counts").getMap())
                .containsEntry("WAITING", 3L)
                .containsEntry("HELD_POST_UPDATE", 1L);
        assertThat(t.getLong("start")).isEqualTo(T0.toEpochMilli());
        assertThat(t.getJsonObject("phases").getString("HELD_POST_UPDATE")).isEqualTo("Held by post-update gate");
    }

    @Test
    void aLargeClusterSendsAtMostTheCapWithHeldNodesAndCountsTheRest() {
        // Given 500 workers: 2 held, 20 in progress, 350 done, 128 still waiting
        for (int i = 0; i < 500; i++) {
            String name = String.format("worker-%03d", i);
            if (i < 2) {
                walk(name, NodePhase.WAITING, NodePhase.PRE_UPDATE_CHECK, NodePhase.HELD_PRE_UPDATE);
            } else if (i < 22) {
                walk(name, NodePhase.WAITING, NodePhase.APPLYING);
            } else if (i < 372) {
                walk(name, NodePhase.WAITING, NodePhase.DRAINING, NodePhase.DONE);
            } else {
                walk(name, NodePhase.WAITING);
            }
        }

        JsonObject t = TimelineJson.build(history, current, T0.plus(Duration.ofHours(1)));

        JsonObject worker = group(t, "worker");
        List<JsonObject> rows = objects(worker.getJsonArray("nodes"));
        assertThat(t.getInteger("total")).isEqualTo(500);
        assertThat(rows).hasSize(TimelineJson.ROW_CAP);
        assertThat(t.getInteger("shown")).isEqualTo(TimelineJson.ROW_CAP);
        assertThat(rows.subList(0, 2))
                .allSatisfy(r -> assertThat(r.getBoolean("held")).isTrue());
        assertThat(rows)
                .filteredOn(r -> r.getString("phase").equals("APPLYING"))
                .hasSize(20);
        Map<String, Object> collapsed = worker.getJsonObject("collapsed").getMap();
        assertThat(collapsed).containsEntry("WAITING", 128L).containsEntry("DONE", 350L - (300L - 22L));
        assertThat(collapsed.values().stream().mapToLong(v -> (Long) v).sum() + rows.size())
                .isEqualTo(500);
    }

    @Test
    void spansBeforeTheWindowAreCutToIt() {
        walk("worker-0", NodePhase.WAITING, NodePhase.DONE);
        Instant now = T0.plus(TimelineJson.WINDOW).plus(Duration.ofHours(1));

        JsonObject t = TimelineJson.build(history, current, now);

        JsonArray spans =
                group(t, "worker").getJsonArray("nodes").getJsonObject(0).getJsonArray("spans");
        assertThat(objects(spans)).extracting(s -> s.getString("phase")).containsExactly("DONE");
        assertThat(spans.getJsonObject(0).getLong("from"))
                .isEqualTo(now.minus(TimelineJson.WINDOW).toEpochMilli());
    }

    /** The node goes through {@code phases}, 30 s each, from T0. */
    private void walk(String node, NodePhase... phases) {
        for (int i = 0; i < phases.length; i++) {
            history.nodePhase(node, "worker", phases[i].name(), phases[i].label(), T0.plusSeconds(30L * i));
        }
        NodePhase last = phases[phases.length - 1];
        List<RolloutObserver.Blocking> blocking = last.held()
                ? List.of(new RolloutObserver.Blocking("node-selfcheck", "post-update", "FAIL", "NodeUnhealthy", null))
                : List.of();
        current.put(node, new RolloutObserver.NodeNow("worker", "zone-a", last, blocking));
    }

    private static JsonObject group(JsonObject t, String pool) {
        return objects(t.getJsonArray("groups")).stream()
                .filter(g -> g.getString("pool").equals(pool))
                .findFirst()
                .orElseThrow();
    }

    private static List<JsonObject> objects(JsonArray array) {
        return array.stream().map(JsonObject.class::cast).toList();
    }
}
