package io.mcdhooks.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The live view: plain lines only for what changed; the terminal screen with bars and blocking hooks. */
class TerminalViewTest {

    private final TerminalView plain =
            new TerminalView(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false);

    @Test
    void plainModePrintsEachChangeOnceWithTheBlockingHookAndItsReason() {
        JsonObject waiting = status("Waiting", false, new JsonArray());
        JsonObject held = status(
                "Held by post-update gate",
                true,
                new JsonArray()
                        .add(new JsonObject()
                                .put("hook", "node-selfcheck")
                                .put("state", "FAIL")
                                .put("reason", "NodeUnhealthy")
                                .put("message", "probe failed")));

        List<String> first = plain.changes(Duration.ofSeconds(1), waiting, List.of("+  0.0s started"));
        List<String> again = plain.changes(Duration.ofSeconds(2), waiting, List.of("+  0.0s started"));
        List<String> then = plain.changes(Duration.ofSeconds(3), held, List.of("+  0.0s started"));

        assertThat(first)
                .contains(
                        "+  0.0s started",
                        "+  1.0s pool worker: 0/2 updated, 1 unavailable",
                        "+  1.0s node worker-0: Waiting");
        assertThat(again).isEmpty();
        assertThat(then)
                .containsExactly(
                        "+  3.0s node worker-0: Held by post-update gate <- node-selfcheck FAIL NodeUnhealthy: probe failed");
    }

    @Test
    void terminalModeDrawsAProgressBarPerPoolAndAPhasePerNode() {
        JsonObject status = status("Held by post-update gate", true, new JsonArray());
        status.getJsonArray("pools").getJsonObject(0).put("updatedMachineCount", 1L);

        String screen = plain.screen("title", Duration.ofSeconds(5), status, List.of());

        assertThat(screen)
                .contains("[" + "#".repeat(15) + ".".repeat(15) + "] 1/2")
                .contains("worker-0")
                .contains("Held by post-update gate");
    }

    @Test
    void aHookRegisteredLaterIsPrintedOnceWithHowItIsRegistered() {
        JsonObject before = status("Waiting", false, new JsonArray());
        JsonObject after = status("Waiting", false, new JsonArray());
        after.getJsonArray("hooks")
                .add(new JsonObject()
                        .put("name", "late-check")
                        .put("stages", new JsonArray().add("post-update"))
                        .put("pools", new JsonArray().add("worker"))
                        .put("mode", "Advisory")
                        .put("failurePolicy", "Ignore")
                        .put("timeoutSeconds", 60L));

        plain.changes(Duration.ofSeconds(1), before, List.of());
        List<String> registered = plain.changes(Duration.ofSeconds(2), after, List.of());
        List<String> again = plain.changes(Duration.ofSeconds(3), after, List.of());

        assertThat(registered)
                .containsExactly("+  2.0s hook late-check: post-update of pool worker, Advisory, Ignore after 60 s");
        assertThat(again).isEmpty();
    }

    @Test
    void onATerminalTheSummaryStaysBelowTheViewOnceItGoesOnAfterIt() {
        plain.footer("=== summary: rollout COMPLETED\nstill running: status page at http://127.0.0.1:8080/");

        String screen = plain.screen("title", Duration.ofSeconds(5), status("Done", false, new JsonArray()), List.of());

        assertThat(screen).contains("worker-0");
        assertThat(screen.indexOf("=== summary: rollout COMPLETED")).isGreaterThan(screen.indexOf("worker-0"));
        assertThat(screen).contains("still running: status page at http://127.0.0.1:8080/");
    }

    private static JsonObject status(String phase, boolean held, JsonArray blocking) {
        return new JsonObject()
                .put(
                        "pools",
                        new JsonArray()
                                .add(new JsonObject()
                                        .put("name", "worker")
                                        .put("machineCount", 2L)
                                        .put("updatedMachineCount", 0L)
                                        .put("unavailableMachineCount", 1L)
                                        .put("paused", false)
                                        .put("maxUnavailable", "1")))
                .put(
                        "nodes",
                        new JsonArray()
                                .add(new JsonObject()
                                        .put("name", "worker-0")
                                        .put("pool", "worker")
                                        .put("zone", "zone-a")
                                        .put("phase", held ? "HELD_POST_UPDATE" : "WAITING")
                                        .put("phaseLabel", phase)
                                        .put("held", held)
                                        .put("gates", new JsonArray())
                                        .put("blocking", blocking)))
                .put("gates", new JsonArray())
                .put("hooks", new JsonArray())
                .put("verdicts", new JsonArray());
    }
}
