package io.mcdhooks.bridge.gate;

import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.schemas.settings.Grammar;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Whether each pool may take a new node into an update now: its update windows and freezes
 * ({@link UpdateWindows}) and its pause between nodes ({@value #PAUSE}), with the changes of that
 * people should hear of. Pure: time is what the caller says; confined to one thread.
 *
 * <p>The pause: a rolling pool updates in batches, each as many nodes as the MCO takes at once
 * (up to {@code maxUnavailable}; with 1, node by node), and after a batch has finished takes no
 * new node for that long. The pool is kept paused from the moment a batch starts until the pause
 * after it ends: a pause that began only when a node finished would race the MCO's node
 * controller, which picks the next node a few seconds after a slot frees. Once seen, a rolling
 * pool pauses once from then: a gatekeeper that restarts does not know when the last batch
 * finished, and a longer pause is the safe mistake.
 */
public final class PoolSchedules {

    public static final String PAUSE = "mcdhooks.io/update-pause";
    private static final Duration LONGEST_PAUSE = Duration.ofDays(1);

    /** Whether a pool takes new nodes: the metric's {@code state} label and the Events' subject. */
    public enum State {
        /** No schedule, or inside a window and not pausing. */
        OPEN,
        /** Inside a window, but a node finished less than the pause ago. */
        PAUSING,
        /** Outside every window, or frozen. */
        CLOSED,
        /** An annotation does not parse: closed until it is fixed. */
        INVALID;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A pool's state changed (or was first seen not open): what people are told.
     *
     * @param description the schedule and what it means now, e.g. "outside its update windows
     *     Sat 22:00+4h UTC, waiting for Sat 2026-12-05 22:00 UTC"
     */
    public record Change(String pool, State state, String description) {}

    private final Map<String, Entry> pools = new HashMap<>();
    /** Whether a rolling pool first seen pauses once (the gatekeeper's view; not a one-off reading). */
    private final boolean pauseWhenFirstSeen;

    /** The gatekeeper's: a rolling pool first seen pauses once. */
    public PoolSchedules() {
        this(true);
    }

    private PoolSchedules(boolean pauseWhenFirstSeen) {
        this.pauseWhenFirstSeen = pauseWhenFirstSeen;
    }

    /** A pool's schedule as its annotations give it at {@code now}, no node having been seen finish. */
    public static Status status(PoolView pool, Instant now) {
        PoolSchedules one = new PoolSchedules(false);
        one.pool(pool, now);
        return one.statuses(now).get(pool.name());
    }

    /** One pool: its schedule as last parsed, its rollout, and what was last reported. */
    private static final class Entry {
        String windowsText;
        String freezeText;
        String pauseText;
        UpdateWindows windows;
        Duration pause = Duration.ZERO;
        String pauseInvalid;
        String target;
        boolean rolling;
        /** The pool's nodes with an update assigned and not done: the batch under way. */
        final Set<String> inFlight = new HashSet<>();
        /** When the last batch finished (or the pool was first seen rolling). */
        Instant lastFinished;

        State reported;
    }

    /** The pool as it is now; the change to report, if its state changed. */
    public Optional<Change> pool(PoolView pool, Instant now) {
        Entry e = pools.computeIfAbsent(pool.name(), n -> new Entry());
        Map<String, String> annotations = pool.annotations();
        String windowsText = annotations.get(UpdateWindows.WINDOWS);
        String freezeText = annotations.get(UpdateWindows.FREEZE);
        String pauseText = annotations.get(PAUSE);
        // Parsed when the annotations change, not on every status update of the pool.
        if (e.windows == null
                || !Objects.equals(windowsText, e.windowsText)
                || !Objects.equals(freezeText, e.freezeText)) {
            e.windows = UpdateWindows.of(annotations);
            e.windowsText = windowsText;
            e.freezeText = freezeText;
        }
        if (!Objects.equals(pauseText, e.pauseText)) {
            e.pauseText = pauseText;
            e.pauseInvalid = null;
            e.pause = Duration.ZERO;
            if (pauseText != null) {
                try {
                    e.pause = pause(pauseText);
                } catch (IllegalArgumentException bad) {
                    e.pauseInvalid = PAUSE + ": '" + pauseText + "' is not a pause of at most 1d ("
                            + Grammar.DURATION_FORMS + ")";
                }
            }
        }
        if (!Objects.equals(pool.targetConfig(), e.target)) {
            e.target = pool.targetConfig();
            e.lastFinished = null;
        }
        if (pauseWhenFirstSeen && pool.rolling() && e.reported == null && !e.pause.isZero()) {
            e.lastFinished = now;
        }
        e.rolling = pool.rolling();
        return report(pool.name(), e, now);
    }

    /** A node of {@code pool} (null: of none), as it is now: the last of a batch to finish starts a pause. */
    public void node(String pool, NodeView node, Instant now) {
        pools.forEach((name, e) -> {
            boolean inFlight = name.equals(pool) && !node.done();
            if (inFlight) {
                e.inFlight.add(node.name());
            } else if (e.inFlight.remove(node.name()) && e.inFlight.isEmpty() && e.rolling) {
                e.lastFinished = now;
            }
        });
    }

    /** A node is gone: it is no longer part of any batch. */
    public void nodeDeleted(String node, Instant now) {
        pools.values().forEach(e -> {
            if (e.inFlight.remove(node) && e.inFlight.isEmpty() && e.rolling) {
                e.lastFinished = now;
            }
        });
    }

    /** Time passed: the pools whose state changed. */
    public List<Change> tick(Instant now) {
        List<Change> changes = new ArrayList<>();
        pools.forEach((name, e) -> report(name, e, now).ifPresent(changes::add));
        return changes;
    }

    /** Whether {@code pool} may take a new node into an update now (an unknown pool may). */
    public boolean open(String pool, Instant now) {
        Entry e = pools.get(pool);
        return e == null || state(e, now) == State.OPEN;
    }

    /** The pools with anything that can close them: their pause is planned again as time passes. */
    public List<String> scheduled() {
        return pools.entrySet().stream()
                .filter(p -> scheduled(p.getValue()))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    /**
     * A pool's schedule now, for people and gauges.
     *
     * @param scheduled whether it has windows, freezes or a pause at all (else it is always open)
     */
    public record Status(State state, boolean scheduled, String description) {}

    /** Every known pool's state now, without the descriptions (for a gauge set on every tick). */
    public Map<String, State> states(Instant now) {
        Map<String, State> states = new HashMap<>();
        pools.forEach((name, e) -> states.put(name, state(e, now)));
        return states;
    }

    /** Every known pool's schedule now. */
    public Map<String, Status> statuses(Instant now) {
        Map<String, Status> statuses = new HashMap<>();
        pools.forEach((name, e) -> statuses.put(name, new Status(state(e, now), scheduled(e), describe(e, now))));
        return statuses;
    }

    /** For people: the pool's schedule and what it means at {@code now}. */
    public String describe(String pool, Instant now) {
        Entry e = pools.get(pool);
        return e == null ? "no update windows" : describe(e, now);
    }

    /** The pause a pool's {@value #PAUSE} annotation asks for. */
    static Duration pause(String text) {
        Duration pause = Grammar.parseDuration(text.strip());
        if (pause.compareTo(LONGEST_PAUSE) > 0) {
            throw new IllegalArgumentException();
        }
        return pause;
    }

    private static boolean scheduled(Entry e) {
        return e.windows.scheduled() || e.pauseText != null;
    }

    private static State state(Entry e, Instant now) {
        if (e.windows.invalid() != null || e.pauseInvalid != null) {
            return State.INVALID;
        }
        if (!e.windows.open(now)) {
            return State.CLOSED;
        }
        return pausing(e, now) ? State.PAUSING : State.OPEN;
    }

    private static boolean pausing(Entry e, Instant now) {
        if (!e.rolling || e.pause.isZero()) {
            return false;
        }
        return !e.inFlight.isEmpty() || e.lastFinished != null && now.isBefore(e.lastFinished.plus(e.pause));
    }

    private static Optional<Change> report(String pool, Entry e, Instant now) {
        State state = state(e, now);
        // A pause between nodes comes and goes with every node: it is shown, not announced.
        State announced = state == State.PAUSING ? State.OPEN : state;
        State before = e.reported;
        e.reported = announced;
        if (announced == before || before == null && announced == State.OPEN) {
            return Optional.empty();
        }
        return Optional.of(new Change(pool, announced, describe(e, now)));
    }

    private static String describe(Entry e, Instant now) {
        if (e.pauseInvalid != null) {
            return "closed: " + e.pauseInvalid;
        }
        String windows = e.windows.describe(now);
        if (e.pauseText == null) {
            return windows;
        }
        String pause = Grammar.format(e.pause) + " pause after each batch";
        String line = e.windows.scheduled() ? windows + "; " + pause : pause;
        if (!pausing(e, now)) {
            return line;
        }
        if (!e.inFlight.isEmpty()) {
            return line + ", " + e.inFlight.size() + (e.inFlight.size() == 1 ? " node" : " nodes") + " updating";
        }
        return line + ", pausing until " + e.windows.local(e.lastFinished.plus(e.pause));
    }
}
