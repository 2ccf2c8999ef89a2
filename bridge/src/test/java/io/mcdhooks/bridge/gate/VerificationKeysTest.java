package io.mcdhooks.bridge.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.sign.VerdictSignatures;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The keys Secret as the gatekeeper reads it: entries {@code <hook>.<kid>}, node keys bound to their node. */
class VerificationKeysTest {

    private final String pem = pem(generate());
    private final Verdict onWorker0 =
            Gates.verdict(Gates.request(Stage.POST_UPDATE, 1), "selfcheck", Outcome.PASS, Gates.T0);
    private final Verdict onPool =
            Gates.verdict(Gates.request(Stage.POOL_PRE_UPDATE, 1), "selfcheck", Outcome.PASS, Gates.T0);

    @Test
    void entriesAreNamedHookDotKidAndANodeKeyVerifiesOnlyItsNodesVerdicts() {
        VerificationKeys keys = VerificationKeys.load(
                        Map.of(
                                "selfcheck.node_worker-0", pem,
                                "selfcheck.node_worker-1.example.com", pem,
                                "selfcheck.central", pem,
                                "kmod.2026-11", pem),
                        VerificationKeys.NONE)
                .keys();

        assertThat(keys.forVerdict(onWorker0)).containsOnlyKeys("node_worker-0", "central");
        assertThat(keys.forVerdict(onPool)).containsOnlyKeys("central");
        assertThat(keys.size()).isEqualTo(4);
    }

    @Test
    void aBrokenEntryIsNamedAndKeepsTheKeyItReplacedWhileOthersLoad() {
        VerificationKeys before = VerificationKeys.load(Map.of("selfcheck.central", pem), VerificationKeys.NONE)
                .keys();

        VerificationKeys.Loaded after = VerificationKeys.load(
                Map.of("selfcheck.central", "not a key", "no-kid", pem, "selfcheck.next", pem), before);

        assertThat(after.keys().forVerdict(onPool)).containsOnlyKeys("central", "next");
        assertThat(after.problems())
                .anyMatch(p -> p.contains("'selfcheck.central'"))
                .anyMatch(p -> p.contains("'no-kid' is not <hook>.<kid>"));
    }

    private static String pem(KeyPair key) {
        return VerdictSignatures.pem("PUBLIC KEY", key.getPublic().getEncoded());
    }

    private static KeyPair generate() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
