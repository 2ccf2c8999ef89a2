package io.mcdhooks.sandbox.local;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a local run ended: what was released and what was held, and why, drawn from the bridge's
 * last status snapshot.
 *
 * @param pool               the pool the run rolled out
 * @param updated            nodes of the rolled-out pool on the new config
 * @param maxUnavailableSeen the most unavailable nodes of that pool the run saw at once
 * @param untouched          nodes of that pool never assigned the new config
 * @param lag                each hook's consumer lag on the gate-request topic, where known
 */
public record RunSummary(
        Scenario scenario,
        Ending ending,
        Duration elapsed,
        String pool,
        int updated,
        int total,
        int maxUnavailable,
        int maxUnavailableSeen,
        List<GateOutcome> released,
        List<GateOutcome> held,
        List<String> heldNodes,
        List<String> untouched,
        Map<String, Long> lag,
        JsonObject finalStatus) {

    /** Why the run stopped watching. */
    public enum Ending {
        /** Every node of the pool is on the new config. */
        COMPLETED,
        /** The pool went to a new config and every node is back on the one before. */
        ROLLED_BACK,
        /** A gate holds the rollout and nothing has moved for a while. */
        HELD,
        /** Neither happened within the time limit. */
        TIME_LIMIT,
        /** Stopped by Ctrl-C (or no rollout was started). */
        INTERRUPTED
    }

    /** One gate of the rollout and what became of it. */
    public record GateOutcome(
            String gateId,
            String stage,
            String node,
            String decision,
            boolean released,
            List<String> blockingHooks,
            String why) {}

    public RunSummary {
        released = List.copyOf(released);
        held = List.copyOf(held);
        heldNodes = List.copyOf(heldNodes);
        untouched = List.copyOf(untouched);
        lag = Map.copyOf(lag);
    }

    /** Builds the summary from the last snapshot for the pool's current target. */
    static RunSummary of(
            Scenario scenario,
            Ending ending,
            Duration elapsed,
            String pool,
            int maxUnavailable,
            int maxUnavailableSeen,
            JsonObject status) {
        JsonObject poolJson = find(status.getJsonArray("pools"), "name", pool);
        String target = poolJson == null ? null : poolJson.getString("target");
        List<GateOutcome> released = new ArrayList<>();
        List<GateOutcome> held = new ArrayList<>();
        for (Object o : status.getJsonArray("gates")) {
            JsonObject gate = (JsonObject) o;
            if (!pool.equals(gate.getString("pool")) || target == null || !target.equals(gate.getString("target"))) {
                continue;
            }
            GateOutcome outcome = new GateOutcome(
                    gate.getString("id"),
                    gate.getString("stage"),
                    gate.getString("node"),
                    gate.getString("decision"),
                    gate.getBoolean("released"),
                    gate.getJsonArray("blockingHooks").stream()
                            .map(String::valueOf)
                            .toList(),
                    why(gate));
            (outcome.released() ? released : held).add(outcome);
        }
        int updated = 0;
        int total = 0;
        List<String> heldNodes = new ArrayList<>();
        List<String> untouched = new ArrayList<>();
        for (Object o : status.getJsonArray("nodes")) {
            JsonObject node = (JsonObject) o;
            if (!pool.equals(node.getString("pool"))) {
                continue;
            }
            total++;
            if (target != null && target.equals(node.getString("currentConfig"))) {
                updated++;
            }
            if (node.getBoolean("held", false)) {
                heldNodes.add(node.getString("name"));
            }
            if ("WAITING".equals(node.getString("phase"))) {
                untouched.add(node.getString("name"));
            }
        }
        Map<String, Long> lag = new LinkedHashMap<>();
        for (Object o : status.getJsonArray("hooks")) {
            JsonObject hook = (JsonObject) o;
            if (hook.getLong("lag") != null) {
                lag.put(hook.getString("name"), hook.getLong("lag"));
            }
        }
        return new RunSummary(
                scenario,
                ending,
                elapsed,
                pool,
                updated,
                total,
                maxUnavailable,
                maxUnavailableSeen,
                released,
                held,
                heldNodes,
                untouched,
                lag,
                status);
    }

    /** Why a gate stands where it does: its blocking hooks with their verdicts, else its summary. */
    private static String why(JsonObject gate) {
        JsonArray blocking = gate.getJsonArray("blocking");
        if (blocking != null && !blocking.isEmpty()) {
            List<String> parts = new ArrayList<>();
            for (Object o : blocking) {
                JsonObject b = (JsonObject) o;
                String text = b.getString("hook") + " " + b.getString("state");
                if (b.getString("reason") != null) {
                    text += " " + b.getString("reason");
                }
                if (b.getString("message") != null) {
                    text += ": " + b.getString("message");
                }
                if ("TIMED_OUT".equals(b.getString("state"))) {
                    text += " (no verdict within " + b.getValue("timeoutSeconds") + " s, failurePolicy "
                            + b.getString("failurePolicy") + ")";
                }
                parts.add(text);
            }
            return String.join("; ", parts);
        }
        JsonArray hooks = gate.getJsonArray("hooks");
        if (gate.getBoolean("released", false) && hooks != null && !hooks.isEmpty()) {
            List<String> parts = new ArrayList<>();
            for (Object o : hooks) {
                JsonObject h = (JsonObject) o;
                String text = h.getString("hook") + " " + h.getString("state");
                if (h.getString("reason") != null) {
                    text += " " + h.getString("reason");
                }
                if ("TIMED_OUT".equals(h.getString("state"))) {
                    text += " (no verdict within " + h.getValue("timeoutSeconds") + " s, failurePolicy "
                            + h.getString("failurePolicy") + ")";
                }
                parts.add(text);
            }
            return String.join("; ", parts);
        }
        return gate.getString("summary");
    }

    static JsonObject find(JsonArray array, String key, String value) {
        if (array == null) {
            return null;
        }
        for (Object o : array) {
            if (o instanceof JsonObject json && value.equals(json.getString(key))) {
                return json;
            }
        }
        return null;
    }

    /** The summary for people. */
    public String render() {
        StringBuilder out = new StringBuilder();
        out.append("\n=== summary: scenario ")
                .append(scenario)
                .append(", ")
                .append(
                        switch (ending) {
                            case COMPLETED -> "rollout COMPLETED";
                            case ROLLED_BACK -> "rollout ROLLED BACK";
                            case HELD -> "rollout HELD";
                            case TIME_LIMIT -> "time limit reached";
                            case INTERRUPTED -> "stopped";
                        })
                .append(String.format(" after %.1f s%n", elapsed.toMillis() / 1000.0));
        out.append(String.format(
                "pool %s: %d/%d nodes updated; at most %d unavailable at once (maxUnavailable %d)%n",
                pool, updated, total, maxUnavailableSeen, maxUnavailable));
        out.append("released (").append(released.size()).append("):\n");
        for (GateOutcome g : released) {
            out.append("  ")
                    .append(label(g))
                    .append("  ")
                    .append(g.decision())
                    .append(": ")
                    .append(g.why())
                    .append('\n');
        }
        out.append("held (").append(held.size()).append("):").append(held.isEmpty() ? " nothing\n" : "\n");
        for (GateOutcome g : held) {
            out.append("  ")
                    .append(label(g))
                    .append("  ")
                    .append(g.decision())
                    .append(": ")
                    .append(g.why())
                    .append('\n');
        }
        if (!heldNodes.isEmpty()) {
            out.append("nodes held (tainted/cordoned or drain blocked): ")
                    .append(String.join(", ", heldNodes))
                    .append('\n');
        }
        if (!untouched.isEmpty()) {
            out.append("nodes untouched (never assigned the new config): ")
                    .append(String.join(", ", untouched))
                    .append('\n');
        }
        if (!lag.isEmpty()) {
            out.append("hook lag on the gate-request topic: ");
            out.append(String.join(
                            ", ",
                            lag.entrySet().stream()
                                    .map(e -> e.getKey() + " " + e.getValue())
                                    .toList()))
                    .append('\n');
        }
        return out.toString();
    }

    private static String label(GateOutcome g) {
        return String.format("%-15s %-10s", g.stage(), g.node() == null ? "(pool)" : g.node());
    }
}
