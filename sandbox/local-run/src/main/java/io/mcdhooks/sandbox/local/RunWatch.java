package io.mcdhooks.sandbox.local;

import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Follows a local run through the bridge's status snapshots, feeds the view, and decides when the
 * rollout has ended: completed (every node of the pool on the new config, no gate left open), held
 * (a gate is blocked or timed out closed, the scenario has nothing more to do, and nothing has
 * moved for a while), or out of time. After that, {@link #follow()} goes on feeding the view.
 */
final class RunWatch {

    private static final long POLL_MILLIS = 250;
    private static final Set<String> OUT = Set.of("WAITING", "UP_TO_DATE", "DONE");

    private final LocalSystem system;
    private final TerminalView view;
    private final String title;
    private volatile JsonObject last;
    private volatile int maxUnavailableSeen;
    private volatile boolean stopped;
    private String fingerprint;
    private Instant stableSince = Instant.now();
    /** Whether the pool has targeted another config than the one it started on. */
    private boolean departed;

    RunWatch(LocalSystem system, TerminalView view) {
        this.system = system;
        this.view = view;
        LocalRunConfig c = system.config();
        this.title = "mcd-update-hooks local run   status page " + system.statusUri() + "   scenario " + c.scenario()
                + ": " + c.scenario().description();
    }

    /** Watches until the rollout ends (or, without a rollout, until {@link #stop()}); returns the summary. */
    RunSummary run() {
        return watch(true);
    }

    /**
     * Keeps feeding the view after the summary ({@code --stay}), until {@link #stop()}: whatever
     * happens next shows, a rollout started afterwards and hooks registered afterwards included.
     */
    void follow() {
        watch(false);
    }

    private RunSummary watch(boolean untilEnded) {
        LocalRunConfig config = system.config();
        while (!stopped) {
            JsonObject status;
            try {
                status = system.status();
            } catch (RuntimeException e) {
                if (stopped) {
                    break;
                }
                pause();
                continue;
            }
            last = status;
            track(status);
            view.show(title, elapsed(), status, system.notes());
            if (untilEnded && system.rolloutAt() != null) {
                RunSummary.Ending ending = ending(status, config);
                if (ending != null) {
                    return summary(ending);
                }
            }
            pause();
        }
        return summary(RunSummary.Ending.INTERRUPTED);
    }

    /** Makes {@link #run()} return at its next poll. */
    void stop() {
        stopped = true;
    }

    /** The summary from the last snapshot seen, or {@code null} before the first. */
    RunSummary summary(RunSummary.Ending ending) {
        JsonObject status = last;
        if (status == null) {
            return null;
        }
        LocalRunConfig c = system.config();
        return RunSummary.of(c.scenario(), ending, elapsed(), c.pool(), c.maxUnavailable(), maxUnavailableSeen, status);
    }

    private RunSummary.Ending ending(JsonObject status, LocalRunConfig config) {
        JsonObject pool = RunSummary.find(status.getJsonArray("pools"), "name", config.pool());
        if (pool == null) {
            return null;
        }
        String target = pool.getString("target");
        boolean moved = target != null && !target.equals(system.initialTarget());
        departed |= moved;
        List<JsonObject> gates = status.getJsonArray("gates").stream()
                .map(JsonObject.class::cast)
                .filter(g -> config.pool().equals(g.getString("pool")) && Objects.equals(target, g.getString("target")))
                .toList();
        boolean open = gates.stream().anyMatch(g -> !g.getBoolean("released"));
        long total = pool.getLong("machineCount") == null ? -1 : pool.getLong("machineCount");
        long updated = pool.getLong("updatedMachineCount") == null ? 0 : pool.getLong("updatedMachineCount");
        if (!open && updated == total && target != null && target.equals(pool.getString("current"))) {
            if (moved) {
                return RunSummary.Ending.COMPLETED;
            }
            if (departed) {
                return RunSummary.Ending.ROLLED_BACK;
            }
        }
        boolean closedGate = gates.stream()
                .anyMatch(g -> !g.getBoolean("released")
                        && ("BLOCKED".equals(g.getString("decision")) || "TIMED_OUT".equals(g.getString("decision"))));
        Instant actionsDone = system.scenarioActionsDoneAt();
        Instant quietSince = actionsDone == null || stableSince.isAfter(actionsDone) ? stableSince : actionsDone;
        if (closedGate
                && actionsDone != null
                && Duration.between(quietSince, Instant.now()).compareTo(config.settle()) >= 0) {
            return RunSummary.Ending.HELD;
        }
        if (Duration.between(system.rolloutAt(), Instant.now()).compareTo(config.timeLimit()) >= 0) {
            return RunSummary.Ending.TIME_LIMIT;
        }
        return null;
    }

    /** Remembers when anything last moved, and the most unavailable nodes seen. */
    private void track(JsonObject status) {
        LocalRunConfig c = system.config();
        StringBuilder print = new StringBuilder();
        int out = 0;
        for (Object o : status.getJsonArray("nodes")) {
            JsonObject node = (JsonObject) o;
            print.append(node.getString("name"))
                    .append('=')
                    .append(node.getString("phase"))
                    .append(';');
            if (c.pool().equals(node.getString("pool"))
                    && (!OUT.contains(node.getString("phase")) || node.getBoolean("cordoned", false))) {
                out++;
            }
        }
        for (Object o : status.getJsonArray("gates")) {
            JsonObject gate = (JsonObject) o;
            print.append(gate.getString("id"))
                    .append('=')
                    .append(gate.getString("decision"))
                    .append(';');
        }
        JsonObject pool = RunSummary.find(status.getJsonArray("pools"), "name", c.pool());
        if (pool != null && pool.getLong("unavailableMachineCount") != null) {
            out = Math.max(out, pool.getLong("unavailableMachineCount").intValue());
            print.append(pool.getValue("updatedMachineCount")).append(pool.getValue("unavailableMachineCount"));
        }
        maxUnavailableSeen = Math.max(maxUnavailableSeen, out);
        String now = print.toString();
        if (!now.equals(fingerprint)) {
            fingerprint = now;
            stableSince = Instant.now();
        }
    }

    private Duration elapsed() {
        return Duration.between(system.startedAt(), Instant.now());
    }

    private void pause() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = true;
        }
    }
}
