package io.mcdhooks.hooks.registry;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * A content digest as the OCI image spec writes it, {@code algorithm:hex}. Only the registered
 * algorithms whose content this code can verify are accepted: {@code sha256} and {@code sha512}.
 */
public record Digest(String algorithm, String hex) {

    private static final Pattern SHA256 = Pattern.compile("[a-f0-9]{64}");
    private static final Pattern SHA512 = Pattern.compile("[a-f0-9]{128}");

    public Digest {
        boolean valid = switch (algorithm) {
            case "sha256" -> SHA256.matcher(hex).matches();
            case "sha512" -> SHA512.matcher(hex).matches();
            default -> false;
        };
        if (!valid) {
            throw new IllegalArgumentException("'" + algorithm + ":" + hex
                    + "' is not a digest (sha256 with 64 or sha512 with 128 lower-case hex digits)");
        }
    }

    public static Digest parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("no digest");
        }
        int colon = text.indexOf(':');
        if (colon < 1) {
            throw new IllegalArgumentException("'" + text + "' is not a digest (algorithm:hex)");
        }
        return new Digest(text.substring(0, colon), text.substring(colon + 1));
    }

    /** The sha256 digest of {@code content}. */
    public static Digest sha256(byte[] content) {
        return new Digest("sha256", HexFormat.of().formatHex(hash("SHA-256", content)));
    }

    /** The digest of {@code content} with this digest's algorithm. */
    public Digest of(byte[] content) {
        String name = "sha256".equals(algorithm) ? "SHA-256" : "SHA-512";
        return new Digest(algorithm, HexFormat.of().formatHex(hash(name, content)));
    }

    /** Whether {@code content} is what this digest names. */
    public boolean matches(byte[] content) {
        return MessageDigest.isEqual(
                hex.getBytes(StandardCharsets.US_ASCII), of(content).hex().getBytes(StandardCharsets.US_ASCII));
    }

    /** The first 12 hex digits, for messages. */
    public String shortForm() {
        return algorithm + ":" + hex.substring(0, 12);
    }

    private static byte[] hash(String algorithm, byte[] content) {
        try {
            return MessageDigest.getInstance(algorithm).digest(content);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is missing from this JDK", e);
        }
    }

    @Override
    public String toString() {
        return algorithm + ":" + hex;
    }
}
