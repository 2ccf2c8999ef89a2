package io.mcdhooks.bridge.gate;

import static io.mcdhooks.bridge.gate.Gates.T0;
import static io.mcdhooks.bridge.gate.Gates.hook;
import static io.mcdhooks.bridge.gate.Gates.request;
import static io.mcdhooks.bridge.gate.Gates.verdict;
import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.schemas.GateDecision.Decision;
import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateDecision.HookState;
import io.mcdhooks.schemas.GateDecision.Mode;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GateMachineTest {

    private final GateRequest request = request(Stage.PRE_UPDATE, 1);

    @Test
    void releasesWhenEveryRequiredHookPasses() {
        GateMachine.Change opened =
                GateMachine.open(request, List.of(hook("a", Stage.PRE_UPDATE), hook("b", Stage.PRE_UPDATE)), T0);
        assertThat(opened.decision().decision()).isEqualTo(Decision.OPENED);
        assertThat(opened.decision().blockingHooks()).containsExactly("a", "b");

        GateMachine.Change one = GateMachine.onVerdict(
                opened.gate(), verdict(request, "a", Outcome.PASS, T0.plusSeconds(1)), T0.plusSeconds(1));
        GateMachine.Change both = GateMachine.onVerdict(
                one.gate(), verdict(request, "b", Outcome.PASS, T0.plusSeconds(2)), T0.plusSeconds(2));

        assertThat(one.decision().blockingHooks()).containsExactly("b");
        assertThat(both.decision().decision()).isEqualTo(Decision.RELEASED);
        assertThat(both.decision().released()).isTrue();
        assertThat(both.gate().released()).isTrue();
    }

    @Test
    void aGateWithNoHooksToWaitOnReleasesAtOnce() {
        GateMachine.Change opened = GateMachine.open(request, List.of(hook("other", Stage.POST_UPDATE)), T0);

        assertThat(opened.decision().decision()).isEqualTo(Decision.RELEASED);
        assertThat(opened.decision().summary()).isEqualTo("no hooks to wait on");
    }

    @Test
    void aFailBlocksAndALaterPassOfTheSameAttemptReleases() {
        Gate gate = GateMachine.open(request, List.of(hook("kmod", Stage.PRE_UPDATE)), T0)
                .gate();

        GateMachine.Change failed = GateMachine.onVerdict(
                gate, verdict(request, "kmod", Outcome.FAIL, T0.plusSeconds(1)), T0.plusSeconds(1));
        assertThat(failed.decision().decision()).isEqualTo(Decision.BLOCKED);
        assertThat(failed.decision().summary()).isEqualTo("blocked by kmod: FAIL NotYet");

        GateMachine.Change passed = GateMachine.onVerdict(
                failed.gate(), verdict(request, "kmod", Outcome.PASS, T0.plusSeconds(60)), T0.plusSeconds(60));
        assertThat(passed.decision().decision()).isEqualTo(Decision.RELEASED);
    }

    @Test
    void ignoresStaleDuplicateAndUnknownVerdictsAndSaysWhy() {
        Gate gate = GateMachine.open(request, List.of(hook("kmod", Stage.PRE_UPDATE)), T0)
                .gate();
        Verdict fail = verdict(request, "kmod", Outcome.FAIL, T0.plusSeconds(5));
        gate = GateMachine.onVerdict(gate, fail, T0.plusSeconds(5)).gate();

        Verdict oldAttempt = verdict(request(Stage.PRE_UPDATE, 0 + 1), "kmod", Outcome.PASS, T0.plusSeconds(6));
        Verdict olderAttempt = new Verdict(
                "c1",
                request.gateId(),
                2,
                "kmod",
                Stage.PRE_UPDATE,
                "worker",
                "worker-0",
                Gates.TARGET,
                Outcome.PASS,
                "Fine",
                null,
                null,
                T0.plusSeconds(6));
        Verdict otherTarget = new Verdict(
                "c1",
                request.gateId(),
                1,
                "kmod",
                Stage.PRE_UPDATE,
                "worker",
                "worker-0",
                "rendered-worker-9999",
                Outcome.PASS,
                "Fine",
                null,
                null,
                T0.plusSeconds(6));
        Verdict stranger = verdict(request, "stranger", Outcome.PASS, T0.plusSeconds(6));
        Verdict older = verdict(request, "kmod", Outcome.PASS, T0.plusSeconds(4));

        assertThat(GateMachine.onVerdict(gate, olderAttempt, T0.plusSeconds(6)).fate())
                .isEqualTo(VerdictFate.STALE);
        assertThat(GateMachine.onVerdict(gate, otherTarget, T0.plusSeconds(6)).fate())
                .isEqualTo(VerdictFate.STALE);
        assertThat(GateMachine.onVerdict(gate, stranger, T0.plusSeconds(6)).fate())
                .isEqualTo(VerdictFate.UNKNOWN_HOOK);
        assertThat(GateMachine.onVerdict(gate, fail, T0.plusSeconds(6)).fate()).isEqualTo(VerdictFate.DUPLICATE);
        assertThat(GateMachine.onVerdict(gate, older, T0.plusSeconds(6)).fate()).isEqualTo(VerdictFate.DUPLICATE);
        assertThat(GateMachine.onVerdict(gate, oldAttempt, T0.plusSeconds(6)).fate())
                .isEqualTo(VerdictFate.ACCEPTED);
        assertThat(GateMachine.evaluate(gate, T0.plusSeconds(6)).decision()).isEqualTo(Decision.BLOCKED);
    }

    @Test
    void aTimeoutHoldsTheGateUnderFailPolicy() {
        Gate gate = GateMachine.open(request, List.of(hook("slow", Stage.PRE_UPDATE)), T0)
                .gate();

        GateMachine.Change before = GateMachine.onTick(gate, T0.plus(Duration.ofMinutes(10)));
        GateMachine.Change after = GateMachine.onTick(
                before.gate(), T0.plus(Duration.ofMinutes(10)).plusMillis(1));

        assertThat(before.decision()).isNull();
        assertThat(after.decision().decision()).isEqualTo(Decision.TIMED_OUT);
        assertThat(after.decision().released()).isFalse();
        assertThat(after.decision().blockingHooks()).containsExactly("slow");
        assertThat(after.decision().hooks())
                .singleElement()
                .extracting(h -> h.state())
                .isEqualTo(HookState.TIMED_OUT);
    }

    @Test
    void aTimeoutLetsTheGatePassUnderIgnorePolicyAndSaysSo() {
        Gate gate = GateMachine.open(
                        request, List.of(hook("slow", Stage.PRE_UPDATE, FailurePolicy.Ignore, Mode.Enforcing)), T0)
                .gate();

        GateMachine.Change after = GateMachine.onTick(gate, T0.plus(Duration.ofMinutes(11)));

        assertThat(after.decision().decision()).isEqualTo(Decision.TIMED_OUT);
        assertThat(after.decision().released()).isTrue();
        assertThat(after.decision().summary()).contains("ignored: slow");
    }

    @Test
    void pendingHeartbeatsExtendTheDeadlineUpToTheHooksLimit() {
        Gate gate = GateMachine.open(request, List.of(hook("long", Stage.PRE_UPDATE)), T0)
                .gate();
        // timeout 10 m, max extension 20 m: never past T0 + 30 m
        for (int minute = 9; minute <= 45; minute += 9) {
            gate = GateMachine.onVerdict(
                            gate,
                            verdict(request, "long", Outcome.PENDING, T0.plus(Duration.ofMinutes(minute))),
                            T0.plus(Duration.ofMinutes(minute)))
                    .gate();
        }

        assertThat(gate.hooks().get("long").deadline()).isEqualTo(T0.plus(Duration.ofMinutes(30)));
        assertThat(GateMachine.evaluate(gate, T0.plus(Duration.ofMinutes(29))).decision())
                .isEqualTo(Decision.OPENED);
        assertThat(GateMachine.evaluate(gate, T0.plus(Duration.ofMinutes(31))).decision())
                .isEqualTo(Decision.TIMED_OUT);
    }

    @Test
    void advisoryHooksAreRecordedAndNeverBlock() {
        Gate gate = GateMachine.open(
                        request,
                        List.of(
                                hook("enf", Stage.PRE_UPDATE),
                                hook("adv", Stage.PRE_UPDATE, FailurePolicy.Fail, Mode.Advisory)),
                        T0)
                .gate();

        gate = GateMachine.onVerdict(gate, verdict(request, "adv", Outcome.FAIL, T0.plusSeconds(1)), T0.plusSeconds(1))
                .gate();
        GateMachine.Change step = GateMachine.onVerdict(
                gate, verdict(request, "enf", Outcome.PASS, T0.plusSeconds(2)), T0.plusSeconds(2));

        assertThat(step.decision().decision()).isEqualTo(Decision.RELEASED);
        assertThat(step.decision().hooks())
                .filteredOn(h -> h.hook().equals("adv"))
                .singleElement()
                .satisfies(h -> {
                    assertThat(h.state()).isEqualTo(HookState.FAIL);
                    assertThat(h.mode()).isEqualTo(Mode.Advisory);
                });
    }

    @Test
    void anOverrideDecidesAloneAndIsAudited() {
        Gate gate = GateMachine.open(request, List.of(hook("kmod", Stage.PRE_UPDATE)), T0)
                .gate();
        gate = GateMachine.onVerdict(gate, verdict(request, "kmod", Outcome.FAIL, T0.plusSeconds(1)), T0.plusSeconds(1))
                .gate();

        GateMachine.Change blocked = GateMachine.onOverride(
                gate, new Gate.Override(false, "bob", "hold for INC-1", T0.plusSeconds(2)), T0.plusSeconds(2));
        GateMachine.Change stillBlocked = GateMachine.onVerdict(
                blocked.gate(), verdict(request, "kmod", Outcome.PASS, T0.plusSeconds(3)), T0.plusSeconds(3));
        GateMachine.Change released = GateMachine.onOverride(
                stillBlocked.gate(),
                new Gate.Override(true, "alice", "checked by hand", T0.plusSeconds(4)),
                T0.plusSeconds(4));

        assertThat(blocked.decision().decision()).isEqualTo(Decision.OVERRIDDEN);
        assertThat(blocked.decision().released()).isFalse();
        assertThat(GateMachine.evaluate(stillBlocked.gate(), T0.plusSeconds(3)).released())
                .isFalse();
        assertThat(released.decision().released()).isTrue();
        assertThat(released.decision().override().by()).isEqualTo("alice");
        assertThat(released.decision().summary()).isEqualTo("released by operator alice: checked by hand");
    }

    @Test
    void hooksRegisteredAfterOpeningDoNotJoinAndSelectorsAreHonoured() {
        RegisteredHook otherPool = new RegisteredHook(
                "infra-only",
                Set.of(Stage.PRE_UPDATE),
                Set.of("infra"),
                Map.of(),
                Duration.ofMinutes(1),
                Duration.ZERO,
                null,
                null,
                null,
                false);
        RegisteredHook gpuNodes = new RegisteredHook(
                "gpu",
                Set.of(Stage.PRE_UPDATE),
                Set.of(),
                Map.of("gpu", "true"),
                Duration.ofMinutes(1),
                Duration.ZERO,
                null,
                null,
                null,
                false);
        RegisteredHook all = hook("all", Stage.PRE_UPDATE);

        Gate gate =
                GateMachine.open(request, List.of(otherPool, gpuNodes, all), T0).gate();

        assertThat(gate.hooks()).containsOnlyKeys("all");
    }

    @Test
    void aRestoredGateWithItsVerdictsReplayedDecidesAsBefore() {
        Gate gate = GateMachine.open(request, List.of(hook("a", Stage.PRE_UPDATE), hook("b", Stage.PRE_UPDATE)), T0)
                .gate();
        Verdict a = verdict(request, "a", Outcome.PASS, T0.plusSeconds(1));
        Verdict b = verdict(request, "b", Outcome.FAIL, T0.plusSeconds(2));
        gate = GateMachine.onVerdict(gate, a, T0.plusSeconds(1)).gate();
        gate = GateMachine.onVerdict(gate, b, T0.plusSeconds(2)).gate();

        Gate restored = GateMachine.restore(request, gate.last());
        GateMachine.Change replayed = GateMachine.replay(restored, List.of(a, b), T0.plusSeconds(3));

        assertThat(replayed.decision()).as("nothing new to publish").isNull();
        assertThat(GateMachine.evaluate(replayed.gate(), T0.plusSeconds(3)).decision())
                .isEqualTo(Decision.BLOCKED);
        assertThat(replayed.gate().hooks()).isEqualTo(gate.hooks());
    }
}
