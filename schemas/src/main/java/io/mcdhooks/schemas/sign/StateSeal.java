package io.mcdhooks.schemas.sign;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * An HMAC-SHA256 seal over a record of a bridge's own state (lifecycle events, gate requests,
 * decisions), keyed per cluster. One Kafka can serve a fleet, and every bridge may write the
 * shared topics: a record another cluster's bridge (or anyone else) wrote in this cluster's name
 * lacks this cluster's seal, and a restart does not trust it. It travels in the CloudEvents
 * extension {@value #EXTENSION} (header {@code ce_seal}) and covers the cluster, the CloudEvents
 * type and id, and the record value as sent.
 */
public final class StateSeal {

    /** The CloudEvents extension carrying the seal. */
    public static final String EXTENSION = "seal";
    /** Shortest key accepted: the HMAC's own output size. */
    public static final int MIN_KEY_BYTES = 32;

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private final SecretKeySpec key;

    /** @param key at least {@value #MIN_KEY_BYTES} bytes, this cluster's alone */
    public StateSeal(byte[] key) {
        if (key.length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException(
                    "a state key of " + key.length + " bytes; at least " + MIN_KEY_BYTES + " are needed");
        }
        this.key = new SecretKeySpec(key.clone(), "HmacSHA256");
    }

    /** The seal of a record. */
    public String seal(String cluster, String type, String id, byte[] value) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(("mcdhooks-state-v1\n" + cluster + "\n" + type + "\n" + id + "\n")
                    .getBytes(StandardCharsets.UTF_8));
            mac.update(value == null ? new byte[0] : value);
            return B64.encodeToString(mac.doFinal());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** Whether {@code seal} is this cluster's seal of the record; compared in constant time. */
    public boolean verifies(String cluster, String type, String id, byte[] value, String seal) {
        if (seal == null || cluster == null || type == null || id == null) {
            return false;
        }
        return MessageDigest.isEqual(
                seal(cluster, type, id, value).getBytes(StandardCharsets.US_ASCII),
                seal.getBytes(StandardCharsets.US_ASCII));
    }
}
