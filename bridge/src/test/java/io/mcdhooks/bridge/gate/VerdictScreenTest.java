package io.mcdhooks.bridge.gate;

import static io.mcdhooks.bridge.gate.Gates.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateDecision.Mode;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.sign.VerdictSignatures;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the verdict screen makes of records of the verdicts topic, before any gate sees them. */
class VerdictScreenTest {

    private static final String KEY_ID = "2026-11";
    private static final CloudEventsKafka CLOUD_EVENTS = new CloudEventsKafka(new MessageCodec());
    private static final Clock CLOCK = Clock.fixed(T0.plusSeconds(60), ZoneOffset.UTC);

    private final KeyPair hookKey = generate();
    private final KeyPair strangerKey = generate();
    private final Map<String, Gate> gates = new HashMap<>();
    private final Map<String, Map<String, PublicKey>> keys = new HashMap<>();
    private final VerdictScreen screen =
            new VerdictScreen("c1", CLOUD_EVENTS, gates::get, v -> keys.get(v.hook()), CLOCK, VerdictScreen.CLOCK_SKEW);

    private final GateRequest unsignedGate = open(Stage.POST_UPDATE, 1, false);
    private final GateRequest signedGate = open(Stage.POOL_PRE_UPDATE, 1, true);

    VerdictScreenTest() {
        keys.put("check", Map.of(KEY_ID, hookKey.getPublic()));
    }

    @Test
    void hearsAVerdictOfThisClusterFromAHookThatNeedNotSign() {
        Verdict pass = pass(unsignedGate, T0.plusSeconds(5));

        assertThat(screen.screen(record(pass, Map.of()))).isEqualTo(new VerdictScreen.Accepted(pass));
    }

    @Test
    void hearsASignedHooksVerdictThatItsKeyVerifies() {
        Verdict pass = pass(signedGate, T0.plusSeconds(5));

        assertThat(screen.screen(record(pass, signed(pass, hookKey)))).isEqualTo(new VerdictScreen.Accepted(pass));
    }

    @Test
    void refusesAnUnsignedVerdictForAHookThatMustSign() {
        Verdict pass = pass(signedGate, T0.plusSeconds(5));

        assertThat(screen.screen(record(pass, Map.of())))
                .isEqualTo(new VerdictScreen.Refused(
                        "SIGNATURE_UNSIGNED",
                        "verdict of check on " + pass.gateId() + " refused: SIGNATURE_UNSIGNED",
                        pass));
    }

    @Test
    void refusesAVerdictForgedWithAnotherKeyUnderTheHooksKeyId() {
        Verdict pass = pass(signedGate, T0.plusSeconds(5));

        assertThat(screen.screen(record(pass, signed(pass, strangerKey))))
                .isInstanceOfSatisfying(VerdictScreen.Refused.class, r -> {
                    assertThat(r.reason()).isEqualTo("SIGNATURE_BAD_SIGNATURE");
                    assertThat(r.suspect()).isEqualTo(pass);
                });
    }

    @Test
    void refusesAVerdictSignedWithAKeyTheHookDoesNotHaveOrWhoseKeysAreNotReadYet() {
        Verdict pass = pass(signedGate, T0.plusSeconds(5));
        String otherKid = VerdictSignatures.sign(pass, hookKey.getPrivate(), "2025-01");

        assertThat(reason(screen.screen(record(pass, Map.of(CloudEventsKafka.JWS_EXTENSION, otherKid)))))
                .isEqualTo("SIGNATURE_UNKNOWN_KEY");
        keys.remove("check");
        assertThat(reason(screen.screen(record(pass, signed(pass, hookKey))))).isEqualTo("SIGNATURE_UNKNOWN_KEY");
    }

    @Test
    void refusesASignatureCopiedFromAnEarlierAttemptOntoThisOne() {
        // Given the signed gate re-opened as attempt 2, and the hook's signed PASS of attempt 1
        Verdict first = pass(signedGate, T0.plusSeconds(5));
        GateRequest second = open(Stage.POOL_PRE_UPDATE, 2, true);
        Verdict copied = pass(second, first.producedAt());

        // Then its signature does not verify for attempt 2
        assertThat(reason(screen.screen(record(copied, signed(first, hookKey)))))
                .isEqualTo("SIGNATURE_BAD_SIGNATURE");
    }

