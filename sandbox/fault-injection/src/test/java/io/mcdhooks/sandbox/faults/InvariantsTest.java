package io.mcdhooks.sandbox.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.bridge.gate.GateObjects;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.mcdhooks.sandbox.faults.History.HookPolicy;
import io.mcdhooks.sandbox.faults.History.KafkaEntry;
import io.mcdhooks.sandbox.faults.History.NodeState;
import io.mcdhooks.sandbox.faults.History.PoolState;
import io.mcdhooks.sandbox.faults.History.Produced;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.Decision;
import io.mcdhooks.schemas.GateDecision.HookState;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each invariant holds on a good history and catches the violation planted in a bad one. */
class InvariantsTest {

    private static final String CLUSTER = "c";
    private static final String OLD = "rendered-worker-old";
    private static final String NEW = "rendered-worker-new";
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final List<NodeState> nodes = new ArrayList<>();
    private final List<PoolState> pools = new ArrayList<>();
    private final List<KafkaEntry> kafka = new ArrayList<>();
    private final List<Produced> produced = new ArrayList<>();
    private final List<History.LeaseState> leases = new ArrayList<>();
    private final List<History.Write> writes = new ArrayList<>();
    private long rv;
    private long offset;

    @Test
    void aCompleteRolloutWhoseGatesAllPassedBreaksNothing() {
        goodRollout();
        assertThat(Invariants.all(history(1))).isEmpty();
    }

