package io.mcdhooks.schemas.settings;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which settings hold secrets, by their name: a {@code MCDHOOKS_*} variable or a Kafka client
 * setting ({@code sasl.jaas.config}). A name is secret when one of its words is a secret-like one
 * ({@code password}, {@code jaas}, {@code token}, …), or {@code key} anywhere but first
 * ({@code ssl.keystore.key}, not {@code key.serializer}). Names of files and ids stay visible
 * ({@code ssl.keystore.location}, {@code MCDHOOKS_SIGNING_KEY_FILE}, {@code MCDHOOKS_SIGNING_KEY_ID}):
 * the secret is in the file.
 */
public final class Secrets {

    /** What a log or a message shows instead of a secret value. */
    public static final String MASK = "******";

    private static final Set<String> SECRET_WORDS =
            Set.of("password", "passphrase", "secret", "jaas", "token", "credentials", "credential");
    private static final Set<String> VISIBLE_LAST_WORDS = Set.of("file", "location", "path", "id");

    private Secrets() {}

    public static boolean isSecret(String name) {
        List<String> words = List.of(name.toLowerCase(Locale.ROOT).split("[._-]"));
        if (words.isEmpty() || VISIBLE_LAST_WORDS.contains(words.get(words.size() - 1))) {
            return false;
        }
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            if (SECRET_WORDS.contains(word) || (i > 0 && word.equals("key"))) {
                return true;
            }
        }
        return false;
    }

    /** {@code value} as a log may show it under {@code name}. */
    public static String shown(String name, String value) {
        return isSecret(name) ? MASK : value;
    }
}
