package io.mcdhooks.bridge.gate;

import static io.mcdhooks.bridge.gate.Gates.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateDecision.Mode;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The gate machine's decisions do not depend on noise: duplicates, stale verdicts, verdicts from
 * hooks the gate does not wait on, and restarts anywhere; nor, when each hook answers once, on
 * the order of the answers. And no gate is ever released unless every enforcing hook passed.
 */
class GateMachineProperties {

    private static final GateRequest REQUEST = Gates.request(Stage.POST_UPDATE, 3);

    /** A hook's verdict in a sequence: which hook, and what it says. */
    record Say(int hook, Outcome outcome) {}

    @Property(tries = 500)
    void noiseAndRestartsChangeNoDecision(
            @ForAll("hookModes") List<Mode> modes,
            @ForAll @Size(max = 12) List<@net.jqwik.api.From("says") Say> says,
            @ForAll long seed) {
        List<RegisteredHook> hooks = hooks(modes);
        List<Verdict> meaningful = verdicts(says, modes.size());

        List<String> clean = run(hooks, meaningful, new Random(seed), false);
        List<String> noisy = run(hooks, meaningful, new Random(seed), true);

        assertThat(noisy).isEqualTo(clean);
    }

    @Property(tries = 300)
    void whenEachHookAnswersOnceTheOrderDoesNotMatter(
            @ForAll("hookModes") List<Mode> modes, @ForAll("finalOutcomes") List<Outcome> outcomes, @ForAll long seed) {
        List<RegisteredHook> hooks = hooks(modes);
        List<Verdict> answers = new ArrayList<>();
        for (int i = 0; i < modes.size(); i++) {
            answers.add(Gates.verdict(REQUEST, "h" + i, outcomes.get(i % outcomes.size()), T0.plusSeconds(i + 1)));
        }
        List<Verdict> shuffled = new ArrayList<>(answers);
        Collections.shuffle(shuffled, new Random(seed));

        GateDecision inOrder = finalDecision(hooks, answers);
        GateDecision anyOrder = finalDecision(hooks, shuffled);

        assertThat(anyOrder.decision()).isEqualTo(inOrder.decision());
        assertThat(anyOrder.released()).isEqualTo(inOrder.released());
        boolean allEnforcingPassed = true;
        for (int i = 0; i < modes.size(); i++) {
            if (modes.get(i) == Mode.Enforcing && outcomes.get(i % outcomes.size()) != Outcome.PASS) {
                allEnforcingPassed = false;
            }
        }
        assertThat(anyOrder.released()).isEqualTo(allEnforcingPassed);
    }

    @Property(tries = 500)
    void neverReleasedUnlessEveryEnforcingHooksLatestVerdictIsPass(
            @ForAll("hookModes") List<Mode> modes,
            @ForAll @Size(max = 15) List<@net.jqwik.api.From("says") Say> says,
            @ForAll @IntRange(min = 0, max = 5) int minutesPerStep) {
        List<RegisteredHook> hooks = hooks(modes);
        Gate gate = GateMachine.open(REQUEST, hooks, T0).gate();
        Instant now = T0;
        for (Verdict v : verdicts(says, modes.size())) {
            now = now.plus(Duration.ofMinutes(minutesPerStep));
            Verdict at = withTime(v, now);
            boolean wasReleased = gate.released();
            gate = GateMachine.onVerdict(gate, at, now).gate();
            gate = GateMachine.onTick(gate, now).gate();
            if (gate.released() && !wasReleased) {
                for (Gate.Slot slot : gate.hooks().values()) {
                    if (slot.enforcing()) {
                        assertThat(slot.latest()).as(slot.hook()).isNotNull();
                        assertThat(slot.latest().outcome()).as(slot.hook()).isEqualTo(Outcome.PASS);
                    }
                }
            }
        }
    }

    @Provide
    Arbitrary<List<Mode>> hookModes() {
        return Arbitraries.of(Mode.Enforcing, Mode.Enforcing, Mode.Advisory)
                .list()
                .ofMinSize(1)
                .ofMaxSize(4);
    }

