package io.mcdhooks.bridge.gate;

import io.mcdhooks.schemas.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which refused verdicts become Warning Events: the first of a hook and reason at once, then at
 * most one per {@link #INTERVAL}, counting those in between. A flood of forged verdicts makes a
 * few Events, not one each (the dead-letter topic and the metrics still have every one).
 * Bounded: past {@link #MAX_KEYS} hook-and-reason pairs, refusals of new pairs make no Event.
 */
public final class RefusalEvents {

    public static final Duration INTERVAL = Duration.ofMinutes(1);
    public static final int MAX_KEYS = 1_000;

    /** An Event to record: the latest refused verdict, its reason, and how many it stands for. */
    public record Due(Verdict verdict, String reason, int count) {}

    private static final class Window {
        Instant start;
        int unrecorded;
        Verdict latest;

        Window(Instant start) {
            this.start = start;
        }
    }

    private final Map<String, Window> windows = new LinkedHashMap<>();

    /** A verdict refused at {@code now}: the Event to record at once, or {@code null} (counted for later). */
    public Due refused(Verdict verdict, String reason, Instant now) {
        String key = verdict.hook() + '\n' + reason;
        Window window = windows.get(key);
        if (window == null) {
            if (windows.size() >= MAX_KEYS) {
                return null;
            }
            windows.put(key, new Window(now));
            return new Due(verdict, reason, 1);
        }
        if (!now.isBefore(window.start.plus(INTERVAL))) {
            int count = window.unrecorded + 1;
            window.start = now;
            window.unrecorded = 0;
            window.latest = null;
            return new Due(verdict, reason, count);
        }
        window.unrecorded++;
        window.latest = verdict;
        return null;
    }

    /**
     * The Events due at {@code now}: one for each interval that ended with refusals not recorded
     * yet, counting them. Pairs quiet for a whole interval are forgotten.
     */
    public List<Due> due(Instant now) {
        List<Due> due = new ArrayList<>();
        for (Iterator<Map.Entry<String, Window>> it = windows.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Window> entry = it.next();
            Window window = entry.getValue();
            if (now.isBefore(window.start.plus(INTERVAL))) {
                continue;
            }
            if (window.unrecorded == 0) {
                it.remove();
            } else {
                String reason = entry.getKey().substring(entry.getKey().indexOf('\n') + 1);
                due.add(new Due(window.latest, reason, window.unrecorded));
                window.start = now;
                window.unrecorded = 0;
                window.latest = null;
            }
        }
        return due;
    }
}
