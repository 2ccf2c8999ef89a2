package io.mcdhooks.bridge.lag;

import java.time.Duration;
import java.time.Instant;

/**
 * A hook's lag state, e.g. {@code STALLED, lag 12 for 4 m}.
 *
 * @param since when the hook entered this state, as far as the window tells
 */
public record LagStatus(String hook, LagState state, long lag, Instant since, String detail) {

    /** For block reasons and the CLI: {@code "STALLED, lag 12 for 4 m"}. */
    public String describe(Instant now) {
        String text = state + ", lag " + lag;
        if (state != LagState.OK && since != null) {
            text += " for " + human(Duration.between(since, now));
        }
        return detail == null ? text : text + " (" + detail + ")";
    }

    static String human(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 120) {
            return s + " s";
        }
        if (s < 2 * 3600) {
            return s / 60 + " m";
        }
        return s / 3600 + " h";
    }
}
