package io.mcdhooks.schemas.sign;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mcdhooks.schemas.Verdict;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Detached JWS (RFC 7515, appendix F) over a verdict, signed with Ed25519 ({@code alg: EdDSA}).
 * The signed payload binds what a verdict means: cluster, gate, attempt, hook, outcome, reason,
 * the time it was produced (its text exactly as in the body, so signers in any language agree)
 * and the message. A signature copied onto another gate, attempt, outcome or message does not
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

    /** The payload's first line: its format. */
    public static final String FORMAT = "mcdhooks-verdict-v2";

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getUrlDecoder();
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    /** A key id: a Secret entry's characters, long enough for {@code node_<node name>}. */
    private static final Pattern KID = Pattern.compile("[-._a-zA-Z0-9]{1,300}");

    private VerdictSignatures() {}

    /** The canonical bytes a signature covers, {@code producedAt} as {@link Instant#toString()} writes it. */
    public static byte[] payload(Verdict v) {
        return payload(v, v.producedAt().toString());
    }

    /**
     * The canonical bytes a signature covers. The message comes last: whatever it holds, newlines
     * included, cannot shift another field.
     *
     * @param producedAt the verdict's {@code producedAt} exactly as its body has it
     */
    public static byte[] payload(Verdict v, String producedAt) {
        return String.join(
                        "\n",
                        FORMAT,
                        v.cluster(),
                        v.gateId(),
                        Integer.toString(v.attempt()),
                        v.hook(),
                        v.outcome().name(),
                        v.reason(),
                        producedAt,
                        v.message() == null ? "" : v.message())
                .getBytes(StandardCharsets.UTF_8);
    }

    /** Signs a verdict whose body writes {@code producedAt} as {@link Instant#toString()} does (the codec). */
    public static String sign(Verdict verdict, PrivateKey key, String keyId) {
        return sign(verdict, verdict.producedAt().toString(), key, keyId);
    }

    /** Signs a verdict whose body has {@code producedAt} as this text. */
    public static String sign(Verdict verdict, String producedAt, PrivateKey key, String keyId) {
        if (!KID.matcher(keyId).matches()) {
            throw new IllegalArgumentException(
                    "key id '" + keyId + "' is not 1 to 300 of a-z, A-Z, 0-9, '-', '_', '.'");
        }
        ObjectNode protectedHeader = JSON.createObjectNode().put("alg", "EdDSA").put("kid", keyId);
        String header = B64.encodeToString(protectedHeader.toString().getBytes(StandardCharsets.UTF_8));
        try {
            Signature signer = Signature.getInstance("Ed25519");
            signer.initSign(key);
            signer.update(signingInput(header, verdict, producedAt));
            return header + ".." + B64.encodeToString(signer.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign with key " + keyId, e);
        }
    }

    /** {@link #verify(Verdict, String, String, Map)} for a body written by the codec. */
    public static Check verify(Verdict verdict, String jws, Map<String, PublicKey> keys) {
        return verify(verdict, verdict.producedAt().toString(), jws, keys);
    }

    /**
     * Checks {@code jws} against the verdict with the hook's keys by id (several during a rotation).
     *
     * @param producedAt the verdict's {@code producedAt} exactly as its body has it
     */
    public static Check verify(Verdict verdict, String producedAt, String jws, Map<String, PublicKey> keys) {
        if (jws == null || jws.isBlank()) {
            return Check.UNSIGNED;
        }
        String[] parts = jws.split("\\.", -1);
        if (parts.length != 3 || !parts[1].isEmpty()) {
            return Check.MALFORMED;
        }
        String kid;
        byte[] signature;
        try {
            kid = keyId(B64D.decode(parts[0]));
            signature = B64D.decode(parts[2]);
        } catch (IllegalArgumentException e) {
            return Check.MALFORMED;
        }
        if (kid == null) {
            return Check.MALFORMED;
        }
        PublicKey key = keys.get(kid);
        if (key == null) {
            return Check.UNKNOWN_KEY;
        }
        try {
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(key);
            verifier.update(signingInput(parts[0], verdict, producedAt));
            return verifier.verify(signature) ? Check.VALID : Check.BAD_SIGNATURE;
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return Check.BAD_SIGNATURE;
        }
    }

    /**
     * The key id of a protected header that is a JSON object with {@code alg: EdDSA}, a {@code kid}
     * string and no {@code crit} (no extension this reader would have to understand); else {@code null}.
     */
    private static String keyId(byte[] header) {
        JsonNode node;
        try {
            node = JSON.readTree(header);
        } catch (IOException e) {
            return null;
        }
        if (node == null || !node.isObject() || node.has("crit")) {
            return null;
        }
        JsonNode alg = node.get("alg");
        JsonNode kid = node.get("kid");
        if (alg == null || !alg.isTextual() || !"EdDSA".equals(alg.asText())) {
            return null;
        }
        if (kid == null || !kid.isTextual() || !KID.matcher(kid.asText()).matches()) {
            return null;
        }
        return kid.asText();
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

    private static byte[] signingInput(String header, Verdict verdict, String producedAt) {
        return (header + "." + B64.encodeToString(payload(verdict, producedAt))).getBytes(StandardCharsets.US_ASCII);
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
