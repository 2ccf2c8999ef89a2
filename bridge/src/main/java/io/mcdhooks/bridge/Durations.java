package io.mcdhooks.bridge;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** Durations as people write them in configuration: {@code 30s}, {@code 5m}, {@code 48h}, {@code 250ms}, or ISO-8601. */
public final class Durations {

    private Durations() {}

    public static Duration parse(String name, String text) {
        String value = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (value.startsWith("p")) {
                return Duration.parse(value.toUpperCase(Locale.ROOT));
            }
            if (value.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
            }
            long amount = Long.parseLong(value.substring(0, value.length() - 1));
            return switch (value.charAt(value.length() - 1)) {
                case 's' -> Duration.ofSeconds(amount);
                case 'm' -> Duration.ofMinutes(amount);
                case 'h' -> Duration.ofHours(amount);
                case 'd' -> Duration.ofDays(amount);
                default -> throw new NumberFormatException();
            };
        } catch (NumberFormatException | DateTimeParseException | StringIndexOutOfBoundsException e) {
            throw new IllegalArgumentException(
                    name + "='" + text + "' is not a duration such as 30s, 5m, 48h or PT30M", e);
        }
    }
}
