package io.mcdhooks.schemas.sign;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerdictSignaturesTest {

    private final KeyPair current = generate();
    private final KeyPair next = generate();
    private final Verdict pass = verdict("c1/pre-update/w1/rendered-worker-2", 1, Outcome.PASS);

    @Test
    void aSignedVerdictVerifiesWithItsKeyAndBothKeysOfARotation() {
        String jws = VerdictSignatures.sign(pass, current.getPrivate(), "2026-11");

        assertThat(jws).matches("[A-Za-z0-9_-]+\\.\\.[A-Za-z0-9_-]+");
        assertThat(VerdictSignatures.verify(
                        pass, jws, Map.of("2026-11", current.getPublic(), "2026-12", next.getPublic())))
                .isEqualTo(VerdictSignatures.Check.VALID);
        String rotated = VerdictSignatures.sign(pass, next.getPrivate(), "2026-12");
        assertThat(VerdictSignatures.verify(
                        pass, rotated, Map.of("2026-11", current.getPublic(), "2026-12", next.getPublic())))
                .isEqualTo(VerdictSignatures.Check.VALID);
    }

    @Test
    void refusesUnsignedForgedAndReplayedVerdicts() {
        Map<String, PublicKey> keys = Map.of("k", current.getPublic());
        String jws = VerdictSignatures.sign(pass, current.getPrivate(), "k");
        String forged = VerdictSignatures.sign(pass, next.getPrivate(), "k");
        Verdict otherGate = verdict("c1/pre-update/w2/rendered-worker-2", 1, Outcome.PASS);
        Verdict otherAttempt = verdict("c1/pre-update/w1/rendered-worker-2", 2, Outcome.PASS);
        Verdict flipped = verdict("c1/pre-update/w1/rendered-worker-2", 1, Outcome.FAIL);

        assertThat(VerdictSignatures.verify(pass, null, keys)).isEqualTo(VerdictSignatures.Check.UNSIGNED);
        assertThat(VerdictSignatures.verify(pass, forged, keys)).isEqualTo(VerdictSignatures.Check.BAD_SIGNATURE);
        assertThat(VerdictSignatures.verify(otherGate, jws, keys)).isEqualTo(VerdictSignatures.Check.BAD_SIGNATURE);
        assertThat(VerdictSignatures.verify(otherAttempt, jws, keys)).isEqualTo(VerdictSignatures.Check.BAD_SIGNATURE);
        assertThat(VerdictSignatures.verify(flipped, jws, keys)).isEqualTo(VerdictSignatures.Check.BAD_SIGNATURE);
        assertThat(VerdictSignatures.verify(pass, VerdictSignatures.sign(pass, current.getPrivate(), "gone"), keys))
                .isEqualTo(VerdictSignatures.Check.UNKNOWN_KEY);
        assertThat(VerdictSignatures.verify(pass, "not.a.jws", keys)).isEqualTo(VerdictSignatures.Check.MALFORMED);
    }

    @Test
    void theMessageIsCoveredAndTheHeaderIsReadAsJson() {
        Map<String, PublicKey> keys = Map.of("node_worker-1.example.com", current.getPublic());
        String jws = VerdictSignatures.sign(pass, current.getPrivate(), "node_worker-1.example.com");
        Verdict reworded = new Verdict(
                pass.cluster(),
                pass.gateId(),
                pass.attempt(),
                pass.hook(),
                pass.stage(),
                pass.pool(),
                pass.node(),
                pass.targetConfig(),
                pass.outcome(),
                pass.reason(),
                "all good, trust me",
                null,
                pass.producedAt());
        // The same header with its members reordered and spaced, as another JSON writer may write it
        String signature = jws.substring(jws.indexOf(".."));
        String spaced = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("{ \"kid\" : \"node_worker-1.example.com\", \"alg\" : \"EdDSA\" }"
                        .getBytes(StandardCharsets.UTF_8));
        String withCrit = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("{\"alg\":\"EdDSA\",\"kid\":\"node_worker-1.example.com\",\"crit\":[\"b64\"]}"
                        .getBytes(StandardCharsets.UTF_8));

        assertThat(VerdictSignatures.verify(pass, jws, keys)).isEqualTo(VerdictSignatures.Check.VALID);
        assertThat(VerdictSignatures.verify(reworded, jws, keys)).isEqualTo(VerdictSignatures.Check.BAD_SIGNATURE);
        // a header is part of the signing input: re-encoded, the signature no longer covers it
        assertThat(VerdictSignatures.verify(pass, spaced + signature, keys))
                .isEqualTo(VerdictSignatures.Check.BAD_SIGNATURE);
        assertThat(VerdictSignatures.verify(pass, withCrit + signature, keys))
                .isEqualTo(VerdictSignatures.Check.MALFORMED);
    }

    @Test
    void readsKeysFromPem() {
        String privatePem =
                VerdictSignatures.pem("PRIVATE KEY", current.getPrivate().getEncoded());
        String publicPem =
                VerdictSignatures.pem("PUBLIC KEY", current.getPublic().getEncoded());

        String jws = VerdictSignatures.sign(pass, VerdictSignatures.privateKey(privatePem), "k");

        assertThat(VerdictSignatures.verify(pass, jws, Map.of("k", VerdictSignatures.publicKey(publicPem))))
                .isEqualTo(VerdictSignatures.Check.VALID);
    }

    private static Verdict verdict(String gate, int attempt, Outcome outcome) {
        return new Verdict(
                "c1",
                gate,
                attempt,
                "kmod-check",
                Stage.PRE_UPDATE,
                "worker",
                gate.split("/")[2],
                "rendered-worker-2",
                outcome,
                "Checked",
                null,
                null,
                Instant.parse("2026-11-30T10:00:00Z"));
    }

    private static KeyPair generate() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