    @Test
    void refusesASignedVerdictThatPredatesItsGateAndHearsOneWithinTheClockSkew() {
        // Given the hook's own signature, on a verdict produced before the gate opened
        Verdict replayed = pass(signedGate, T0.minus(VerdictScreen.CLOCK_SKEW).minusSeconds(1));
        Verdict skewed = pass(signedGate, T0.minus(VerdictScreen.CLOCK_SKEW).plusSeconds(1));

        assertThat(reason(screen.screen(record(replayed, signed(replayed, hookKey)))))
                .isEqualTo("SIGNATURE_EXPIRED");
        assertThat(screen.screen(record(skewed, signed(skewed, hookKey)))).isInstanceOf(VerdictScreen.Accepted.class);
    }

    @Test
    void refusesAVerdictDatedBeyondTheClockSkewAfterNowSignedOrNot() {
        Verdict ahead = pass(
                unsignedGate, CLOCK.instant().plus(VerdictScreen.CLOCK_SKEW).plusSeconds(1));
        Verdict within = pass(unsignedGate, CLOCK.instant().plus(VerdictScreen.CLOCK_SKEW));
        Verdict signedAhead = pass(signedGate, ahead.producedAt());

        assertThat(reason(screen.screen(record(ahead, Map.of())))).isEqualTo("PRODUCED_IN_THE_FUTURE");
        assertThat(screen.screen(record(within, Map.of()))).isInstanceOf(VerdictScreen.Accepted.class);
        assertThat(reason(screen.screen(record(signedAhead, signed(signedAhead, hookKey)))))
                .isEqualTo("PRODUCED_IN_THE_FUTURE");
    }

