package io.mcdhooks.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The end-of-run summary, from a status snapshot. */
class RunSummaryTest {

    @Test
    void separatesReleasedFromHeldGatesWithTheirReasonsAndListsUntouchedNodes() {
        // Given a snapshot with a released pool gate and a node held by its post-update gate
        JsonObject status = new JsonObject()
                .put(
                        "pools",
                        new JsonArray()
                                .add(new JsonObject().put("name", "worker").put("target", "new")))
                .put(
                        "gates",
                        new JsonArray()
                                .add(gate("g/pool", "pool-pre-update", null, "RELEASED", true)
                                        .put("hooks", new JsonArray().add(hook("kmod-check", "PASS", "ModulesReady"))))
                                .add(gate("g/post/worker-1", "post-update", "worker-1", "BLOCKED", false)
                                        .put("blockingHooks", new JsonArray().add("node-selfcheck"))
                                        .put(
                                                "blocking",
                                                new JsonArray()
                                                        .add(hook("node-selfcheck", "FAIL", "NodeUnhealthy")
                                                                .put("message", "probe failed"))))
                                .add(gate("g/other", "post-update", "worker-9", "RELEASED", true)
                                        .put("target", "older")))
                .put(
                        "nodes",
                        new JsonArray()
                                .add(node("worker-0", "WAITING", "old", false))
                                .add(node("worker-1", "HELD_POST_UPDATE", "new", true))
                                .add(node("master-0", "UP_TO_DATE", "m", false).put("pool", "master")))
                .put(
                        "hooks",
                        new JsonArray()
                                .add(new JsonObject().put("name", "kmod-check").put("lag", 0L)));

        // When it is summarised
        RunSummary summary = RunSummary.of(
                Scenario.POST_CHECK_FAILS, RunSummary.Ending.HELD, Duration.ofSeconds(30), "worker", 1, 1, status);

        // Then gates of older targets and other pools' nodes are left out, and each gate says why
        assertThat(summary.released())
                .singleElement()
                .satisfies(g -> assertThat(g.why()).isEqualTo("kmod-check PASS ModulesReady"));
        assertThat(summary.held()).singleElement().satisfies(g -> {
            assertThat(g.node()).isEqualTo("worker-1");
            assertThat(g.why()).isEqualTo("node-selfcheck FAIL NodeUnhealthy: probe failed");
        });
        assertThat(summary.updated()).isEqualTo(1);
        assertThat(summary.total()).isEqualTo(2);
        assertThat(summary.heldNodes()).containsExactly("worker-1");
        assertThat(summary.untouched()).containsExactly("worker-0");
        assertThat(summary.render())
                .contains("rollout HELD")
                .contains("held (1):")
                .contains("nodes untouched (never assigned the new config): worker-0");
    }

    private static JsonObject gate(String id, String stage, String node, String decision, boolean released) {
        return new JsonObject()
                .put("id", id)
                .put("stage", stage)
                .put("pool", "worker")
                .put("node", node)
                .put("target", "new")
                .put("decision", decision)
                .put("released", released)
                .put("blockingHooks", new JsonArray())
                .put("blocking", new JsonArray())
                .put("summary", "s");
    }

    private static JsonObject hook(String name, String state, String reason) {
        return new JsonObject().put("hook", name).put("state", state).put("reason", reason);
    }

    private static JsonObject node(String name, String phase, String current, boolean held) {
        return new JsonObject()
                .put("name", name)
                .put("pool", "worker")
                .put("phase", phase)
                .put("currentConfig", current)
                .put("held", held);
    }
}