    @Test
    void catchesANodeReleasedBeforeItsPostUpdateHookPassed() {
        goodRollout();
        // the release is observed at second 40, the PASS lands at second 41
        kafka.removeIf(
                e -> e.message() instanceof Verdict v && v.stage() == Stage.POST_UPDATE && "n1".equals(v.node()));
        verdict(41, Stage.POST_UPDATE, "n1", "check", Outcome.PASS, 1);
        assertThat(Invariants.noEarlyRelease(history(1)))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("post-update n1", "check had no verdict"));
    }

    @Test
    void catchesADrainThatFinishedWhileTheHooksLastWordWasFail() {
        goodRollout();
        verdict(19, Stage.PRE_UPDATE, "n1", "check", Outcome.FAIL, 1);
        assertThat(Invariants.noEarlyRelease(history(1)))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("pre-update n1 drained", "had FAIL"));
    }

    @Test
    void doesNotCountAPassForAnAttemptThatWasNeverRequested() {
        goodRollout();
        kafka.removeIf(e -> e.message() instanceof Verdict v && v.stage() == Stage.PRE_UPDATE && "n1".equals(v.node()));
        verdict(15, Stage.PRE_UPDATE, "n1", "check", Outcome.PASS, 2);
        assertThat(Invariants.noEarlyRelease(history(1)))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("pre-update n1"));
    }

    @Test
    void acceptsAnIgnoredTimeoutAsAReleaseButOnlyForAHookWhosePolicyIgnores() {
        goodRollout();
        kafka.removeIf(e -> e.message() instanceof Verdict v && v.stage() == Stage.PRE_UPDATE && "n1".equals(v.node()));
        kafka.removeIf(
                e -> e.message() instanceof GateDecision d && d.stage() == Stage.PRE_UPDATE && "n1".equals(d.node()));
        decision(18, Stage.PRE_UPDATE, "n1", Decision.TIMED_OUT, true, HookState.TIMED_OUT);
        assertThat(Invariants.noEarlyRelease(history(1)))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("pre-update n1"));
        assertThat(Invariants.noEarlyRelease(history(1, true))).isEmpty();
    }

    @Test
    void catchesAProducedVerdictMissingFromTheTopic() {
        goodRollout();
        produced.add(new Produced("id-never-sent", "check", null, 1, "PASS"));
        assertThat(Invariants.noLostVerdict(history(1)))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("id-never-sent"));
    }

    @Test
    void catchesAGateReleasedByTimeoutAlthoughItsPassWasReadable() {
        goodRollout();
        kafka.removeIf(
                e -> e.message() instanceof GateDecision d && d.stage() == Stage.PRE_UPDATE && "n1".equals(d.node()));
        decision(18, Stage.PRE_UPDATE, "n1", Decision.TIMED_OUT, true, HookState.TIMED_OUT);
        assertThat(Invariants.noLostVerdict(history(1, true)))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("although its PASS was on the topic"));
    }

    @Test
    void catchesAGateWhoseVerdictsNeverLedToADecision() {
        goodRollout();
        kafka.removeIf(
                e -> e.message() instanceof GateDecision d && d.stage() == Stage.POST_UPDATE && "n1".equals(d.node()));
        assertThat(Invariants.noLostVerdict(history(1)))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("no decision at all"));
    }

    @Test
    void catchesANodeLeftCordonedAndAGatePodLeftBehind() {
        goodRollout();
        node(60, "n1", true, true, false, NEW, NEW, "Done", "uncordon-" + NEW);
        History h = new History(
                CLUSTER,
                "worker",
                1,
                NEW,
                Set.of("n1", "n2"),
                hooks(false),
                nodes,
                pools,
                kafka,
                produced,
                Set.of("mcdhooks-gate-n1"),
                List.of(),
                List.of());
        assertThat(Invariants.noneHeldAfterRelease(h)).hasSize(2);
    }

    @Test
    void catchesMoreNodesOutThanMaxUnavailable() {
        goodRollout();
        // n2 cordoned by someone while n1 is still updating
        node(12, "n2", true, true, false, OLD, OLD, "Done", null);
        nodes.sort((a, b) -> a.at().compareTo(b.at()));
        assertThat(Invariants.withinMaxUnavailable(history(1)))
                .isNotEmpty()
                .first()
                .satisfies(v -> assertThat(v.detail()).contains("2 unavailable (max 1)", "[n1, n2]"));
    }

    @Test
    void catchesARolloutThatDidNotFinish() {
        goodRollout();
        node(61, "n2", true, false, false, OLD, NEW, "Working", null);
        assertThat(Invariants.rolloutCompleted(history(1)))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("n2 ends"));
    }

    @Test
    void catchesAReplicaThatWroteAfterItsLeaseRanOut() {
        goodRollout();
        // a renewed at 0 on a 15 s lease, b took over at 16 and renews
        leases.add(new History.LeaseState("a", T0, 15));
        leases.add(new History.LeaseState("b", T0.plusSeconds(16), 15));
        writes.add(new History.Write(T0.plusSeconds(3), "a", "PATCH", "/api/v1/nodes/n1", null));
        writes.add(new History.Write(T0.plusSeconds(17), "b", "PATCH", "/api/v1/nodes/n1", null));
        assertThat(Invariants.oneGatekeeperActs(history(1))).isEmpty();

        // When a writes again while b leads
        writes.add(new History.Write(T0.plusSeconds(18), "a", "DELETE", "/api/v1/namespaces/m/pods/gate", null));
        assertThat(Invariants.oneGatekeeperActs(history(1)))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("a wrote DELETE", "without holding the lease"));
    }

    @Test
    void acceptsLeversReleasedOnlyOnceTheirReleasesWereOnKafka() {
        goodRollout();
        releaseWrites(0.5);
        // holds and writes that release nothing count for nothing, whenever they come
        writes.add(write(10.5, "PATCH", "/api/v1/nodes/n1", "{\"spec\":{\"unschedulable\":true}}"));
        writes.add(write(11.5, "PUT", "/api/v1/nodes/n1", node(true)));
        writes.add(write(11.6, "POST", "/api/v1/namespaces/mcdhooks/pods", "{}"));
        writes.add(write(0.5, "PATCH", POOL, "[{\"op\":\"replace\",\"path\":\"/spec/paused\",\"value\":true}]"));

        assertThat(Invariants.leverAfterDecision(history(1))).isEmpty();
    }

    @Test
    void catchesAGatePodRemovedBeforeTheTimeoutThatJustifiedItWasOnKafka() {
        // the gate pod of n1 was deleted at 16.8 s, the TIMED_OUT release that allowed it appended at 17 s
        goodRollout();
        kafka.removeIf(
                e -> e.message() instanceof GateDecision d && d.stage() == Stage.PRE_UPDATE && "n1".equals(d.node()));
        decision(17, Stage.PRE_UPDATE, "n1", Decision.TIMED_OUT, true, HookState.TIMED_OUT);
        writes.add(write(16.8, "DELETE", "/api/v1/namespaces/mcdhooks/pods/mcdhooks-gate-n1", "{}"));

        assertThat(Invariants.leverAfterDecision(history(1)))
                .singleElement()
                .satisfies(v -> assertThat(v.detail())
                        .contains(
                                "gate pod of n1 deleted",
                                "latest decision of c/pre-update/n1/" + NEW + " on Kafka was none",
                                "its release was appended at " + T0.plusSeconds(17))
                        .doesNotContain("n2"));
    }

    @Test
    void catchesANodeUntaintedAndAPoolUnpausedWhileTheirGatesStillHeld() {
        goodRollout();
        // n2's post-update gate opens at 55 s and is released at 69 s, its pre-update gate at 47 s,
        // the pool gate at 3 s
        decision(55, Stage.POST_UPDATE, "n2", Decision.OPENED, false, HookState.MISSING);
        writes.add(write(60, "PUT", "/api/v1/nodes/n2", node(false)));
        writes.add(write(2.5, "PATCH", POOL, "[{\"op\":\"replace\",\"path\":\"/spec/paused\",\"value\":false}]"));
        writes.add(write(
                2.6, "DELETE", "/apis/policy/v1/namespaces/mcdhooks/poddisruptionbudgets/mcdhooks-gate-n2", "{}"));

        assertThat(Invariants.leverAfterDecision(history(1)))
                .extracting(Invariants.Violation::detail)
                .satisfiesExactlyInAnyOrder(
                        d -> assertThat(d).contains("node n2 written untainted", "was OPENED"),
                        d -> assertThat(d).contains("pool worker unpaused", "was none"),
                        d -> assertThat(d).contains("gate budget of n2 deleted"));
    }

    /** Each release's write, {@code delay} seconds after its decision was appended. */
    private void releaseWrites(double delay) {
        for (KafkaEntry e : List.copyOf(kafka)) {
            if (!(e.message() instanceof GateDecision d) || !d.released()) {
                continue;
            }
            double at = e.appendedAt().getEpochSecond() - T0.getEpochSecond() + delay;
            switch (d.stage()) {
                case POOL_PRE_UPDATE ->
                    writes.add(write(
                            at, "PATCH", POOL, "[{\"op\":\"replace\",\"path\":\"/spec/paused\",\"value\":false}]"));
                case PRE_UPDATE ->
                    writes.add(write(
                            at, "DELETE", "/api/v1/namespaces/mcdhooks/pods/" + GateObjects.gateName(d.node()), "{}"));
                case POST_UPDATE -> writes.add(write(at, "PUT", "/api/v1/nodes/" + d.node(), node(false)));
            }
        }
    }

    private static final String POOL = "/apis/machineconfiguration.openshift.io/v1/machineconfigpools/worker";

    private static History.Write write(double second, String method, String path, String body) {
        return new History.Write(T0.plusMillis((long) (second * 1000)), "a", method, path, body);
    }

    /** A node's body as a PUT writes it, with or without the post-update taint. */
    private static String node(boolean tainted) {
        return "{\"kind\":\"Node\",\"spec\":{\"taints\":["
                + (tainted ? "{\"key\":\"" + LeverPlan.POST_UPDATE_TAINT + "\",\"effect\":\"NoSchedule\"}," : "")
                + "{\"key\":\"other\",\"effect\":\"NoSchedule\"}]}}";
    }

    /** Two workers, n1 then n2, each through pool, pre- and post-update gates of hook "check". */
    private void goodRollout() {
        node(0, "n1", true, false, false, OLD, OLD, "Done", null);
        node(0, "n2", true, false, false, OLD, OLD, "Done", null);
        pools.add(new PoolState(T0, ++rv, true, OLD, true));
        request(1, Stage.POOL_PRE_UPDATE, "worker");
        verdict(2, Stage.POOL_PRE_UPDATE, "worker", "check", Outcome.PASS, 1);
        decision(3, Stage.POOL_PRE_UPDATE, "worker", Decision.RELEASED, true, HookState.PASS);
        int t = 10;
        for (String n : List.of("n1", "n2")) {
            node(t, n, true, false, true, OLD, NEW, "Done", null);
            request(t + 1, Stage.PRE_UPDATE, n);
            request(t + 1, Stage.POST_UPDATE, n);
            verdict(t + 5, Stage.PRE_UPDATE, n, "check", Outcome.PASS, 1);
            decision(t + 6, Stage.PRE_UPDATE, n, Decision.RELEASED, true, HookState.PASS);
            node(t + 10, n, true, true, true, OLD, NEW, "Working", "drain-" + NEW);
            node(t + 20, n, false, true, true, OLD, NEW, "Working", "drain-" + NEW);
            node(t + 25, n, true, true, true, NEW, NEW, "Done", "uncordon-" + NEW);
            verdict(t + 27, Stage.POST_UPDATE, n, "check", Outcome.PASS, 1);
            decision(t + 28, Stage.POST_UPDATE, n, Decision.RELEASED, true, HookState.PASS);
            node(t + 30, n, true, false, false, NEW, NEW, "Done", "uncordon-" + NEW);
            t += 31;
        }
        pools.add(new PoolState(T0.plusSeconds(t), ++rv, true, NEW, true));
        kafka.stream()
                .filter(e -> e.message() instanceof Verdict)
                .forEach(e -> produced.add(new Produced(e.id(), "check", null, 0, "PASS")));
    }

    private History history(int maxUnavailable) {
        return history(maxUnavailable, false);
    }

    private History history(int maxUnavailable, boolean ignoreOnTimeout) {
        return new History(
                CLUSTER,
                "worker",
                maxUnavailable,
                NEW,
                Set.of("n1", "n2"),
                hooks(ignoreOnTimeout),
                nodes,
                pools,
                kafka,
                produced,
                Set.of(),
                leases,
                writes);
    }

    private static List<HookPolicy> hooks(boolean ignoreOnTimeout) {
        return List.of(new HookPolicy(
                "check", Set.of(Stage.POOL_PRE_UPDATE, Stage.PRE_UPDATE, Stage.POST_UPDATE), true, ignoreOnTimeout));
    }

    private void node(
            int second,
            String name,
            boolean ready,
            boolean cordoned,
            boolean tainted,
            String current,
            String desired,
            String state,
            String lastAppliedDrain) {
        nodes.add(new NodeState(
                T0.plusSeconds(second),
                ++rv,
                name,
                ready,
                cordoned,
                tainted,
                current,
                desired,
                state,
                lastAppliedDrain));
    }

    private void request(int second, Stage stage, String subject) {
        boolean perNode = stage.perNode();
        add(
                second,
                new GateRequest(
                        CLUSTER,
                        GateId.of(CLUSTER, stage, subject, NEW),
                        1,
                        stage,
                        new GateRequest.PoolFacts("worker", "1", 2),
                        perNode ? new GateRequest.NodeFacts(subject, "a", Map.of()) : null,
                        OLD,
                        NEW,
                        new GateRequest.TargetFacts(null, "realtime", List.of(), List.of(), null),
                        T0,
                        T0.plusSeconds(600)));
    }

    private void verdict(int second, Stage stage, String subject, String hook, Outcome outcome, int attempt) {
        add(
                second,
                new Verdict(
                        CLUSTER,
                        GateId.of(CLUSTER, stage, subject, NEW),
                        attempt,
                        hook,
                        stage,
                        "worker",
                        stage.perNode() ? subject : null,
                        NEW,
                        outcome,
                        "R",
                        "m",
                        null,
                        T0.plusSeconds(second)));
    }

    private void decision(
            int second, Stage stage, String subject, Decision decision, boolean released, HookState state) {
        add(
                second,
                new GateDecision(
                        CLUSTER,
                        GateId.of(CLUSTER, stage, subject, NEW),
                        1,
                        stage,
                        "worker",
                        stage.perNode() ? subject : null,
                        NEW,
                        decision,
                        released,
                        List.of(new GateDecision.HookStatus(
                                "check",
                                state,
                                GateDecision.Mode.Enforcing,
                                "R",
                                "m",
                                T0,
                                GateDecision.FailurePolicy.Fail,
                                600,
                                0,
                                null,
                                false,
                                false)),
                        released ? List.of() : List.of("check"),
                        "s",
                        null,
                        T0,
                        T0.plusSeconds(second)));
    }

    private void add(int second, Message message) {
        String topic =
                message instanceof GateRequest ? "requests" : message instanceof Verdict ? "verdicts" : "decisions";
        kafka.add(new KafkaEntry(T0.plusSeconds(second), topic, 0, ++offset, "id-" + offset, message));
    }
}
