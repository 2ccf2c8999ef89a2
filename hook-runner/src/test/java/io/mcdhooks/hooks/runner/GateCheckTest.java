package io.mcdhooks.hooks.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.testing.Requests;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Verdict;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class GateCheckTest {

    private static final RunnerPolicy POLICY = new RunnerPolicy(
            Duration.ofMinutes(2),
            Duration.ofSeconds(30),
            Duration.ofSeconds(5),
            Duration.ofSeconds(40),
            Duration.ZERO,
            Duration.ofSeconds(30));

    private final GateRequest request = Requests.preUpdate("node-1", Duration.ofMinutes(10));
    private final Instant deadline = request.deadline();
    private final GateCheck check = new GateCheck(request, "kmod", POLICY);

    @Test
    void aRunIsCutOffAtItsTimeoutOrAtTheDeadlineWhicheverComesFirst() {
        // Given runs that start early and late in the gate's life
        Instant early = deadline.minus(Duration.ofMinutes(9));
        Instant late = deadline.minus(Duration.ofSeconds(30));

        // Then the early one gets the full timeout and the late one only what is left
        assertThat(check.cutoff(early)).isEqualTo(early.plus(Duration.ofMinutes(2)));
        assertThat(check.cutoff(late)).isEqualTo(deadline);
    }

    @Test
    void aPassFinishesTheGate() {
        FollowUp followUp = check.onResult(CheckResult.pass("Ready", "ok"), deadline.minusSeconds(60));

        assertThat(followUp).isEqualTo(new FollowUp.Finish(CheckResult.pass("Ready", "ok")));
    }

    @Test
    void aFailWithRetryAfterIsRecheckedWhileTheDeadlineAllows() {
        // Given a FAIL that asks to be checked again in a minute, five minutes before the deadline
        Instant now = deadline.minus(Duration.ofMinutes(5));
        CheckResult fail = CheckResult.failAndRecheck("ModulesNotBuilt", "not yet", Duration.ofMinutes(1));

        // When the runner hears it
        FollowUp followUp = check.onResult(fail, now);

        // Then the FAIL is published and the gate checked again a minute later
        assertThat(followUp).isEqualTo(new FollowUp.Recheck(fail, now.plus(Duration.ofMinutes(1))));
    }

    @Test
    void aFailWhoseRecheckWouldComeAfterTheDeadlineStandsWithoutPromisingOne() {
        Instant now = deadline.minusSeconds(30);
        CheckResult fail = CheckResult.failAndRecheck("ModulesNotBuilt", "not yet", Duration.ofMinutes(1));

        FollowUp followUp = check.onResult(fail, now);

        assertThat(followUp).isEqualTo(new FollowUp.Finish(CheckResult.fail("ModulesNotBuilt", "not yet")));
        assertThat(check.verdict(((FollowUp.Finish) followUp).result(), now).retryAfterSeconds())
                .isNull();
    }

    @Test
    void transientErrorsAreRetriedWithDoublingBackOffUpToItsCap() {
        Instant now = deadline.minus(Duration.ofMinutes(9));

        // When the check keeps failing
        FollowUp first = check.onError("boom", now);
        FollowUp second = check.onError("boom", now);
        FollowUp third = check.onError("boom", now);
        FollowUp fourth = check.onError("boom", now);
        FollowUp fifth = check.onError("boom", now);

        // Then it is retried after 5, 10, 20, 40 and again 40 seconds
        assertThat(first).isEqualTo(new FollowUp.Retry(now.plusSeconds(5), "boom"));
        assertThat(second).isEqualTo(new FollowUp.Retry(now.plusSeconds(10), "boom"));
        assertThat(third).isEqualTo(new FollowUp.Retry(now.plusSeconds(20), "boom"));
        assertThat(fourth).isEqualTo(new FollowUp.Retry(now.plusSeconds(40), "boom"));
        assertThat(fifth).isEqualTo(new FollowUp.Retry(now.plusSeconds(40), "boom"));
    }

    @Test
    void aResultResetsTheBackOff() {
        Instant now = deadline.minus(Duration.ofMinutes(9));
        check.onError("boom", now);
        check.onError("boom", now);

        check.onResult(CheckResult.failAndRecheck("NotYet", "later", Duration.ofSeconds(30)), now);

        assertThat(check.onError("boom", now)).isEqualTo(new FollowUp.Retry(now.plusSeconds(5), "boom"));
    }

    @Test
    void anErrorThatCannotBeRetriedBeforeTheDeadlineFailsTheGate() {
        FollowUp followUp = check.onError("connection refused", deadline.minusSeconds(2));

        assertThat(followUp).isInstanceOfSatisfying(FollowUp.Finish.class, finish -> {
            assertThat(finish.result().outcome()).isEqualTo(Outcome.FAIL);
            assertThat(finish.result().reason()).isEqualTo("CheckFailed");
            assertThat(finish.result().message()).contains("connection refused");
            assertThat(finish.result().retryAfter()).isNull();
        });
    }

    @Test
    void aTimeoutFailsTheGateNamingTheLimitThatCutItOff() {
        Instant started = deadline.minus(Duration.ofMinutes(9));

        FollowUp byTimeout = check.onTimeout(started, started.plus(Duration.ofMinutes(2)));
        FollowUp byDeadline = check.onTimeout(deadline.minusSeconds(10), deadline);

        assertThat(byTimeout).isInstanceOfSatisfying(FollowUp.Finish.class, f -> {
            assertThat(f.result().reason()).isEqualTo("CheckTimedOut");
            assertThat(f.result().message()).contains("check timeout of 120s");
        });
        assertThat(byDeadline)
                .isInstanceOfSatisfying(
                        FollowUp.Finish.class,
                        f -> assertThat(f.result().message()).contains("deadline"));
    }

    @Test
    void finalVerdictIdsAreTheSameForTheSameAnswerAndDifferForAnother() {
        GateCheck sameGateAfterRestart = new GateCheck(request, "kmod", POLICY);
        CheckResult notYet = CheckResult.failAndRecheck("ModulesNotBuilt", "missing nvidia", Duration.ofMinutes(1));
        CheckResult notYetOtherText =
                CheckResult.failAndRecheck("ModulesNotBuilt", "missing ice", Duration.ofMinutes(1));
        CheckResult pass = CheckResult.pass("ModulesReady", "all built");

        assertThat(check.finalVerdictId(notYet)).isEqualTo(sameGateAfterRestart.finalVerdictId(notYetOtherText));
        assertThat(check.finalVerdictId(notYet)).isNotEqualTo(check.finalVerdictId(pass));
        assertThat(new GateCheck(request, "other-hook", POLICY).finalVerdictId(pass))
                .isNotEqualTo(check.finalVerdictId(pass));
    }

    @Test
    void verdictsEchoTheRequestAndHeartbeatsPromiseTheNextOne() {
        Instant now = deadline.minus(Duration.ofMinutes(9));

        Verdict fail = check.verdict(CheckResult.failAndRecheck("NotYet", "later", Duration.ofMillis(1500)), now);
        Verdict heartbeat = check.heartbeat("CheckInProgress", "checking", now);

        assertThat(fail.gateId()).isEqualTo(request.gateId());
        assertThat(fail.node()).isEqualTo("node-1");
        assertThat(fail.hook()).isEqualTo("kmod");
        assertThat(fail.retryAfterSeconds()).isEqualTo(2);
        assertThat(heartbeat.outcome()).isEqualTo(Outcome.PENDING);
        assertThat(heartbeat.retryAfterSeconds()).isEqualTo(30);
    }
}
