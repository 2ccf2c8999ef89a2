package io.mcdhooks.bridge.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.codec.InvalidMessageException;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.sign.VerdictSignatures;
import java.io.IOException;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;

/**
 * The first look at every record of the verdicts topic, before any gate sees it: is it a verdict,
 * of this cluster, and may it be heard. Pure: key, headers and bytes in, one of three answers out.
 *
 * <p>Why a record is refused (the dead-letter topic's {@code mcdhooks.dlq.reason}, the metric's
 * {@code reason} tag):
 * <ul>
 * <li>the codec's {@code RejectReason}: not a CloudEvent, an unknown type, malformed JSON, a body
 *     its schema refuses, a key or cluster header that disagrees with the body;
 * <li>{@code UNEXPECTED_KIND}: a valid message, but no verdict;
 * <li>{@code SIGNATURE_UNSIGNED}, {@code SIGNATURE_MALFORMED}, {@code SIGNATURE_UNKNOWN_KEY},
 *     {@code SIGNATURE_BAD_SIGNATURE}: the verdict of a hook that must sign (as its gate snapshotted
 *     it), without a signature its keys verify. The signature binds gate, attempt, hook and
 *     outcome, so one copied from another gate or attempt does not verify;
 * <li>{@code SIGNATURE_EXPIRED}: a signed verdict produced before its gate opened (beyond the
 *     allowed clock skew): a replay of an earlier attempt's;
 * <li>{@code PRODUCED_IN_THE_FUTURE}: any verdict whose {@code producedAt} lies beyond the allowed
 *     clock skew after the time the broker logged it (the topic's {@code LogAppendTime}, the same
 *     live and when read back), or after now where the topic does not stamp records. A verdict
 *     dated far ahead would otherwise outrank every later one of its hook.
 * </ul>
 * Another cluster's verdict is neither heard nor refused: one Kafka serves a fleet. What an
 * accepted verdict does to its gate (stale, duplicate, unknown gate) the gate machine says.
 */
public final class VerdictScreen {

    /** The default of how far hooks' clocks may differ from the gatekeeper's and the broker's. */
    public static final Duration CLOCK_SKEW = Duration.ofMinutes(2);

    /** What the screen made of a record. */
    public sealed interface Screened permits Accepted, Refused, OtherCluster {}

    /** A verdict of this cluster, for the gates to hear. */
    public record Accepted(Verdict verdict) implements Screened {}

    /**
     * A record refused, for the dead-letter topic.
     *
     * @param suspect the verdict refused for its signature or its age, which deserves a warning
     *                where operators look; {@code null} for a record that is no usable verdict
     */
    public record Refused(String reason, String error, Verdict suspect) implements Screened {}

    /** Another cluster's verdict: nothing to do here. */
    public record OtherCluster(Verdict verdict) implements Screened {}

    /** The reason of a verdict signed with a key id its hook has no key under (yet). */
    public static final String UNKNOWN_KEY = "SIGNATURE_UNKNOWN_KEY";

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final String cluster;
    private final CloudEventsKafka cloudEvents;
    private final Function<String, Gate> gates;
    private final Function<Verdict, Map<String, PublicKey>> keys;
    private final Clock clock;
    private final Duration skew;

    /**
     * @param gates the gates by id, as the gatekeeper holds them
     * @param keys  the public keys by key id that may sign a verdict (its hook's, less those
     *              bound to other nodes); empty when none are known (yet)
     * @param skew  how far a hook's clock may be off ({@code MCDHOOKS_VERDICT_CLOCK_SKEW})
     */
    public VerdictScreen(
            String cluster,
            CloudEventsKafka cloudEvents,
            Function<String, Gate> gates,
            Function<Verdict, Map<String, PublicKey>> keys,
            Clock clock,
            Duration skew) {
        this.clock = clock;
        this.skew = skew;
        this.cluster = cluster;
        this.cloudEvents = cloudEvents;
        this.gates = gates;
        this.keys = keys;
    }

    public Screened screen(VerdictRecord record) {
        Message message;
        String jws;
        try {
            CloudEventsKafka.Received received =
                    cloudEvents.fromRecord(record.keyText(), record.headers(), record.value());
            message = received.message();
            jws = received.jws();
        } catch (InvalidMessageException e) {
            return new Refused(e.reason().name(), e.getMessage(), null);
        }
        if (!(message instanceof Verdict verdict)) {
            return new Refused("UNEXPECTED_KIND", "a " + message.kind() + " on the verdicts topic", null);
        }
        if (!cluster.equals(verdict.cluster())) {
            return new OtherCluster(verdict);
        }
        Instant reference = record.loggedAt() != null ? record.loggedAt() : clock.instant();
        if (verdict.producedAt().isAfter(reference.plus(skew))) {
            return new Refused(
                    "PRODUCED_IN_THE_FUTURE",
                    "verdict of " + verdict.hook() + " on " + verdict.gateId() + " produced at " + verdict.producedAt()
                            + ", beyond " + reference + " plus the allowed clock skew of " + skew,
                    verdict);
        }
        String problem = signatureProblem(verdict, producedAtText(record.value()), jws);
        if (problem != null) {
            return new Refused(
                    problem,
                    "verdict of " + verdict.hook() + " on " + verdict.gateId() + " refused: " + problem,
                    verdict);
        }
        return new Accepted(verdict);
    }

    /** The body's {@code producedAt} as its text, which the signature covers; {@code null} if none. */
    private static String producedAtText(byte[] body) {
        try {
            JsonNode producedAt = JSON.readTree(body).get("producedAt");
            return producedAt != null && producedAt.isTextual() ? producedAt.asText() : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** Why a signed hook's verdict is refused, or {@code null}: unsigned hooks are heard as they are. */
    private String signatureProblem(Verdict verdict, String producedAt, String jws) {
        Gate gate = gates.apply(verdict.gateId());
        Gate.Slot slot = gate == null ? null : gate.hooks().get(verdict.hook());
        if (slot == null || !slot.signed()) {
            return null;
        }
        Map<String, PublicKey> hookKeys = keys.apply(verdict);
        if (producedAt == null) {
            return "SIGNATURE_MALFORMED";
        }
        VerdictSignatures.Check check =
                VerdictSignatures.verify(verdict, producedAt, jws, hookKeys == null ? Map.of() : hookKeys);
        if (check != VerdictSignatures.Check.VALID) {
            return "SIGNATURE_" + check;
        }
        if (verdict.producedAt().isBefore(gate.openedAt().minus(skew))) {
            return "SIGNATURE_EXPIRED";
        }
        return null;
    }
}
