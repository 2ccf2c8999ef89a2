package io.mcdhooks.hooks.runner;

import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * The rules for one open gate and attempt, free of I/O: how long a run may take, what a result,
 * an error or a timeout leads to, and the verdicts that go out. The runner feeds it events and
 * the current time; it answers with a {@link FollowUp}.
 *
 * <p>With a soak ({@link RunnerPolicy#soak()}), a post-update check's PASS goes out only once the
 * check has kept passing for that long: it runs again every {@link RunnerPolicy#soakInterval()}
 * meanwhile, and a FAIL or an error starts the soak over (a FAIL is published as any other).
 */
final class GateCheck {

    static final String HEARTBEAT_REASON = "CheckInProgress";
    static final String TIMED_OUT_REASON = "CheckTimedOut";
    static final String FAILED_REASON = "CheckFailed";
    static final String STOPPING_REASON = "RunnerStopping";
    static final String SOAKING_REASON = "Soaking";
    static final String SOAK_PAST_DEADLINE_REASON = "SoakPastDeadline";

    private final GateRequest request;
    private final String hook;
    private final RunnerPolicy policy;
    private int transientFailures;
    /** Since when the check has passed without a break, while a soak runs. */
    private Instant soakingSince;

    GateCheck(GateRequest request, String hook, RunnerPolicy policy) {
        this.request = request;
        this.hook = hook;
        this.policy = policy;
    }

    GateRequest request() {
        return request;
    }

    /** Whether the gatekeeper has stopped waiting for this gate. */
    boolean expired(Instant now) {
        return !now.isBefore(request.deadline());
    }

    /** When a run started at {@code startedAt} is cut off: its timeout, never after the deadline. */
    Instant cutoff(Instant startedAt) {
        Instant byTimeout = startedAt.plus(policy.checkTimeout());
        return byTimeout.isBefore(request.deadline()) ? byTimeout : request.deadline();
    }

    FollowUp onResult(CheckResult result, Instant now) {
        transientFailures = 0;
        if (soaks()) {
            if (result.outcome() == Outcome.PASS) {
                return soaked(result, now);
            }
            result = soakBroken(result, now);
        }
        if (result.retryAfter() == null) {
            return new FollowUp.Finish(result);
        }
        Instant at = now.plus(result.retryAfter());
        if (!at.isBefore(request.deadline())) {
            // No re-check can happen in time: the FAIL stands and must not promise one.
            return new FollowUp.Finish(result.standing());
        }
        return new FollowUp.Recheck(result, at);
    }

    FollowUp onError(String error, Instant now) {
        // A check that could not run proves nothing: the soak starts over.
        soakingSince = null;
        transientFailures++;
        Instant at = now.plus(policy.backoff(transientFailures));
        if (!at.isBefore(request.deadline())) {
            return new FollowUp.Finish(CheckResult.fail(
                    FAILED_REASON,
                    "the check failed " + transientFailures
                            + " time(s) and cannot be retried before the deadline; last error: " + error));
        }
        return new FollowUp.Retry(at, error);
    }

    FollowUp onTimeout(Instant startedAt, Instant now) {
        Instant cutoff = cutoff(startedAt);
        String limit = cutoff.equals(request.deadline())
                ? "the gate's deadline " + request.deadline()
                : "the check timeout of " + policy.checkTimeout().toSeconds() + "s";
        return new FollowUp.Finish(CheckResult.fail(
                TIMED_OUT_REASON,
                "the check was still running at " + limit + " and was cancelled after "
                        + Duration.between(startedAt, now).toSeconds() + "s"));
    }

    private boolean soaks() {
        return !policy.soak().isZero() && request.stage() == Stage.POST_UPDATE;
    }

    private FollowUp soaked(CheckResult pass, Instant now) {
        if (soakingSince == null) {
            soakingSince = now;
            Instant end = now.plus(policy.soak());
            if (end.isAfter(request.deadline())) {
                soakingSince = null;
                return new FollowUp.Finish(CheckResult.fail(
                        SOAK_PAST_DEADLINE_REASON,
                        "a soak of " + minutes(policy.soak()) + " from " + now + " would end after the gate's deadline "
                                + request.deadline() + ": the UpdateHook's timeoutSeconds must leave room for it"));
            }
        }
        Duration healthy = Duration.between(soakingSince, now);
        if (healthy.compareTo(policy.soak()) >= 0) {
            String healthyFor = "healthy for " + minutes(healthy);
            String message = pass.message() == null || pass.message().isBlank()
                    ? healthyFor
                    : pass.message() + " (" + healthyFor + ")";
            return new FollowUp.Finish(CheckResult.pass(pass.reason(), message));
        }
        Instant next = now.plus(policy.soakInterval());
        Instant end = soakingSince.plus(policy.soak());
        return new FollowUp.Soak(next.isBefore(end) ? next : end);
    }

    /** A FAIL during a soak says how far the soak had come; the next PASS starts it over. */
    private CheckResult soakBroken(CheckResult fail, Instant now) {
        if (soakingSince == null) {
            return fail;
        }
        String after =
                "after " + minutes(Duration.between(soakingSince, now)) + " of a " + minutes(policy.soak()) + " soak";
        soakingSince = null;
        String message = fail.message() == null || fail.message().isBlank() ? after : after + ": " + fail.message();
        return new CheckResult(fail.outcome(), fail.reason(), message, fail.retryAfter());
    }

    /** The reason of a PENDING heartbeat now. */
    String heartbeatReason() {
        return soakingSince == null ? HEARTBEAT_REASON : SOAKING_REASON;
    }

    /** The message of a PENDING heartbeat now: how long the check has run, or how far its soak is. */
    String progress(Instant firstStartedAt, Instant now) {
        if (soakingSince == null) {
            return "checking for " + Duration.between(firstStartedAt, now).toSeconds() + "s";
        }
        return "soaking: " + minutes(Duration.between(soakingSince, now)) + " of " + minutes(policy.soak());
    }

    /** Whole minutes, or seconds below two minutes. */
    private static String minutes(Duration duration) {
        return duration.compareTo(Duration.ofMinutes(2)) < 0
                ? duration.toSeconds() + " s"
                : duration.toMinutes() + " min";
    }

    Verdict verdict(CheckResult result, Instant now) {
        return Verdict.answering(
                request,
                hook,
                result.outcome(),
                result.reason(),
                result.message(),
                result.retryAfter() == null ? null : seconds(result.retryAfter()),
                now);
    }

    /** A PENDING heartbeat; it promises the next one within the heartbeat interval. */
    Verdict heartbeat(String reason, String message, Instant now) {
        return Verdict.answering(
                request, hook, Outcome.PENDING, reason, message, seconds(policy.heartbeatInterval()), now);
    }

    /**
     * The CloudEvents id of a PASS or FAIL: the same for the same gate, attempt, hook, outcome and
     * reason, so that a verdict republished after a crash or a re-check is recognised as a duplicate.
     */
    String finalVerdictId(CheckResult result) {
        String identity = String.join(
                "\n",
                request.gateId(),
                Integer.toString(request.attempt()),
                hook,
                result.outcome().name(),
                result.reason());
        return UUID.nameUUIDFromBytes(identity.getBytes(StandardCharsets.UTF_8)).toString();
    }

    private static int seconds(Duration duration) {
        long seconds = (duration.toMillis() + 999) / 1000;
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, seconds));
    }
}
