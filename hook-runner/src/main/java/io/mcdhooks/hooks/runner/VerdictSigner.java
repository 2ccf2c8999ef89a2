package io.mcdhooks.hooks.runner;

import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.sign.VerdictSignatures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.util.Map;

/**
 * Signs a runner's verdicts with its Ed25519 key, so that only this hook can speak for itself.
 * Configured by {@code MCDHOOKS_SIGNING_KEY_FILE} (PKCS#8 PEM) and {@code MCDHOOKS_SIGNING_KEY_ID}
 * (the key id the gatekeeper knows the public key by; default: the file's name).
 */
public record VerdictSigner(PrivateKey key, String keyId) {

    public String sign(Verdict verdict) {
        return VerdictSignatures.sign(verdict, key, keyId);
    }

    /** A signer from the environment, or {@code null} when no key is configured. */
    public static VerdictSigner fromEnvironment(Map<String, String> env) {
        String file = env.get("MCDHOOKS_SIGNING_KEY_FILE");
        if (file == null || file.isBlank()) {
            return null;
        }
        Path path = Path.of(file);
        try {
            PrivateKey key = VerdictSignatures.privateKey(Files.readString(path, StandardCharsets.US_ASCII));
            return new VerdictSigner(
                    key,
                    env.getOrDefault(
                            "MCDHOOKS_SIGNING_KEY_ID", path.getFileName().toString()));
        } catch (IOException e) {
            throw new UncheckedIOException("MCDHOOKS_SIGNING_KEY_FILE=" + file + " cannot be read", e);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("MCDHOOKS_SIGNING_KEY_FILE=" + file + ": " + e.getMessage());
        }
    }
}
