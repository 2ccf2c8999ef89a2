package io.mcdhooks.hooks.runner;

import java.time.Duration;
import java.util.Objects;

/**
 * The timing rules of every check.
 *
 * @param checkTimeout      longest one run of a check may take (capped by the request's deadline)
 * @param heartbeatInterval how often a PENDING heartbeat goes out while a gate is being checked
 * @param retryBackoff      first delay after a transient error; doubles each time
 * @param maxRetryBackoff   the cap of that doubling
 * @param soak              post-update gates only: how long the check must keep passing before its
 *                          PASS goes out; zero for none
 * @param soakInterval      how often the check runs again during a soak
 */
public record RunnerPolicy(
        Duration checkTimeout,
        Duration heartbeatInterval,
        Duration retryBackoff,
        Duration maxRetryBackoff,
        Duration soak,
        Duration soakInterval) {

    public RunnerPolicy {
        positive(checkTimeout, "checkTimeout");
        positive(heartbeatInterval, "heartbeatInterval");
        positive(retryBackoff, "retryBackoff");
        positive(maxRetryBackoff, "maxRetryBackoff");
        Objects.requireNonNull(soak, "soak");
        if (soak.isNegative()) {
            throw new IllegalArgumentException("soak must not be negative, was " + soak);
        }
        positive(soakInterval, "soakInterval");
        if (maxRetryBackoff.compareTo(retryBackoff) < 0) {
            throw new IllegalArgumentException("maxRetryBackoff must not be shorter than retryBackoff");
        }
    }

    private static void positive(Duration value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    /** The delay before retry number {@code failures} (1-based). */
    Duration backoff(int failures) {
        Duration delay = retryBackoff;
        for (int i = 1; i < failures && delay.compareTo(maxRetryBackoff) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return delay.compareTo(maxRetryBackoff) > 0 ? maxRetryBackoff : delay;
    }
}
