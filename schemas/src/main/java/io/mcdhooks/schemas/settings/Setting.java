package io.mcdhooks.schemas.settings;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One variable a process reads: its name, its grammar, its default (written as a person would
 * write the value, so a default goes through the same grammar and the log shows it the same way),
 * the names it had before, and whether its value is secret.
 *
 * @param fallback    the default, or {@code null}: the setting is unset unless given
 * @param formerNames older names still read, with a warning that names this one
 * @param secret      whether its value is never shown (by its name, as {@link Secrets} decides)
 */
public record Setting<T>(String name, Grammar<T> grammar, String fallback, List<String> formerNames, boolean secret) {

    private static final Pattern NAME = Pattern.compile("[A-Z][A-Z0-9]*(_[A-Z0-9]+)+");

    public Setting {
        Objects.requireNonNull(grammar, "grammar");
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("'" + name + "' is not a variable name like MCDHOOKS_GATE_TIMEOUT");
        }
        formerNames = List.copyOf(formerNames);
        if (fallback != null) {
            // A default the grammar refuses is a bug of the code, found by the first test that reads it.
            grammar.parse(fallback);
        }
    }

    /** A setting without a default. */
    public static <T> Setting<T> of(String name, Grammar<T> grammar) {
        return new Setting<>(name, grammar, null, List.of(), Secrets.isSecret(name));
    }

    /** This setting with the default {@code fallback}, in the setting's grammar. */
    public Setting<T> orElse(String fallback) {
        return new Setting<>(name, grammar, Objects.requireNonNull(fallback, "fallback"), formerNames, secret);
    }

    /** This setting, also read under {@code names} (deprecated). */
    public Setting<T> formerly(String... names) {
        return new Setting<>(name, grammar, fallback, List.of(names), secret);
    }

    /** {@code value} as a log or a message may show it. */
    String shown(String value) {
        return secret ? Secrets.MASK : "'" + value + "'";
    }

    @Override
    public String toString() {
        return name;
    }
}
