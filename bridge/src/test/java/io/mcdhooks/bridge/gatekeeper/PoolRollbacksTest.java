package io.mcdhooks.bridge.gatekeeper;

import static io.mcdhooks.bridge.rollback.MachineConfigObjects.mc;
import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.bridge.MovingClock;
import io.mcdhooks.bridge.gate.Gate;
import io.mcdhooks.bridge.gate.OverrideRequest;
import io.mcdhooks.bridge.gate.RegisteredHook;
import io.mcdhooks.bridge.rollback.ConfigSnapshot;
import io.mcdhooks.bridge.rollback.SourceConfig;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.RollbackState;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A failed gate's rollback: write-ahead, once per pool and failing config, carried on after a restart. */
class PoolRollbacksTest {

    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");
    private static final String BEFORE = "rendered-worker-1";
    private static final String FAILING = "rendered-worker-2";
    private static final Map<String, String> WORKER = Map.of("machineconfiguration.openshift.io/role", "worker");

    private final MovingClock clock = new MovingClock(T0);
    private final List<GateDecision> published = new ArrayList<>();
    private final List<Promise<Void>> acks = new ArrayList<>();
    private final List<List<GateDecision.RollbackStep>> written = new ArrayList<>();
    private final List<GateDecision> announced = new ArrayList<>();
    private final Map<String, Gate> gates = new HashMap<>();
    private Future<Void> writeResult = Future.succeededFuture();
    private boolean ackAtOnce = true;
    private RegisteredHook.PostUpdateFailure action = RegisteredHook.PostUpdateFailure.RollbackPool;

    @Test
    void nothingIsWrittenBeforeThePlanIsOnKafkaAndItIsAppliedOnce() {
        ackAtOnce = false;
        PoolRollbacks rollbacks = following(true);

        rollbacks.decided(failed("worker-0"));
        assertThat(published)
                .singleElement()
                .satisfies(d -> assertThat(d.rollback().state()).isEqualTo(RollbackState.PLANNED));
        assertThat(written).as("before Kafka has the plan").isEmpty();

        acks.get(0).complete();
        assertThat(written)
                .singleElement()
                .satisfies(steps -> assertThat(steps)
                        .extracting(GateDecision.RollbackStep::machineConfig)
                        .containsExactly("99-worker-kargs"));
        assertThat(published)
                .extracting(d -> d.rollback().state())
                .containsExactly(RollbackState.PLANNED, RollbackState.APPLIED);
        acks.get(1).complete();
        rollbacks.tick();
        assertThat(written).hasSize(1);
        assertThat(announced)
                .extracting(d -> d.rollback().state())
                .containsExactly(RollbackState.PLANNED, RollbackState.APPLIED);
    }

    @Test
    void aSecondNodeFailingTheSameConfigStartsNoSecondRollback() {
        PoolRollbacks rollbacks = following(true);
        rollbacks.decided(failed("worker-0"));
        rollbacks.decided(failed("worker-1"));
        // and the same gate decided again (timed out after its FAIL)
        rollbacks.decided(failed("worker-0"));

        assertThat(written).hasSize(1);
        assertThat(published).hasSize(2);
    }

    @Test
    void aLeaderThatReadsBackAPlanNotAppliedWritesItAgainOnceThenNeverAgain() {
        PoolRollbacks first = following(true);
        ackAtOnce = false;
        first.decided(failed("worker-0"));
        GateDecision planned = published.get(0);
        // the leader dies with its plan on Kafka, before any write

        PoolRollbacks second = rollbacks(true);
        second.recover(List.of(failed("worker-0"), planned));
        ackAtOnce = true;
        second.follow();
        assertThat(written).hasSize(1);
        GateDecision applied = published.get(published.size() - 1);
        assertThat(applied.rollback().state()).isEqualTo(RollbackState.APPLIED);

        PoolRollbacks third = rollbacks(true);
        third.recover(List.of(planned, applied));
        third.follow();
        third.decided(failed("worker-1"));
        assertThat(written).hasSize(1);
    }

    @Test
    void aLeaderThatDiedBetweenTheFailureAndItsRollbackLeavesTheNextToStartIt() {
        // The failure is on Kafka; the leader died before the rollback's first step
        GateDecision failure = failed("worker-0");

        PoolRollbacks next = rollbacks(true);
        next.recover(List.of(failure));
        assertThat(published).as("not before the cluster is known").isEmpty();
        next.follow();

        assertThat(written).hasSize(1);
        assertThat(published)
                .extracting(d -> d.rollback().state())
                .containsExactly(RollbackState.PLANNED, RollbackState.APPLIED);
    }

    @Test
    void aFailureReadBackThatWasReleasedSinceStartsNoRollback() {
        GateDecision failure = failed("worker-0");
        GateDecision released = new GateDecision(
                failure.cluster(),
                failure.gateId(),
                failure.attempt(),
                failure.stage(),
                failure.pool(),
                failure.node(),
                failure.targetConfig(),
                GateDecision.Decision.OVERRIDDEN,
                true,
                failure.hooks(),
                List.of(),
                "released by operator alice: checked",
                new GateDecision.OperatorOverride("alice", "checked"),
                T0,
                failure.decidedAt().plusSeconds(1));

        PoolRollbacks next = rollbacks(true);
        next.recover(List.of(failure, released));
        next.follow();

        assertThat(published).isEmpty();
    }

