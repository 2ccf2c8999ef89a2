package io.mcdhooks.bridge.gate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Verdicts signed with a key id the gatekeeper does not know yet: a hook moved to a new key a
 * moment before the keys Secret's change reached the gatekeeper. They wait (counting for nothing)
 * until the keys change, to be screened again, or until {@link #WAIT} has passed, to be refused.
 * Bounded: past {@link #CAPACITY} a record is refused at once, so a flood cannot grow it.
 */
public final class AwaitingKeys {

    /** How long a verdict waits for its key. */
    public static final Duration WAIT = Duration.ofMinutes(2);
    /** How many verdicts may wait at once. */
    public static final int CAPACITY = 1_000;

    private record Waiting(VerdictRecord record, Instant since) {}

    private final Deque<Waiting> waiting = new ArrayDeque<>();

    /** Lets {@code record} wait from {@code since}; {@code false} if too many wait already. */
    public boolean park(VerdictRecord record, Instant since) {
        if (waiting.size() >= CAPACITY) {
            return false;
        }
        waiting.addLast(new Waiting(record, since));
        return true;
    }

    /** Every waiting record, in arrival order, to be screened again; none waits after this. */
    public List<Parked> drain() {
        List<Parked> all = new ArrayList<>();
        waiting.forEach(w -> all.add(new Parked(w.record(), w.since())));
        waiting.clear();
        return all;
    }

    /** The records that have waited longer than {@link #WAIT} at {@code now}, taken out. */
    public List<VerdictRecord> expired(Instant now) {
        List<VerdictRecord> out = new ArrayList<>();
        while (!waiting.isEmpty() && now.isAfter(waiting.peekFirst().since().plus(WAIT))) {
            out.add(waiting.removeFirst().record());
        }
        return out;
    }

    public int size() {
        return waiting.size();
    }

    /** A record taken out to be screened again, and since when it has waited. */
    public record Parked(VerdictRecord record, Instant since) {}
}
