package io.mcdhooks.bridge.gatekeeper;

import io.mcdhooks.bridge.gate.AwaitingKeys;
import io.mcdhooks.bridge.gate.Gate;
import io.mcdhooks.bridge.gate.Gatekeeper;
import io.mcdhooks.bridge.gate.VerdictFate;
import io.mcdhooks.bridge.gate.VerdictRecord;
import io.mcdhooks.bridge.gate.VerdictScreen;
import io.mcdhooks.bridge.metrics.BridgeMetrics;
import io.mcdhooks.schemas.Verdict;
import java.time.Clock;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every record of the verdicts topic the gatekeeper follows: screened, then heard by the gates,
 * refused to the dead-letter topic (with a Warning Event for a suspect one), or, signed with a key
 * id not known yet, held back until the keys change or {@link AwaitingKeys#WAIT} has passed.
 * Confined to the gatekeeper's event loop.
 */
final class VerdictIntake {

    private static final Logger LOG = LoggerFactory.getLogger(VerdictIntake.class);

    private final VerdictScreen screen;
    private final Gatekeeper gatekeeper;
    private final DeadLetterSink deadLetters;
    private final GateEvents events;
    private final BridgeMetrics metrics;
    private final Clock clock;
    private final AwaitingKeys awaitingKeys = new AwaitingKeys();
    private long records;

    VerdictIntake(
            VerdictScreen screen,
            Gatekeeper gatekeeper,
            DeadLetterSink deadLetters,
            GateEvents events,
            BridgeMetrics metrics,
            Clock clock) {
        this.screen = screen;
        this.gatekeeper = gatekeeper;
        this.deadLetters = deadLetters;
        this.events = events;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** Records taken so far, whatever became of them. */
    long records() {
        return records;
    }

    void onRecord(VerdictRecord record) {
        records++;
        judge(record, clock.instant(), true);
    }

    /** Lets time pass: verdicts that waited long enough for their key are judged a last time. */
    void tick() {
        awaitingKeys.expired(clock.instant()).forEach(r -> judge(r, clock.instant(), false));
    }

    /** The keys changed: every verdict waiting for a key is screened again (and may wait on). */
    void keysChanged() {
        awaitingKeys.drain().forEach(p -> judge(p.record(), p.since(), true));
    }

    /**
     * Screens a record and hears or refuses it. A verdict signed with a key not known yet waits
     * for the keys to change ({@code mayWait}) rather than being refused and lost.
     */
    private void judge(VerdictRecord record, Instant since, boolean mayWait) {
        try {
            VerdictScreen.Screened screened = screen.screen(record);
            if (screened instanceof VerdictScreen.Accepted accepted) {
                hear(record, accepted.verdict());
            } else if (screened instanceof VerdictScreen.Refused refused) {
                if (mayWait && VerdictScreen.UNKNOWN_KEY.equals(refused.reason()) && awaitingKeys.park(record, since)) {
                    LOG.atDebug().log("verdict waits for its key: {}", refused.error());
                } else {
                    refuse(record, refused);
                }
            } // another cluster's: one Kafka serves a fleet
        } catch (RuntimeException e) {
            // Nothing a record holds may stop the consumer; what cannot be judged is refused.
            deadLetters.refuse(record, "PROCESSING_ERROR", "cannot process: " + e);
        }
    }

    private void hear(VerdictRecord record, Verdict verdict) {
        VerdictFate fate = gatekeeper.onVerdict(verdict);
        Gate gate = gatekeeper.gate(verdict.gateId());
        metrics.verdict(verdict, fate, gate == null ? null : gate.openedAt(), clock.instant());
        if (fate == VerdictFate.UNKNOWN_GATE) {
            deadLetters.refuse(record, fate.name(), "no gate " + verdict.gateId() + " is known to this gatekeeper");
        } else if (fate != VerdictFate.ACCEPTED) {
            // Counted by fate (STALE: another attempt's, DUPLICATE, CLOSED...), never heard.
            LOG.atDebug()
                    .addKeyValue("gate", verdict.gateId())
                    .addKeyValue("hook", verdict.hook())
                    .log("verdict ignored: {}", fate);
        }
    }

    private void refuse(VerdictRecord record, VerdictScreen.Refused refused) {
        deadLetters.refuse(record, refused.reason(), refused.error());
        if (refused.suspect() != null) {
            LOG.atWarn()
                    .addKeyValue("hook", refused.suspect().hook())
                    .addKeyValue("gate", refused.suspect().gateId())
                    .log("verdict refused: {}", refused.reason());
            events.refused(refused.suspect(), refused.reason());
        }
    }
}
