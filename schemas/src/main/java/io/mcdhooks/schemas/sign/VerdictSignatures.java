package io.mcdhooks.schemas.sign;

import io.mcdhooks.schemas.Verdict;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Detached JWS (RFC 7515, appendix F) over a verdict, signed with Ed25519 ({@code alg: EdDSA}).
 * The signed payload binds what a verdict means: cluster, gate, attempt, hook, outcome, reason and
 * the time it was produced. A signature copied onto another gate, attempt or outcome does not
 * verify. It travels in the CloudEvents extension {@code jws} (header {@code ce_jws}) as
 * {@code <protected header>..<signature>}; the payload is rebuilt from the verdict by the reader.
 */
public final class VerdictSignatures {

    /** What checking a verdict's signature found. */
    public enum Check {
        VALID,
        UNSIGNED,
        MALFORMED,
        UNKNOWN_KEY,
        BAD_SIGNATURE
    }

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getUrlDecoder();
    private static final Pattern KID = Pattern.compile("\"kid\"\\s*:\\s*\"([^\"]{1,128})\"");
    private static final Pattern ALG = Pattern.compile("\"alg\"\\s*:\\s*\"EdDSA\"");

    private VerdictSignatures() {}

    /** The canonical bytes a signature covers. */
    public static byte[] payload(Verdict v) {
        return String.join(
                        "\n",
                        "mcdhooks-verdict-v1",
                        v.cluster(),
                        v.gateId(),
                        Integer.toString(v.attempt()),
                        v.hook(),
                        v.outcome().name(),
                        v.reason(),
                        v.producedAt().toString())
                .getBytes(StandardCharsets.UTF_8);
    }

    public static String sign(Verdict verdict, PrivateKey key, String keyId) {
        String header = B64.encodeToString(
                ("{\"alg\":\"EdDSA\",\"kid\":\"" + keyId.replace("\"", "") + "\"}").getBytes(StandardCharsets.UTF_8));
        try {
            Signature signer = Signature.getInstance("Ed25519");
            signer.initSign(key);
            signer.update(signingInput(header, verdict));
            return header + ".." + B64.encodeToString(signer.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign with key " + keyId, e);
        }
    }

    /** Checks {@code jws} against the verdict with the hook's keys by id (several during a rotation). */
    public static Check verify(Verdict verdict, String jws, Map<String, PublicKey> keys) {
        if (jws == null || jws.isBlank()) {
            return Check.UNSIGNED;
        }
        String[] parts = jws.split("\\.", -1);
        if (parts.length != 3 || !parts[1].isEmpty()) {
            return Check.MALFORMED;
        }
        String header;
        byte[] signature;
        try {
            header = new String(B64D.decode(parts[0]), StandardCharsets.UTF_8);
            signature = B64D.decode(parts[2]);
        } catch (IllegalArgumentException e) {
            return Check.MALFORMED;
        }
        Matcher kid = KID.matcher(header);
        if (!ALG.matcher(header).find() || !kid.find()) {
            return Check.MALFORMED;
        }
        PublicKey key = keys.get(kid.group(1));
        if (key == null) {
            return Check.UNKNOWN_KEY;
        }
        try {
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(key);
            verifier.update(signingInput(parts[0], verdict));
            return verifier.verify(signature) ? Check.VALID : Check.BAD_SIGNATURE;
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return Check.BAD_SIGNATURE;
        }
    }

    public static PrivateKey privateKey(String pem) {
        try {
            return KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(der(pem, "PRIVATE KEY")));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not an Ed25519 private key (PKCS#8 PEM)", e);
        }
    }

    public static PublicKey publicKey(String pem) {
        try {
            return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der(pem, "PUBLIC KEY")));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not an Ed25519 public key (X.509 PEM)", e);
        }
    }

    public static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    private static byte[] signingInput(String header, Verdict verdict) {
        return (header + "." + B64.encodeToString(payload(verdict))).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] der(String pem, String type) {
        String body = pem.replace("-----BEGIN " + type + "-----", "")
                .replace("-----END " + type + "-----", "")
                .replaceAll("\\s", "");
        try {
            return Base64.getDecoder().decode(body);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not PEM of a " + type, e);
        }
    }
}
