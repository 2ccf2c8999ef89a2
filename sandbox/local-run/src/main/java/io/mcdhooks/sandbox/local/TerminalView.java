package io.mcdhooks.sandbox.local;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The live view: on a terminal, the whole picture redrawn in place (ANSI) on every snapshot; else
 * one plain line per change (pool progress, node phase, gate decision, hook lag, scenario step),
 * for logs and tests.
 */
final class TerminalView {

    /** Home, without clearing: each line clears its own rest, and the screen below the last is cleared. */
    private static final String HOME = "\033[H";

    private static final String CLEAR_SCREEN = "\033[2J";
    private static final String CLEAR_LINE = "\033[K";
    private static final String CLEAR_BELOW = "\033[J";
    private static final String BOLD = "\033[1m";
    private static final String RED = "\033[31m";
    private static final String GREEN = "\033[32m";
    private static final String YELLOW = "\033[33m";
    private static final String RESET = "\033[0m";

    private final PrintStream out;
    private final boolean ansi;
    private final int width;
    private final Map<String, String> seen = new HashMap<>();
    private int notesShown;
    private boolean drawn;
    private List<String> footer = List.of();

    TerminalView(PrintStream out, boolean ansi) {
        this.out = out;
        this.ansi = ansi;
        int columns = 140;
        try {
            columns = Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "140"));
        } catch (NumberFormatException e) {
            // keep the default
        }
        this.width = Math.max(80, columns);
    }

    /**
     * Lines kept at the bottom of the redrawn screen from now on (the summary, once the view goes on
     * after it); plain mode printed them once already, and goes on with its changes.
     */
    void footer(String text) {
        footer = List.of(text.split("\n"));
    }

    void show(String title, Duration elapsed, JsonObject status, List<String> notes) {
        if (ansi) {
            out.print((drawn ? "" : CLEAR_SCREEN) + HOME + screen(title, elapsed, status, notes) + CLEAR_BELOW);
            drawn = true;
            out.flush();
        } else {
            changes(elapsed, status, notes).forEach(out::println);
            out.flush();
        }
    }

    /** Plain mode: what changed since the last snapshot. */
    List<String> changes(Duration elapsed, JsonObject status, List<String> notes) {
        List<String> lines = new ArrayList<>();
        for (int i = notesShown; i < notes.size(); i++) {
            lines.add(notes.get(i));
        }
        notesShown = notes.size();
        String at = String.format("+%5.1fs ", elapsed.toMillis() / 1000.0);
        for (JsonObject pool : objects(status.getJsonArray("pools"))) {
            String line = "pool " + pool.getString("name") + ": " + progress(pool) + " updated, "
                    + pool.getValue("unavailableMachineCount") + " unavailable"
                    + (pool.getBoolean("paused") ? ", paused" : "");
            changed(lines, "pool/" + pool.getString("name"), at, line);
            JsonObject schedule = pool.getJsonObject("schedule");
            if (schedule != null) {
                changed(
                        lines,
                        "schedule/" + pool.getString("name"),
                        at,
                        "pool " + pool.getString("name") + ": " + schedule.getString("description"));
            }
        }
        for (JsonObject node : objects(status.getJsonArray("nodes"))) {
            String line = "node " + node.getString("name") + ": " + node.getString("phaseLabel") + blockingText(node);
            changed(lines, "node/" + node.getString("name"), at, line);
        }
        for (JsonObject gate : objects(status.getJsonArray("gates"))) {
            String line = "gate " + gate.getString("id") + ": " + gate.getString("decision")
                    + (gate.getBoolean("released") ? " (released)" : "") + " - " + gate.getString("summary");
            changed(lines, "gate/" + gate.getString("id"), at, line);
        }
        for (JsonObject hook : objects(status.getJsonArray("hooks"))) {
            changed(
                    lines,
                    "hook/" + hook.getString("name"),
                    at,
                    "hook " + hook.getString("name") + ": " + registration(hook));
            if (hook.getValue("lag") != null) {
                changed(
                        lines,
                        "lag/" + hook.getString("name"),
                        at,
                        "hook " + hook.getString("name") + ": lag " + hook.getValue("lag"));
            }
        }
        return lines;
    }

    private void changed(List<String> lines, String key, String at, String text) {
        if (!text.equals(seen.put(key, text))) {
            lines.add(at + text);
        }
    }

    /** Terminal mode: the whole screen. */
    String screen(String title, Duration elapsed, JsonObject status, List<String> notes) {
        StringBuilder s = new StringBuilder();
        line(
                s,
                BOLD
                        + title
                        + RESET
                        + String.format("   %.0f s   (Ctrl-C stops everything)", elapsed.toMillis() / 1000.0));
        line(s, "");
        for (JsonObject pool : objects(status.getJsonArray("pools"))) {
            long total = number(pool, "machineCount");
            long done = number(pool, "updatedMachineCount");
            int cells = 30;
            int filled = total == 0 ? 0 : (int) (cells * done / total);
            JsonObject gate = pool.getJsonObject("gate");
            line(
                    s,
                    String.format(
                            "%-8s [%s%s] %s  unavailable %s/%s%s%s",
                            pool.getString("name"),
                            "#".repeat(filled),
                            ".".repeat(cells - filled),
                            progress(pool),
                            pool.getValue("unavailableMachineCount"),
                            pool.getValue("maxUnavailable") == null ? "1" : pool.getValue("maxUnavailable"),
                            pool.getBoolean("paused") ? "  paused" : "",
                            gate == null
                                    ? ""
                                    : "  pool gate " + color(gate.getString("decision")) + decisionDetail(gate)));
            JsonObject schedule = pool.getJsonObject("schedule");
            if (schedule != null) {
                line(s, "         " + schedule.getString("description"));
            }
        }
        line(s, "");
        line(
                s,
                BOLD
                        + String.format(
                                "%-10s %-8s %-8s %-26s %s",
                                "node", "pool", "zone", "phase", "open gates / blocking hook: reason")
                        + RESET);
        for (JsonObject node : objects(status.getJsonArray("nodes"))) {
            String phase = String.format("%-26s", node.getString("phaseLabel"));
            if (node.getBoolean("held", false)) {
                phase = RED + phase + RESET;
            } else if ("DONE".equals(node.getString("phase")) || "UP_TO_DATE".equals(node.getString("phase"))) {
                phase = GREEN + phase + RESET;
            } else if (!"WAITING".equals(node.getString("phase"))) {
                phase = YELLOW + phase + RESET;
            }
            StringBuilder gates = new StringBuilder();
            for (JsonObject gate : objects(node.getJsonArray("gates"))) {
                gates.append(gate.getString("stage"))
                        .append(' ')
                        .append(color(gate.getString("decision")))
                        .append(' ');
            }
            line(
                    s,
                    String.format(
                            "%-10s %-8s %-8s %s %s%s",
                            node.getString("name"),
                            nvl(node.getString("pool")),
                            nvl(node.getString("zone")),
                            phase,
                            gates,
                            blockingText(node)));
        }
        line(s, "");
        line(
                s,
                BOLD
                        + String.format(
                                "%-16s %-18s %-8s %-14s %s", "hook", "stages", "lag", "on timeout", "last verdict")
                        + RESET);
        for (JsonObject hook : objects(status.getJsonArray("hooks"))) {
            JsonObject last = hook.getJsonObject("lastVerdict");
            line(
                    s,
                    String.format(
                            "%-16s %-18s %-8s %-14s %s",
                            hook.getString("name"),
                            String.join(
                                    ",",
                                    hook.getJsonArray("stages").stream()
                                            .map(String::valueOf)
                                            .toList()),
                            hook.getValue("lag") == null ? "?" : hook.getValue("lag"),
                            hook.getString("failurePolicy") + " " + hook.getValue("timeoutSeconds") + "s",
                            last == null
                                    ? "-"
                                    : color(last.getString("state")) + " " + nvl(last.getString("reason")) + " ("
                                            + last.getString("gate") + ")"));
        }
        line(s, "");
        line(s, BOLD + "recent verdicts" + RESET);
        objects(status.getJsonArray("verdicts")).stream()
                .limit(6)
                .forEach(v -> line(
                        s,
                        "  " + v.getString("at")
                                + "  " + v.getString("hook") + " " + color(v.getString("state")) + " "
                                + nvl(v.getString("reason"))
                                + "  " + v.getString("gate")));
        line(s, "");
        line(s, BOLD + "what happened" + RESET);
        notes.stream().skip(Math.max(0, notes.size() - 8)).forEach(n -> line(s, "  " + n));
        if (!footer.isEmpty()) {
            line(s, "");
            footer.forEach(f -> line(s, f));
        }
        return s.toString();
    }

    /** How a hook is registered: its stages, pools, mode and what its timeout does. */
    private static String registration(JsonObject hook) {
        List<String> pools =
                hook.getJsonArray("pools").stream().map(String::valueOf).toList();
        return String.join(
                        ",",
                        hook.getJsonArray("stages").stream()
                                .map(String::valueOf)
                                .toList())
                + " of " + (pools.isEmpty() ? "every pool" : "pool " + String.join(",", pools)) + ", "
                + hook.getString("mode") + ", " + hook.getString("failurePolicy") + " after "
                + hook.getValue("timeoutSeconds") + " s";
    }

    private static String progress(JsonObject pool) {
        return pool.getValue("updatedMachineCount") + "/" + pool.getValue("machineCount");
    }

    private static String decisionDetail(JsonObject gate) {
        List<String> hooks =
                gate.getJsonArray("blockingHooks").stream().map(String::valueOf).toList();
        return hooks.isEmpty() ? "" : " by " + String.join(",", hooks);
    }

    private static String blockingText(JsonObject node) {
        List<String> parts = new ArrayList<>();
        for (JsonObject b : objects(node.getJsonArray("blocking"))) {
            String text = b.getString("hook") + " " + b.getString("state");
            if (b.getString("reason") != null) {
                text += " " + b.getString("reason");
            }
            if (b.getString("message") != null) {
                text += ": " + b.getString("message");
            }
            parts.add(text);
        }
        return parts.isEmpty() ? "" : " <- " + String.join("; ", parts);
    }

    private String color(String state) {
        if (state == null) {
            return "";
        }
        String c = switch (state) {
            case "BLOCKED", "TIMED_OUT", "FAIL" -> RED;
            case "RELEASED", "PASS" -> GREEN;
            default -> YELLOW;
        };
        return c + state + RESET;
    }

    private void line(StringBuilder s, String text) {
        // Trim to the terminal's width, counting visible characters only.
        StringBuilder visible = new StringBuilder();
        int count = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\033') {
                int end = text.indexOf('m', i);
                if (end > 0) {
                    visible.append(text, i, end + 1);
                    i = end;
                    continue;
                }
            }
            if (count < width - 1) {
                visible.append(c);
            }
            count++;
        }
        s.append(visible).append(RESET).append(CLEAR_LINE).append('\n');
    }

    private static List<JsonObject> objects(JsonArray array) {
        List<JsonObject> out = new ArrayList<>();
        if (array != null) {
            for (Object o : array) {
                if (o instanceof JsonObject json) {
                    out.add(json);
                }
            }
        }
        return out;
    }

    private static long number(JsonObject json, String key) {
        Long value = json.getLong(key);
        return value == null ? 0 : value;
    }

    private static String nvl(String s) {
        return s == null ? "" : s;
    }
}