    @Test
    void aRefusedWriteStaysPlannedAndIsTriedAgainLater() {
        writeResult = Future.failedFuture(new IllegalStateException("machineconfigs is forbidden"));
        PoolRollbacks rollbacks = following(true);
        rollbacks.decided(failed("worker-0"));
        assertThat(written).hasSize(1);

        rollbacks.tick();
        assertThat(written).as("not at once").hasSize(1);
        writeResult = Future.succeededFuture();
        clock.advance(Duration.ofSeconds(31));
        rollbacks.tick();
        assertThat(written).hasSize(2);
        assertThat(published)
                .extracting(d -> d.rollback().state())
                .containsExactly(RollbackState.PLANNED, RollbackState.APPLIED);
    }

    @Test
    void anAdvisoryHookOrABridgeThatDoesNotCarryRollbacksOutOnlyReports() {
        action = RegisteredHook.PostUpdateFailure.RollbackPoolAdvisory;
        following(true).decided(failed("worker-0"));
        action = RegisteredHook.PostUpdateFailure.RollbackPool;
        following(false).decided(failed("worker-0"));

        assertThat(written).isEmpty();
        assertThat(published)
                .extracting(d -> d.rollback().state() + " " + d.rollback().reason())
                .containsExactly("ADVISORY Advisory", "ADVISORY NotEnabled");
    }

    @Test
    void aHookThatOnlyHoldsAsksForNoRollback() {
        action = RegisteredHook.PostUpdateFailure.HoldAndPausePool;
        following(true).decided(failed("worker-0"));
        assertThat(published).isEmpty();
    }

    @Test
    void aStopBeforeTheWritesLandedLeavesThemUnwrittenAndAResumeMakesThem() {
        // Given a rollback whose writes are refused, planned and waiting to be tried again
        writeResult = Future.failedFuture(new IllegalStateException("machineconfigs is forbidden"));
        PoolRollbacks rollbacks = following(true);
        rollbacks.decided(failed("worker-0"));
        String gate = published.get(0).gateId();

        // When an operator stops it, naming another node's failed gate of the same pool and config
        GateDecision other = failed("worker-1");
        assertThat(rollbacks.onOverride(override(other.gateId(), OverrideRequest.Action.STOP_ROLLBACK)))
                .isEqualTo(OverrideRequest.Outcome.APPLIED);

        // Then the stop is on Kafka, naming who and why, and no retry writes anything
        GateDecision stopped = published.get(published.size() - 1);
        assertThat(stopped.gateId()).isEqualTo(gate);
        assertThat(stopped.rollback().state()).isEqualTo(RollbackState.STOPPED);
        assertThat(stopped.rollback().reason()).isEqualTo(PoolRollbacks.STOPPED_BY_OPERATOR);
        assertThat(stopped.rollback().message()).startsWith("stopped by alice (looking into it): nothing was written");
        writeResult = Future.succeededFuture();
        clock.advance(Duration.ofMinutes(5));
        rollbacks.tick();
        assertThat(written).hasSize(1);
        assertThat(rollbacks.holdsPaused("worker", FAILING)).isTrue();
        assertThat(rollbacks.holdsPaused("worker", "rendered-worker-3"))
                .as("fixed forward")
                .isFalse();
        assertThat(rollbacks.onOverride(override(gate, OverrideRequest.Action.STOP_ROLLBACK)))
                .isEqualTo(OverrideRequest.Outcome.UNCHANGED);

        // And a resume plans it again and makes its writes
        assertThat(rollbacks.onOverride(override(gate, OverrideRequest.Action.RESUME_ROLLBACK)))
                .isEqualTo(OverrideRequest.Outcome.APPLIED);
        assertThat(written).hasSize(2);
        assertThat(published)
                .extracting(d -> d.rollback().state())
                .containsExactly(
                        RollbackState.PLANNED, RollbackState.STOPPED, RollbackState.PLANNED, RollbackState.APPLIED);
        assertThat(published.get(2).rollback().message()).startsWith("resumed by alice");
        assertThat(rollbacks.holdsPaused("worker", BEFORE)).isFalse();
    }

    @Test
    void aStopAfterTheWritesHoldsThePoolWhereItIsAcrossARestart() {
        PoolRollbacks first = following(true);
        first.decided(failed("worker-0"));
        String gate = published.get(0).gateId();

        assertThat(first.onOverride(override(gate, OverrideRequest.Action.STOP_ROLLBACK)))
                .isEqualTo(OverrideRequest.Outcome.APPLIED);
        GateDecision stopped = published.get(published.size() - 1);
        assertThat(stopped.rollback().message()).contains("the MachineConfigs stay as restored");
        assertThat(announced).last().isEqualTo(stopped);

        // A new leader reads the stop back: the pool stays held, nothing is written again
        PoolRollbacks second = rollbacks(true);
        second.recover(List.copyOf(published));
        second.follow();
        assertThat(second.holdsPaused("worker", BEFORE)).isTrue();
        assertThat(written).hasSize(1);
        assertThat(second.latestByPool()).containsEntry("worker", stopped);
    }

