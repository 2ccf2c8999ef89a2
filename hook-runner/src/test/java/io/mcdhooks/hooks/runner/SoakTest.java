package io.mcdhooks.hooks.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.testing.Requests;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A post-update check that must keep passing for a while, on a clock the test moves. */
class SoakTest {

    private static final RunnerPolicy FIVE_MINUTES = new RunnerPolicy(
            Duration.ofMinutes(2),
            Duration.ofSeconds(30),
            Duration.ofSeconds(5),
            Duration.ofSeconds(40),
            Duration.ofMinutes(5),
            Duration.ofMinutes(1));
    private static final CheckResult HEALTHY = CheckResult.pass("Healthy", "all probes answer");

    private final GateRequest request = Requests.postUpdate("worker-0", Duration.ofMinutes(30));
    private final Instant t0 = request.deadline().minus(Duration.ofMinutes(30));
    private final GateCheck check = new GateCheck(request, "node-check", FIVE_MINUTES);

    @Test
    void aPassGoesOutOnlyOnceTheCheckHasKeptPassingForTheSoak() {
        // When the check passes at once, and again every minute
        FollowUp first = check.onResult(HEALTHY, t0);

        // Then no verdict goes out: it is checked again a minute later, and the heartbeats say how far it is
        assertThat(first).isEqualTo(new FollowUp.Soak(t0.plus(Duration.ofMinutes(1))));
        for (int minute = 1; minute < 5; minute++) {
            Instant now = t0.plus(Duration.ofMinutes(minute));
            assertThat(check.onResult(HEALTHY, now)).isEqualTo(new FollowUp.Soak(now.plus(Duration.ofMinutes(1))));
        }
        assertThat(check.heartbeatReason()).isEqualTo(GateCheck.SOAKING_REASON);
        assertThat(check.progress(t0, t0.plus(Duration.ofMinutes(3)))).isEqualTo("soaking: 3 min of 5 min");

        // And the pass after five minutes of them is the verdict
        assertThat(check.onResult(HEALTHY, t0.plus(Duration.ofMinutes(5))))
                .isEqualTo(new FollowUp.Finish(CheckResult.pass("Healthy", "all probes answer (healthy for 5 min)")));
    }

    @Test
    void aFailAfterTwoOfFiveMinutesHoldsTheNodeAndSaysSo() {
        check.onResult(HEALTHY, t0);
        check.onResult(HEALTHY, t0.plus(Duration.ofMinutes(1)));

        // When the self-check fails two minutes into the soak
        FollowUp failed = check.onResult(
                CheckResult.fail("ProbeFailed", "kubelet does not answer"), t0.plus(Duration.ofMinutes(2)));

        // Then that FAIL is the verdict, which holds the node as any post-update failure does
        assertThat(failed)
                .isEqualTo(new FollowUp.Finish(
                        CheckResult.fail("ProbeFailed", "after 2 min of a 5 min soak: kubelet does not answer")));
        assertThat(check.heartbeatReason()).isEqualTo(GateCheck.HEARTBEAT_REASON);
    }

    @Test
    void aFailThatIsCheckedAgainStartsTheSoakOver() {
        check.onResult(HEALTHY, t0);
        CheckResult notYet = CheckResult.failAndRecheck("ProbeFailed", "flapping", Duration.ofMinutes(1));

        // When the check fails after 3 minutes, asks to be checked again, then passes
        Instant failedAt = t0.plus(Duration.ofMinutes(3));
        assertThat(check.onResult(notYet, failedAt)).isInstanceOf(FollowUp.Recheck.class);
        Instant passedAt = failedAt.plus(Duration.ofMinutes(1));
        check.onResult(HEALTHY, passedAt);

        // Then five more minutes of passing are needed, counted from that pass
        assertThat(check.onResult(HEALTHY, passedAt.plus(Duration.ofMinutes(4))))
                .isEqualTo(new FollowUp.Soak(passedAt.plus(Duration.ofMinutes(5))));
        assertThat(check.onResult(HEALTHY, passedAt.plus(Duration.ofMinutes(5))))
                .isInstanceOf(FollowUp.Finish.class);
    }

    @Test
    void anErrorStartsTheSoakOver() {
        check.onResult(HEALTHY, t0);
        check.onError("connection refused", t0.plus(Duration.ofMinutes(4)));

        Instant again = t0.plus(Duration.ofMinutes(4).plusSeconds(5));
        assertThat(check.onResult(HEALTHY, again)).isEqualTo(new FollowUp.Soak(again.plus(Duration.ofMinutes(1))));
    }

    @Test
    void aSoakThatCannotEndBeforeTheDeadlineFailsAndNamesTheSetting() {
        GateCheck late =
                new GateCheck(Requests.postUpdate("worker-0", Duration.ofMinutes(4)), "node-check", FIVE_MINUTES);

        FollowUp followUp = late.onResult(HEALTHY, Instant.now());

        assertThat(followUp).isInstanceOfSatisfying(FollowUp.Finish.class, f -> {
            assertThat(f.result().outcome()).isEqualTo(Outcome.FAIL);
            assertThat(f.result().reason()).isEqualTo(GateCheck.SOAK_PAST_DEADLINE_REASON);
            assertThat(f.result().message()).contains("timeoutSeconds");
        });
    }

    @Test
    void gatesBeforeTheUpdateAreNotSoaked() {
        GateCheck pre =
                new GateCheck(Requests.preUpdate("worker-0", Duration.ofMinutes(30)), "node-check", FIVE_MINUTES);

        assertThat(pre.onResult(HEALTHY, t0)).isEqualTo(new FollowUp.Finish(HEALTHY));
    }
}