    @Provide
    Arbitrary<Say> says() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 5),
                        Arbitraries.of(Outcome.PASS, Outcome.FAIL, Outcome.PENDING))
                .as(Say::new);
    }

    @Provide
    Arbitrary<List<Outcome>> finalOutcomes() {
        return Arbitraries.of(Outcome.PASS, Outcome.PASS, Outcome.FAIL)
                .list()
                .ofMinSize(1)
                .ofMaxSize(4);
    }

    /** Runs the verdicts; with noise, adds duplicates, stale and foreign verdicts and restarts between them. */
    private static List<String> run(List<RegisteredHook> hooks, List<Verdict> verdicts, Random random, boolean noise) {
        List<String> decisions = new ArrayList<>();
        GateMachine.Change opened = GateMachine.open(REQUEST, hooks, T0);
        Gate gate = opened.gate();
        List<Verdict> seen = new ArrayList<>();
        Instant now = T0;
        for (Verdict verdict : verdicts) {
            now = verdict.producedAt();
            if (noise) {
                gate = addNoise(gate, seen, random, now);
            }
            gate = GateMachine.onVerdict(gate, verdict, now).gate();
            seen.add(verdict);
            GateDecision d = GateMachine.evaluate(gate, now);
            decisions.add(d.decision() + "/" + d.released() + "/" + d.blockingHooks());
        }
        return decisions;
    }

    private static Gate addNoise(Gate gate, List<Verdict> seen, Random random, Instant now) {
        int count = random.nextInt(3);
        for (int i = 0; i < count; i++) {
            switch (random.nextInt(5)) {
                case 0 -> {
                    if (!seen.isEmpty()) {
                        gate = GateMachine.onVerdict(gate, seen.get(random.nextInt(seen.size())), now)
                                .gate();
                    }
                }
                case 1 ->
                    gate = GateMachine.onVerdict(
                                    gate,
                                    new Verdict(
                                            "c1",
                                            REQUEST.gateId(),
                                            REQUEST.attempt() - 1,
                                            "h0",
                                            REQUEST.stage(),
                                            "worker",
                                            "worker-0",
                                            REQUEST.targetConfig(),
                                            Outcome.PASS,
                                            "Old",
                                            null,
                                            null,
                                            now),
                                    now)
                            .gate();
                case 2 ->
                    gate = GateMachine.onVerdict(
                                    gate,
                                    new Verdict(
                                            "c1",
                                            REQUEST.gateId(),
                                            REQUEST.attempt(),
                                            "h0",
                                            REQUEST.stage(),
                                            "worker",
                                            "worker-0",
                                            "rendered-worker-0000",
                                            Outcome.PASS,
                                            "Other",
                                            null,
                                            null,
                                            now),
                                    now)
                            .gate();
                case 3 ->
                    gate = GateMachine.onVerdict(gate, Gates.verdict(REQUEST, "stranger", Outcome.PASS, now), now)
                            .gate();
                default ->
                    gate = GateMachine.replay(GateMachine.restore(REQUEST, gate.last()), seen, now)
                            .gate();
            }
        }
        return gate;
    }

    private static GateDecision finalDecision(List<RegisteredHook> hooks, List<Verdict> answers) {
        Gate gate = GateMachine.open(REQUEST, hooks, T0).gate();
        Instant now = T0.plusSeconds(10);
        for (Verdict v : answers) {
            gate = GateMachine.onVerdict(gate, v, now).gate();
        }
        return GateMachine.evaluate(gate, now);
    }

    private static List<RegisteredHook> hooks(List<Mode> modes) {
        List<RegisteredHook> hooks = new ArrayList<>();
        for (int i = 0; i < modes.size(); i++) {
            hooks.add(new RegisteredHook(
                    "h" + i,
                    Set.of(Stage.POST_UPDATE),
                    Set.of(),
                    Map.of(),
                    Duration.ofHours(1),
                    Duration.ofHours(1),
                    FailurePolicy.Fail,
                    modes.get(i),
                    RegisteredHook.PostUpdateFailure.Hold,
                    false));
        }
        return hooks;
    }

    /** The says as verdicts one second apart, each from an existing hook. */
    private static List<Verdict> verdicts(List<Say> says, int hookCount) {
        List<Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < says.size(); i++) {
            Say say = says.get(i);
            verdicts.add(Gates.verdict(REQUEST, "h" + (say.hook() % hookCount), say.outcome(), T0.plusSeconds(i + 1)));
        }
        return verdicts;
    }

    private static Verdict withTime(Verdict v, Instant at) {
        return new Verdict(
                v.cluster(),
                v.gateId(),
                v.attempt(),
                v.hook(),
                v.stage(),
                v.pool(),
                v.node(),
                v.targetConfig(),
                v.outcome(),
                v.reason(),
                v.message(),
                v.retryAfterSeconds(),
                at);
    }
}
