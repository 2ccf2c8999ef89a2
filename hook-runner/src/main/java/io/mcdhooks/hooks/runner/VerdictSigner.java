package io.mcdhooks.hooks.runner;

import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.settings.ConfigException;
import io.mcdhooks.schemas.sign.VerdictSignatures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;

/**
 * Signs a runner's verdicts with its Ed25519 key, so that only this hook can speak for itself.
 * Configured by {@code MCDHOOKS_SIGNING_KEY_FILE} (PKCS#8 PEM) and {@code MCDHOOKS_SIGNING_KEY_ID}
 * (the key id the gatekeeper knows the public key by; default: the file's name).
 */
public record VerdictSigner(PrivateKey key, String keyId) {

    public String sign(Verdict verdict) {
        return VerdictSignatures.sign(verdict, key, keyId);
    }

    /** The signer {@code config} names, or {@code null} when it names no key. */
    public static VerdictSigner of(HookRunnerConfig config) {
        Path file = config.signingKeyFile();
        if (file == null) {
            return null;
        }
        String variable = HookRunnerConfig.SIGNING_KEY_FILE.name();
        try {
            return new VerdictSigner(
                    VerdictSignatures.privateKey(Files.readString(file, StandardCharsets.US_ASCII)),
                    config.signingKeyId());
        } catch (IOException e) {
            throw new ConfigException(variable + "='" + file + "' cannot be read ("
                    + e.getClass().getSimpleName() + "): expected a readable PKCS#8 PEM Ed25519 private key");
        } catch (IllegalArgumentException e) {
            throw new ConfigException(variable + "='" + file + "' is invalid (" + e.getMessage()
                    + "): expected a PKCS#8 PEM Ed25519 private key");
        }
    }
}