    @Test
    void overridesOfNoRollbackOrOfOneThatCannotMoveAreRefused() {
        PoolRollbacks rollbacks = following(false);
        assertThat(rollbacks.onOverride(override(failed("worker-0").gateId(), OverrideRequest.Action.STOP_ROLLBACK)))
                .as("no rollback yet")
                .isEqualTo(OverrideRequest.Outcome.NO_ROLLBACK);

        rollbacks.decided(failed("worker-0"));
        String gate = published.get(0).gateId();
        assertThat(rollbacks.onOverride(override(gate, OverrideRequest.Action.STOP_ROLLBACK)))
                .as("an advisory rollback")
                .isEqualTo(OverrideRequest.Outcome.NOT_STOPPABLE);

        ackAtOnce = false;
        PoolRollbacks busy = following(true);
        busy.decided(failed("worker-0"));
        assertThat(busy.onOverride(override(gate, OverrideRequest.Action.STOP_ROLLBACK)))
                .as("its plan on its way to Kafka")
                .isEqualTo(OverrideRequest.Outcome.BUSY);
        acks.get(acks.size() - 1).complete();
        assertThat(busy.onOverride(override(gate, OverrideRequest.Action.STOP_ROLLBACK)))
                .as("its APPLIED on its way to Kafka")
                .isEqualTo(OverrideRequest.Outcome.BUSY);
    }

    private static OverrideRequest override(String gate, OverrideRequest.Action action) {
        return new OverrideRequest(gate, action, "alice", "looking into it");
    }

    private PoolRollbacks following(boolean carriesOut) {
        PoolRollbacks rollbacks = rollbacks(carriesOut);
        rollbacks.follow();
        return rollbacks;
    }

    private PoolRollbacks rollbacks(boolean carriesOut) {
        Map<String, ConfigSnapshot> snapshots = Map.of(
                BEFORE, snapshot(BEFORE, List.of("quiet")),
                FAILING, snapshot(FAILING, List.of("quiet", "nosmt")));
        return new PoolRollbacks(
                carriesOut,
                new PoolRollbacks.Sources(
                        () -> List.of(hook()),
                        gates::get,
                        (pool, config) -> Optional.ofNullable(snapshots.get(config)),
                        name -> name.equals("99-worker-kargs")
                                ? mc(name, Map.of(), Map.of("kernelArguments", List.of("quiet", "nosmt")))
                                : null),
                decision -> {
                    published.add(decision);
                    Promise<Void> ack = Promise.promise();
                    acks.add(ack);
                    if (ackAtOnce) {
                        ack.complete();
                    }
                    return ack.future();
                },
                (steps, previous) -> {
                    written.add(steps);
                    return writeResult;
                },
                announced::add,
                clock);
    }

    private RegisteredHook hook() {
        return new RegisteredHook(
                "node-check",
                Set.of(Stage.POST_UPDATE),
                Set.of(),
                Map.of(),
                Duration.ofMinutes(10),
                Duration.ZERO,
                GateDecision.FailurePolicy.Fail,
                GateDecision.Mode.Enforcing,
                action,
                false);
    }

    /** The BLOCKED decision of {@code node}'s post-update gate on the failing config. */
    private GateDecision failed(String node) {
        String id = GateId.of("c1", Stage.POST_UPDATE, node, FAILING);
        GateRequest request = new GateRequest(
                "c1",
                id,
                1,
                Stage.POST_UPDATE,
                new GateRequest.PoolFacts("worker", "1", 3),
                new GateRequest.NodeFacts(node, "zone-a", Map.of()),
                BEFORE,
                FAILING,
                new GateRequest.TargetFacts("quay.io/os@sha256:01", "default", null, null, null),
                T0,
                T0.plus(Duration.ofMinutes(30)));
        gates.put(id, new Gate(request, T0, Map.of(), null, false, null));
        return new GateDecision(
                "c1",
                id,
                1,
                Stage.POST_UPDATE,
                "worker",
                node,
                FAILING,
                GateDecision.Decision.BLOCKED,
                false,
                List.of(new GateDecision.HookStatus(
                        "node-check",
                        GateDecision.HookState.FAIL,
                        null,
                        "ChecksFailed",
                        null,
                        T0,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null)),
                List.of("node-check"),
                "blocked by node-check: FAIL ChecksFailed",
                null,
                T0,
                clock.instant());
    }

    private static ConfigSnapshot snapshot(String config, List<String> kargs) {
        return new ConfigSnapshot(
                "c1",
                "worker",
                config,
                T0,
                List.of(SourceConfig.of("99-worker-kargs", WORKER, List.of(), Map.of("kernelArguments", kargs))));
    }
}
