package io.mcdhooks.hooks.api;

import io.mcdhooks.schemas.Outcome;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A hook's answer for one check: PASS or FAIL, a machine-readable reason and a message for humans.
 * PENDING is the runner's business (heartbeats), never a hook's.
 *
 * @param reason     UpperCamelCase, low-cardinality (the schema's {@code ^[A-Z][A-Za-z0-9]{0,63}$})
 * @param retryAfter FAIL only: check this gate again after this long (until its deadline);
 *                   {@code null} means the FAIL stands
 */
public record CheckResult(Outcome outcome, String reason, String message, Duration retryAfter) {

    private static final Pattern REASON = Pattern.compile("^[A-Z][A-Za-z0-9]{0,63}$");

    public CheckResult {
        Objects.requireNonNull(outcome, "outcome");
        if (outcome == Outcome.PENDING) {
            throw new IllegalArgumentException("a hook decides PASS or FAIL; PENDING heartbeats come from the runner");
        }
        if (reason == null || !REASON.matcher(reason).matches()) {
            throw new IllegalArgumentException(
                    "reason '" + reason + "' is not UpperCamelCase (" + REASON.pattern() + ")");
        }
        if (retryAfter != null && (outcome != Outcome.FAIL || retryAfter.isNegative() || retryAfter.isZero())) {
            throw new IllegalArgumentException("retryAfter must be positive and only comes with FAIL");
        }
    }

    public static CheckResult pass(String reason, String message) {
        return new CheckResult(Outcome.PASS, reason, message, null);
    }

    /** A FAIL that stands for this attempt. */
    public static CheckResult fail(String reason, String message) {
        return new CheckResult(Outcome.FAIL, reason, message, null);
    }

    /** A FAIL the runner checks again after {@code retryAfter}, until the gate's deadline. */
    public static CheckResult failAndRecheck(String reason, String message, Duration retryAfter) {
        return new CheckResult(Outcome.FAIL, reason, message, Objects.requireNonNull(retryAfter, "retryAfter"));
    }

    /** This result without a re-check. */
    public CheckResult standing() {
        return retryAfter == null ? this : new CheckResult(outcome, reason, message, null);
    }
}
