package io.mcdhooks.bridge.gate;

import static io.mcdhooks.bridge.gate.Gates.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.schemas.GateDecision;
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
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * A gatekeeper rebuilt from Kafka hears the verdicts it reads back only through the verdict
 * screen: what was refused live is refused again after a restart or failover.
 */
class GatekeeperRecoveryTest {

    private static final CloudEventsKafka CLOUD_EVENTS = new CloudEventsKafka(new MessageCodec());
    private static final Clock CLOCK = Clock.fixed(T0.plusSeconds(60), ZoneOffset.UTC);

    private final KeyPair hookKey = generate();
    private final GateRequest request = Gates.request(Stage.POOL_PRE_UPDATE, 1);
    private final List<Message> published = new ArrayList<>();
    private final List<VerdictRecord> verdictsTopic = new ArrayList<>();

    @Test
    void anUnsignedPassAfterARealFailIsRefusedLiveAndAgainAfterARestart() {
        // Given a signed hook's real FAIL on a gate, and an unsigned PASS in its name, refused live
        Gatekeeper live = gatekeeper();
        VerdictScreen liveScreen = screen(live);
        live.onGateRequest(request);
        published.add(request);
        hear(live, liveScreen, signed(verdict(Outcome.FAIL, 10)));
        VerdictRecord forged = unsigned(verdict(Outcome.PASS, 20));
        assertThat(hear(live, liveScreen, forged)).isInstanceOf(VerdictScreen.Refused.class);
        assertThat(live.gate(request.gateId()).last().decision()).isEqualTo(GateDecision.Decision.BLOCKED);

        // When a new gatekeeper rebuilds the gates from everything on Kafka
        Gatekeeper restarted = gatekeeper();
        int before = published.size();
        Gatekeeper.Recovery recovery =
                restarted.recover(List.copyOf(published), verdictsTopic, screen(restarted)::screen);

        // Then the gate is still blocked, the forgery refused again, and nothing new decided
        Gate gate = restarted.gate(request.gateId());
        assertThat(gate.released()).isFalse();
        assertThat(GateMachine.evaluate(gate, CLOCK.instant()).decision()).isEqualTo(GateDecision.Decision.BLOCKED);
        assertThat(recovery.refused()).extracting(VerdictScreen.Refused::reason).containsExactly("SIGNATURE_UNSIGNED");
        assertThat(published).hasSize(before);
    }

    @Test
    void aSignedPassReadBackStillCountsAfterARestart() {
        Gatekeeper live = gatekeeper();
        VerdictScreen liveScreen = screen(live);
        live.onGateRequest(request);
        published.add(request);
        hear(live, liveScreen, signed(verdict(Outcome.FAIL, 10)));
        // The PASS came just before the old gatekeeper went: on Kafka, not yet decided on
        verdictsTopic.add(signed(verdict(Outcome.PASS, 20)));

        Gatekeeper restarted = gatekeeper();
        Gatekeeper.Recovery recovery =
                restarted.recover(List.copyOf(published), verdictsTopic, screen(restarted)::screen);

        assertThat(recovery.refused()).isEmpty();
        assertThat(restarted.gate(request.gateId()).released()).isTrue();
    }

    private Gatekeeper gatekeeper() {
        Gatekeeper gatekeeper = new Gatekeeper("c1", CLOCK, published::add);
        gatekeeper.putHook(new RegisteredHook(
                "check",
                Set.of(Stage.POOL_PRE_UPDATE),
                Set.of(),
                Map.of(),
                Duration.ofMinutes(10),
                Duration.ZERO,
                FailurePolicy.Fail,
                Mode.Enforcing,
                RegisteredHook.PostUpdateFailure.Hold,
                true));
        return gatekeeper;
    }

    private VerdictScreen screen(Gatekeeper gatekeeper) {
        Map<String, PublicKey> keys = Map.of("k1", hookKey.getPublic());
        return new VerdictScreen("c1", CLOUD_EVENTS, gatekeeper::gate, v -> keys, CLOCK, VerdictScreen.CLOCK_SKEW);
    }

    /** A record arriving live: on the topic, then screened and heard. */
    private VerdictScreen.Screened hear(Gatekeeper gatekeeper, VerdictScreen screen, VerdictRecord record) {
        verdictsTopic.add(record);
        VerdictScreen.Screened screened = screen.screen(record);
        if (screened instanceof VerdictScreen.Accepted accepted) {
            gatekeeper.onVerdict(accepted.verdict());
        }
        return screened;
    }

    private Verdict verdict(Outcome outcome, int seconds) {
        return Gates.verdict(request, "check", outcome, T0.plusSeconds(seconds));
    }

    private VerdictRecord signed(Verdict verdict) {
        return record(
                verdict,
                Map.of(CloudEventsKafka.JWS_EXTENSION, VerdictSignatures.sign(verdict, hookKey.getPrivate(), "k1")));
    }

    private static VerdictRecord unsigned(Verdict verdict) {
        return record(verdict, Map.of());
    }

    private static VerdictRecord record(Verdict verdict, Map<String, String> extensions) {
        ProducerRecord<String, byte[]> record = CLOUD_EVENTS.toRecord(
                "verdicts", verdict, "id", URI.create("/hooks/check"), T0.atOffset(ZoneOffset.UTC), extensions);
        List<CloudEventsKafka.Header> headers = new ArrayList<>();
        record.headers().forEach(h -> headers.add(new CloudEventsKafka.Header(h.key(), h.value())));
        return new VerdictRecord("verdicts", 0, 0, record.key().getBytes(), headers, record.value());
    }

    private static KeyPair generate() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
