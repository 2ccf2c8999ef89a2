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
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A restart changes no decision: whatever mix of signed, unsigned, forged and far-future verdicts
 * reached a gate of signed hooks, the gatekeeper rebuilt from Kafka (requests, decisions, every
 * verdict record as it came) stands where the live one stood, and releases only what it released.
 */
class GatekeeperRecoveryProperties {

    private static final CloudEventsKafka CLOUD_EVENTS = new CloudEventsKafka(new MessageCodec());
    private static final Clock CLOCK = Clock.fixed(T0.plusSeconds(600), ZoneOffset.UTC);
    private static final KeyPair HOOK_KEY = generate();
    private static final KeyPair STRANGER = generate();
    private static final List<String> HOOKS = List.of("signed-a", "signed-b");

    /** How a verdict came: signed by its hook, unsigned, signed by a stranger, or dated far ahead. */
    enum Kind {
        SIGNED,
        UNSIGNED,
        FORGED,
        FAR_FUTURE
    }

    record Say(int hook, Outcome outcome, Kind kind) {}

    @Property(tries = 200)
    void theRebuiltGateStandsWhereTheLiveOneStood(@ForAll @Size(max = 10) List<@net.jqwik.api.From("says") Say> says) {
        GateRequest request = Gates.request(Stage.POOL_PRE_UPDATE, 1);
        List<Message> published = new ArrayList<>(List.of(request));
        List<VerdictRecord> topic = new ArrayList<>();
        Gatekeeper live = gatekeeper(published);
        VerdictScreen liveScreen = screen(live);
        live.onGateRequest(request);
        int second = 1;
        for (Say say : says) {
            VerdictRecord record = record(request, say, second++);
            topic.add(record);
            if (liveScreen.screen(record) instanceof VerdictScreen.Accepted accepted) {
                live.onVerdict(accepted.verdict());
            }
        }

        Gatekeeper restarted = gatekeeper(new ArrayList<>());
        restarted.recover(List.copyOf(published), topic, screen(restarted)::screen);

        GateDecision before = GateMachine.evaluate(live.gate(request.gateId()), CLOCK.instant());
        GateDecision after = GateMachine.evaluate(restarted.gate(request.gateId()), CLOCK.instant());
        assertThat(after.decision()).isEqualTo(before.decision());
        assertThat(after.released()).isEqualTo(before.released());
        assertThat(after.blockingHooks()).isEqualTo(before.blockingHooks());
        // And released only if every hook's own signed PASS is its latest signed word
        if (after.released()) {
            for (String hook : HOOKS) {
                Say last = null;
                for (Say say : says) {
                    if (HOOKS.get(say.hook()).equals(hook) && say.kind() == Kind.SIGNED) {
                        last = say;
                    }
                }
                assertThat(last).as(hook).isNotNull();
                assertThat(last.outcome()).as(hook).isEqualTo(Outcome.PASS);
            }
        }
    }

    @Provide
    Arbitrary<Say> says() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, HOOKS.size() - 1),
                        Arbitraries.of(Outcome.PASS, Outcome.FAIL),
                        Arbitraries.of(Kind.class))
                .as(Say::new);
    }

    private static Gatekeeper gatekeeper(List<Message> published) {
        Gatekeeper gatekeeper = new Gatekeeper("c1", CLOCK, published::add);
        for (String hook : HOOKS) {
            gatekeeper.putHook(new RegisteredHook(
                    hook,
                    Set.of(Stage.POOL_PRE_UPDATE),
                    Set.of(),
                    Map.of(),
                    Duration.ofHours(1),
                    Duration.ZERO,
                    FailurePolicy.Fail,
                    Mode.Enforcing,
                    RegisteredHook.PostUpdateFailure.Hold,
                    true));
        }
        return gatekeeper;
    }

    private static VerdictScreen screen(Gatekeeper gatekeeper) {
        Map<String, PublicKey> keys = Map.of("k1", HOOK_KEY.getPublic());
        return new VerdictScreen("c1", CLOUD_EVENTS, gatekeeper::gate, v -> keys, CLOCK, VerdictScreen.CLOCK_SKEW);
    }

    private static VerdictRecord record(GateRequest request, Say say, int second) {
        Verdict verdict = Gates.verdict(
                request,
                HOOKS.get(say.hook()),
                say.outcome(),
                say.kind() == Kind.FAR_FUTURE ? T0.plus(Duration.ofDays(365)) : T0.plusSeconds(second));
        Map<String, String> extensions = switch (say.kind()) {
            case SIGNED, FAR_FUTURE ->
                Map.of(CloudEventsKafka.JWS_EXTENSION, VerdictSignatures.sign(verdict, HOOK_KEY.getPrivate(), "k1"));
            case FORGED ->
                Map.of(CloudEventsKafka.JWS_EXTENSION, VerdictSignatures.sign(verdict, STRANGER.getPrivate(), "k1"));
            case UNSIGNED -> Map.of();
        };
        ProducerRecord<String, byte[]> record = CLOUD_EVENTS.toRecord(
                "verdicts", verdict, "id-" + second, URI.create("/hooks"), T0.atOffset(ZoneOffset.UTC), extensions);
        List<CloudEventsKafka.Header> headers = new ArrayList<>();
        record.headers().forEach(h -> headers.add(new CloudEventsKafka.Header(h.key(), h.value())));
        return new VerdictRecord("verdicts", 0, second, record.key().getBytes(), headers, record.value());
    }

    private static KeyPair generate() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