    @Test
    void judgesByTheBrokersAppendTimeWhereTheTopicStampsItSoAReadBackAgreesWithTheLiveAnswer() {
        // Given a verdict dated an hour ahead of when the broker logged it, read back a day later
        VerdictScreen dayLater = new VerdictScreen(
                "c1",
                CLOUD_EVENTS,
                gates::get,
                v -> keys.get(v.hook()),
                Clock.offset(CLOCK, Duration.ofDays(1)),
                VerdictScreen.CLOCK_SKEW);
        Verdict ahead = pass(unsignedGate, T0.plus(Duration.ofHours(1)));
        VerdictRecord live = record(ahead, Map.of());
        VerdictRecord logged = new VerdictRecord(
                live.topic(), live.partition(), live.offset(), live.key(), live.headers(), live.value(), T0);

        // Then it is refused still: against the broker's time, not the reader's
        assertThat(reason(dayLater.screen(logged))).isEqualTo("PRODUCED_IN_THE_FUTURE");
        assertThat(dayLater.screen(live)).isInstanceOf(VerdictScreen.Accepted.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-11-30T15:00:10+05:00", "2026-11-30T10:00:10.0Z", "2026-11-30T10:00:10.000000Z"})
    void verifiesASignatureOverProducedAtExactlyAsTheBodyWritesIt(String written) {
        // Given a signer in another language, writing the same instant its own way and signing that text
        Verdict pass = pass(signedGate, T0.plusSeconds(10));
        VerdictRecord record = withProducedAt(
                record(
                        pass,
                        Map.of(
                                CloudEventsKafka.JWS_EXTENSION,
                                VerdictSignatures.sign(pass, written, hookKey.getPrivate(), KEY_ID))),
                pass,
                written);

        // Then it verifies; and the same signature over the Java form of that instant does not
        assertThat(screen.screen(record)).isInstanceOf(VerdictScreen.Accepted.class);
        VerdictRecord javaForm = record(
                pass,
                Map.of(
                        CloudEventsKafka.JWS_EXTENSION,
                        VerdictSignatures.sign(pass, written, hookKey.getPrivate(), KEY_ID)));
        assertThat(reason(screen.screen(javaForm))).isEqualTo("SIGNATURE_BAD_SIGNATURE");
    }

    @Test
    void leavesAnEarlierAttemptsVerdictOfAnUnsignedHookToTheGateWhichFindsItStale() {
        // Given a gate at attempt 2 and a verdict for attempt 1
        GateRequest second = open(Stage.POST_UPDATE, 2, false);
        Verdict old = pass(unsignedGate, T0.plusSeconds(5));

        // Then the screen hears it, and the gate machine finds it stale: it changes nothing
        assertThat(screen.screen(record(old, Map.of()))).isEqualTo(new VerdictScreen.Accepted(old));
        assertThat(GateMachine.onVerdict(gates.get(second.gateId()), old, T0.plusSeconds(6))
                        .fate())
                .isEqualTo(VerdictFate.STALE);
    }

    @Test
    void leavesAnotherClustersVerdictAloneSignedOrNot() {
        Verdict elsewhere = new Verdict(
                "c2",
                signedGate.gateId().replace("c1/", "c2/"),
                1,
                "check",
                Stage.POOL_PRE_UPDATE,
                "worker",
                null,
                Gates.TARGET,
                Outcome.PASS,
                "Fine",
                null,
                null,
                T0.plusSeconds(5));

        assertThat(screen.screen(record(elsewhere, Map.of()))).isEqualTo(new VerdictScreen.OtherCluster(elsewhere));
    }

    @Test
    void refusesMalformedRecordsWithTheCodecsReason() {
        Verdict pass = pass(unsignedGate, T0.plusSeconds(5));
        ProducerRecord<String, byte[]> valid = producerRecord(pass, Map.of());

        VerdictRecord truncated = record(valid, valid.key(), Arrays.copyOf(valid.value(), 20));
        VerdictRecord noHeaders = new VerdictRecord(
                "verdicts", 0, 7, bytes(valid.key()), List.of(), "{}".getBytes(StandardCharsets.UTF_8));
        VerdictRecord otherKey = record(valid, "worker-9", valid.value());
        VerdictRecord mistyped = record(
                valid,
                valid.key(),
                text(valid.value()).replace("\"PASS\"", "\"PASSED\"").getBytes(StandardCharsets.UTF_8));

        assertThat(reason(screen.screen(truncated))).isEqualTo("MALFORMED_JSON");
        assertThat(reason(screen.screen(noHeaders))).isEqualTo("NOT_A_CLOUDEVENT");
        assertThat(reason(screen.screen(otherKey))).isEqualTo("INCONSISTENT");
        assertThat(reason(screen.screen(mistyped))).isEqualTo("SCHEMA_VIOLATION");
        assertThat(screen.screen(truncated))
                .isInstanceOfSatisfying(
                        VerdictScreen.Refused.class,
                        r -> assertThat(r.suspect()).isNull());
    }

    @Test
    void refusesAnotherKindOfMessageOnTheVerdictsTopic() {
        assertThat(screen.screen(record(unsignedGate, Map.of())))
                .isEqualTo(new VerdictScreen.Refused("UNEXPECTED_KIND", "a GateRequest on the verdicts topic", null));
    }

    /** Opens a gate of {@code stage} on "check", which must sign or not. */
    private GateRequest open(Stage stage, int attempt, boolean signed) {
        GateRequest request = Gates.request(stage, attempt);
        RegisteredHook check = new RegisteredHook(
                "check",
                Set.of(stage),
                Set.of(),
                Map.of(),
                Duration.ofMinutes(10),
                Duration.ZERO,
                FailurePolicy.Fail,
                Mode.Enforcing,
                RegisteredHook.PostUpdateFailure.Hold,
                signed);
        Instant opened = T0.plus(Duration.ofMinutes(30).multipliedBy(attempt - 1L));
        gates.put(
                request.gateId(),
                GateMachine.open(request, List.of(check), opened).gate());
        return request;
    }

    /** The record with its body's producedAt rewritten as {@code written}. */
    private static VerdictRecord withProducedAt(VerdictRecord record, Verdict verdict, String written) {
        String body = text(record.value());
        String java = "\"producedAt\":\"" + verdict.producedAt() + "\"";
        assertThat(body).contains(java);
        byte[] value = bytes(body.replace(java, "\"producedAt\":\"" + written + "\""));
        return new VerdictRecord(
                record.topic(), record.partition(), record.offset(), record.key(), record.headers(), value);
    }

    private static Verdict pass(GateRequest request, Instant at) {
        return Gates.verdict(request, "check", Outcome.PASS, at);
    }

    private static Map<String, String> signed(Verdict verdict, KeyPair key) {
        return Map.of(CloudEventsKafka.JWS_EXTENSION, VerdictSignatures.sign(verdict, key.getPrivate(), KEY_ID));
    }

    private static String reason(VerdictScreen.Screened screened) {
        assertThat(screened).isInstanceOf(VerdictScreen.Refused.class);
        return ((VerdictScreen.Refused) screened).reason();
    }

    private static ProducerRecord<String, byte[]> producerRecord(Message message, Map<String, String> extensions) {
        return CLOUD_EVENTS.toRecord(
                "verdicts", message, "id-1", URI.create("/hooks/check"), T0.atOffset(ZoneOffset.UTC), extensions);
    }

    private static VerdictRecord record(Message message, Map<String, String> extensions) {
        ProducerRecord<String, byte[]> record = producerRecord(message, extensions);
        return record(record, record.key(), record.value());
    }

    private static VerdictRecord record(ProducerRecord<String, byte[]> record, String key, byte[] value) {
        List<CloudEventsKafka.Header> headers = new ArrayList<>();
        record.headers().forEach(h -> headers.add(new CloudEventsKafka.Header(h.key(), h.value())));
        return new VerdictRecord("verdicts", 0, 7, bytes(key), headers, value);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static KeyPair generate() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
