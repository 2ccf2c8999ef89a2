package io.mcdhooks.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.mcdhooks.bridge.gate.Gatekeeper;
import io.mcdhooks.bridge.gate.RegisteredHook;
import io.mcdhooks.bridge.gate.VerdictFate;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import io.mcdhooks.bridge.mco.PoolView;
import io.mcdhooks.bridge.mco.RenderedConfig;
import io.mcdhooks.bridge.mco.Views;
import io.mcdhooks.bridge.publish.Outgoing;
import io.mcdhooks.mco.disruption.NodeDisruptionPolicy;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateDecision.Mode;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.LifecycleEvent;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Transition;
import io.mcdhooks.schemas.Verdict;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BridgeStateTest {

    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    private static final String OLD = "rendered-worker-1111";
    private static final String NEW = "rendered-worker-2222";

    @Test
    void aGateRequestsDeadlineLeavesItsSlowestHookItsWholeWait() {
        // A hook allowed 2 h plus 1 h of heartbeats, and the default of 30 min
        Gatekeeper gatekeeper = new Gatekeeper("c1", Clock.fixed(T0, ZoneOffset.UTC), d -> {});
        gatekeeper.putHook(hook("kmod-check", Duration.ofHours(2), Duration.ofHours(1)));
        gatekeeper.putHook(hook("quick", Duration.ofMinutes(5), Duration.ZERO));

        GateRequest request = poolPreUpdateRequest(gatekeeper);

        assertThat(request.requestedAt()).isEqualTo(T0);
        assertThat(request.deadline()).isEqualTo(T0.plus(Duration.ofHours(3)));
    }

    @Test
    void theConfiguredTimeoutIsTheLeastAHookGets() {
        Gatekeeper gatekeeper = new Gatekeeper("c1", Clock.fixed(T0, ZoneOffset.UTC), d -> {});
        gatekeeper.putHook(hook("quick", Duration.ofMinutes(5), Duration.ofMinutes(1)));

        assertThat(poolPreUpdateRequest(gatekeeper).deadline()).isEqualTo(T0.plus(Duration.ofMinutes(30)));
    }

    @Test
    void aPoolsEventsSayWhenItTakesNewNodesWhereTheGatekeeperEnforcesItsWindows() {
        // Given a worker pool that may update on Saturday nights only, paused on Monday morning (T0)
        Map<String, String> windows = Map.of("mcdhooks.io/update-windows", "Sat 22:00+4h UTC");
        PoolView paused = new PoolView(
                "worker", "uid-worker", "1", 1, OLD, OLD, true, "1", 3, 3, 0, Map.of(), Map.of(), null, windows);
        Gatekeeper gatekeeper = new Gatekeeper("c1", Clock.fixed(T0, ZoneOffset.UTC), d -> {});
        BridgeState enforced = new BridgeState(
                "c1", GatePolicy.of(gatekeeper), Duration.ofMinutes(30), 0, Clock.fixed(T0, ZoneOffset.UTC));

        // Then its pause says why and until when
        assertThat(lifecycle(enforced.onPool(paused, false)))
                .filteredOn(e -> e.transition() == Transition.PAUSED)
                .singleElement()
                .extracting(LifecycleEvent::schedule)
                .isEqualTo(new LifecycleEvent.Schedule(
                        "closed", "outside its update windows Sat 22:00+4h UTC, waiting for Sat 2026-12-05 22:00 UTC"));

        // and a bridge without the gatekeeper, which enforces no window, says nothing of it
        BridgeState plain = new BridgeState(
                "c1", (stage, pool) -> true, Duration.ofMinutes(30), 0, Clock.fixed(T0, ZoneOffset.UTC));
        assertThat(lifecycle(plain.onPool(paused, false)))
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.schedule()).isNull());
    }

    @Test
    void aGateRequestLostInACrashAfterItsLifecycleEventIsSentOnRestart() {
        // Before the crash: worker-0's update-assigned event went out, its pre-update request did not
        BridgeState state = restarted(List.of());

        List<GateRequest> requests = requests(state.onNode(updating("worker-0"), true));

        assertThat(requests).singleElement().satisfies(r -> {
            assertThat(r.stage()).isEqualTo(Stage.PRE_UPDATE);
            assertThat(r.node().name()).isEqualTo("worker-0");
            assertThat(r.targetConfig()).isEqualTo(NEW);
        });
    }

    @Test
    void aGateRequestReadBackAfterARestartIsNotSentAgain() {
        GateRequest sent = new GateRequest(
                "c1",
                GateId.of("c1", Stage.PRE_UPDATE, "worker-0", NEW),
                1,
                Stage.PRE_UPDATE,
                new GateRequest.PoolFacts("worker", "1", 3),
                new GateRequest.NodeFacts("worker-0", null, Map.of()),
                OLD,
                NEW,
                new GateRequest.TargetFacts("quay.io/os@sha256:02", "default", List.of(), List.of(), null),
                T0,
                T0.plus(Duration.ofMinutes(30)));
        BridgeState state = restarted(List.of(sent));

        assertThat(requests(state.onNode(updating("worker-0"), true))).isEmpty();
    }

    @Test
    void aNodeAssignedAfterARestartThatForgotItsEarlyGateIsNotAskedAgain() {
        // Given worker-0's pre-update gate asked early (before its assignment), then a restart: its
        // request is read back, no assignment of worker-0 was ever published
        BridgeState state = classifying(spec("realtime", List.of()), 1);
        state.recover(new LifecycleEvent(
                "c1",
                new LifecycleEvent.ObjectRef(
                        LifecycleEvent.ObjectRef.Kind.MachineConfigPool, "worker", "uid-worker", null),
                "worker",
                Transition.NEW_TARGET_CONFIG,
                OLD,
                NEW,
                null,
                null,
                null,
                null,
                null,
                T0.minusSeconds(10),
                false,
                null));
        state.recover(early("worker-0"));
        state.onNode(atRest("worker-0"), true);
        state.onNode(atRest("worker-1"), true);
        state.onPool(pool(NEW, 2), true);

        // When the MCC assigns it
        List<GateRequest> requests = requests(state.onNode(updating("worker-0"), false));

        // Then that request stands for this opening: no second attempt asks its hooks again
        assertThat(requests)
                .filteredOn(
                        r -> r.stage() == Stage.PRE_UPDATE && r.node().name().equals("worker-0"))
                .isEmpty();
    }

    private static GateRequest early(String node) {
        return new GateRequest(
                "c1",
                GateId.of("c1", Stage.PRE_UPDATE, node, NEW),
                1,
                Stage.PRE_UPDATE,
                new GateRequest.PoolFacts("worker", "1", 3),
                new GateRequest.NodeFacts(node, null, Map.of()),
                OLD,
                NEW,
                new GateRequest.TargetFacts("quay.io/os@sha256:02", "realtime", List.of(), List.of(), null),
                T0,
                T0.plus(Duration.ofMinutes(30)));
    }

    @Test
    void aPreUpdateGateOfAChangeThatDoesNotDrainOpensWithThePoolsNewTargetBeforeAnyNodeIsAssigned() {
        // Given the MCO's default policy and a new target that only adds an SSH key
        BridgeState state = classifying(spec("default", List.of("ssh-ed25519 AAAA new")));

        // When the pool gets the target, its node still on the old config and not assigned
        state.onNode(atRest("worker-0"), true);
        List<GateRequest> requests = requests(state.onPool(pool(NEW, 2), false));

        // Then the node's pre-update gate is requested now, saying the change neither drains nor reboots
        assertThat(requests)
                .filteredOn(r -> r.stage() == Stage.PRE_UPDATE)
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.node().name()).isEqualTo("worker-0");
                    assertThat(r.currentConfig()).isEqualTo(OLD);
                    assertThat(r.disruption())
                            .isEqualTo(new GateRequest.Disruption(
                                    "none", false, false, List.of(new GateRequest.Action("None", null))));
                });
        assertThat(requests)
                .filteredOn(r -> r.stage() == Stage.POOL_PRE_UPDATE)
                .singleElement()
                .satisfies(r -> assertThat(r.disruption().kind()).isEqualTo("none"));
    }

    @Test
    void theAssignmentAfterAnEarlyPreUpdateGateIsTheSameOpeningNotANewAttempt() {
        // Given an SSH key change whose pre-update gate was asked for with the pool's new target
        BridgeState state = classifying(spec("default", List.of("ssh-ed25519 AAAA new")));
        state.onNode(atRest("worker-0"), true);
        assertThat(requests(state.onPool(pool(NEW, 2), false)))
                .filteredOn(r -> r.stage() == Stage.PRE_UPDATE)
                .singleElement()
                .satisfies(r -> assertThat(r.attempt()).isEqualTo(1));

        // When the MCC assigns the node, nothing is asked again: attempt 1 stands for this rollout
        assertThat(requests(state.onNode(updating("worker-0"), false))).noneMatch(r -> r.stage() == Stage.PRE_UPDATE);
    }

    @Test
    void aChangeThatDrainsOpensItsPreUpdateGateAtAssignmentSayingItReboots() {
        // Given a new target with a realtime kernel
        BridgeState state = classifying(spec("realtime", List.of()));
        state.onNode(atRest("worker-0"), true);

        // When the pool gets it, nothing is asked of the node yet
        assertThat(requests(state.onPool(pool(NEW, 2), false))).noneMatch(r -> r.stage() == Stage.PRE_UPDATE);

        // and once the MCC assigns the node, its pre-update gate says what the MCD will do
        assertThat(requests(state.onNode(updating("worker-0"), false)))
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.stage()).isEqualTo(Stage.PRE_UPDATE);
                    assertThat(r.disruption().kind()).isEqualTo("reboot");
                    assertThat(r.disruption().drain()).isTrue();
                });
    }

    @Test
    void theNodesTheMccTakesNextGetTheirDrainHeldPreUpdateGatesBeforeTheyAreAssigned() {
        // Given a realtime kernel for a pool of three at maxUnavailable 1, looking one batch ahead
        BridgeState state = classifying(spec("realtime", List.of()), 1);
        state.onNode(atRest("worker-2"), true);
        state.onNode(atRest("worker-0"), true);
        state.onNode(atRest("worker-1"), true);

        // When the pool gets the target, the node the MCC takes first is asked now
        assertThat(requests(state.onPool(pool(NEW, 2), false)))
                .filteredOn(r -> r.stage() == Stage.PRE_UPDATE)
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.node().name()).isEqualTo("worker-0");
                    assertThat(r.attempt()).isEqualTo(1);
                    assertThat(r.disruption().drain()).isTrue();
                });

        // Then its assignment is the same opening, and the next node moves up into the lookahead
        assertThat(requests(state.onNode(updating("worker-0"), false)))
                .filteredOn(r -> r.stage() == Stage.PRE_UPDATE)
                .singleElement()
                .satisfies(r -> assertThat(r.node().name()).isEqualTo("worker-1"));
        // and a node asked for already is not asked again when another is assigned
        assertThat(requests(state.onNode(updating("worker-2"), false)))
                .filteredOn(r -> r.stage() == Stage.PRE_UPDATE)
                .singleElement()
                .satisfies(r -> assertThat(r.node().name()).isEqualTo("worker-2"));
    }

    @Test
    void aPoolGoingBackAsksThePreUpdateGatesOfTheNodesItTakesBackBeforeTheirAssignment() {
        // Given a realtime kernel rolled out to worker-0 of three, then taken back: the pool targets
        // OLD again, which it still reports
        BridgeState state = classifying(spec("realtime", List.of()), 1);
        state.onNode(done("worker-0", NEW, false), true);
        state.onNode(atRest("worker-1"), true);
        state.onNode(atRest("worker-2"), true);
        state.onPool(pool(NEW, 2), false);
        PoolView goingBack = new PoolView(
                "worker",
                "uid-worker",
                "1",
                3,
                OLD,
                OLD,
                false,
                "1",
                3,
                2,
                0,
                Map.of("node-role.kubernetes.io/worker", ""),
                Map.of("Updated", "False"),
                null,
                Map.of());
        assertThat(goingBack.reverting()).isTrue();

        // When the pool turns back, the node on NEW is asked before the MCC takes it back, as on any rollout
        assertThat(requests(state.onPool(goingBack, false)))
                .filteredOn(r -> r.stage() == Stage.PRE_UPDATE)
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.node().name()).isEqualTo("worker-0");
                    assertThat(r.targetConfig()).isEqualTo(OLD);
                    assertThat(r.disruption().drain()).isTrue();
                });
    }

    @Test
    void theLookaheadFollowsTheMccsOrderOldestFirst() {
        BridgeState state = classifying(spec("realtime", List.of()), 1);
        state.onNode(created(atRest("worker-0"), T0.minusSeconds(10)), true);
        state.onNode(created(atRest("worker-1"), T0.minusSeconds(30)), true);
        state.onNode(created(atRest("worker-2"), T0.minusSeconds(20)), true);

        assertThat(requests(state.onPool(pool(NEW, 2), false)))
                .filteredOn(r -> r.stage() == Stage.PRE_UPDATE)
                .extracting(r -> r.node().name())
                .containsExactly("worker-1");
    }

    @Test
    void withoutAPublishedPolicyAChangesClassIsUnknownAndItsPreUpdateGateOpensEarly() {
        // Given no MachineConfiguration status: what an SSH key change does cannot be told
        BridgeState state = classifying(spec("default", List.of("ssh-ed25519 AAAA new")));
        state.onDisruptionPolicy(null);
        state.onNode(atRest("worker-0"), true);

        // Then the gate is asked for before assignment, as for a change that may not drain
        assertThat(requests(state.onPool(pool(NEW, 2), false)))
                .filteredOn(r -> r.stage() == Stage.PRE_UPDATE)
                .singleElement()
                .satisfies(r -> assertThat(r.disruption()).isNull());
    }

    @Test
    void aNodeFoundOnItsTargetItReachedBeforeTheBridgeKnewItGetsALatePostUpdateGate() throws Exception {
        // Given the real mid-update cluster: ip-10-0-17-117 is Done on the worker pool's target while
        // the pool's status is still on the old config, and the bridge starts now
        String target = "rendered-worker-a079988a31206987bed827f0242d7b3f";
        BridgeState state = new BridgeState(
                "c1", (stage, pool) -> true, Duration.ofMinutes(30), 0, Clock.fixed(T0, ZoneOffset.UTC));
        state.onRenderedConfig(new RenderedConfig(target, "quay.io/os@sha256:02", "default", List.of(), List.of()));
        state.onPool(
                new PoolView(
                        "worker",
                        "uid-worker",
                        "1",
                        2,
                        target,
                        "rendered-worker-869799cd72c887a5da8248efd58bb2a9",
                        false,
                        null,
                        3,
                        1,
                        0,
                        Map.of("node-role.kubernetes.io/worker", ""),
                        Map.of("Updating", "True"),
                        null,
                        Map.of()),
                true);

        List<GateRequest> requests = new ArrayList<>();
        try (InputStream in = BridgeStateTest.class.getResourceAsStream("/nodes-mid-update.yaml")) {
            for (Node node : Serialization.unmarshal(in, NodeList.class).getItems()) {
                requests.addAll(requests(state.onNode(Views.node(node, null), true)));
            }
        }

        // Then that node gets a post-update gate marked late, and no other node one
        assertThat(requests)
                .filteredOn(r -> r.stage() == Stage.POST_UPDATE)
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.node().name()).isEqualTo("ip-10-0-17-117.us-east-2.compute.internal");
                    assertThat(r.targetConfig()).isEqualTo(target);
                    assertThat(r.lateGate()).isTrue();
                });
        // and a node the bridge follows through its update gets its gate at its transition, not late
        assertThat(requests)
                .filteredOn(r -> r.stage() == Stage.PRE_UPDATE)
                .allSatisfy(r -> assertThat(r.late()).isNull());
    }

    @Test
    void aNodeStillTaintedByTheGatekeeperInAPoolAtRestGetsALatePostUpdateGate() {
        // Given a pool at rest on NEW, and a bridge that never saw its nodes update (past the read-back)
        BridgeState state = new BridgeState(
                "c1", (stage, pool) -> true, Duration.ofMinutes(30), 0, Clock.fixed(T0, ZoneOffset.UTC));
        state.onRenderedConfig(new RenderedConfig(NEW, "quay.io/os@sha256:02", "default", List.of(), List.of()));
        state.onPool(pool(NEW, NEW, 2), true);

        // When it finds one node with the gatekeeper's taint and one without
        List<GateRequest> requests = new ArrayList<>();
        requests.addAll(requests(state.onNode(done("worker-0", NEW, true), true)));
        requests.addAll(requests(state.onNode(done("worker-1", NEW, false), true)));

        // Then the tainted one gets a late post-update gate, the only thing that lifts its taint
        assertThat(requests).singleElement().satisfies(r -> {
            assertThat(r.stage()).isEqualTo(Stage.POST_UPDATE);
            assertThat(r.node().name()).isEqualTo("worker-0");
            assertThat(r.lateGate()).isTrue();
        });

        // and one tainted and marked ahead of an update to another config, which never came, gets none
        NodeView markedAhead = done("worker-2", NEW, true);
        Map<String, String> annotations = new HashMap<>(markedAhead.annotations());
        annotations.put(NodeView.HOLD, GateId.of("c1", Stage.POST_UPDATE, "worker-2", "rendered-worker-later"));
        assertThat(requests(state.onNode(
                        new NodeView(
                                "worker-2",
                                "uid-worker-2",
                                "1",
                                null,
                                markedAhead.labels(),
                                annotations,
                                false,
                                true,
                                true,
                                null),
                        true)))
                .isEmpty();
    }

    /** A bridge gating every stage, knowing the default policy, OLD and a NEW with {@code newSpec}, pool at OLD. */
    private static BridgeState classifying(Map<String, Object> newSpec) {
        return classifying(newSpec, 0);
    }

    private static BridgeState classifying(Map<String, Object> newSpec, int lookahead) {
        BridgeState state = new BridgeState(
                "c1", (stage, pool) -> true, Duration.ofMinutes(30), lookahead, Clock.fixed(T0, ZoneOffset.UTC));
        state.onDisruptionPolicy(NodeDisruptionPolicy.defaults());
        state.onRenderedConfig(new RenderedConfig(
                OLD, "quay.io/os@sha256:01", "default", List.of(), List.of(), spec("default", List.of())));
        state.onRenderedConfig(
                new RenderedConfig(NEW, "quay.io/os@sha256:01", "default", List.of(), List.of(), newSpec));
        state.onPool(pool(OLD, 1), true);
        return state;
    }

    private static Map<String, Object> spec(String kernelType, List<String> sshKeys) {
        return Map.of(
                "osImageURL",
                "quay.io/os@sha256:01",
                "kernelType",
                kernelType,
                "config",
                Map.of(
                        "ignition",
                        Map.of("version", "3.5.0"),
                        "passwd",
                        Map.of("users", List.of(Map.of("name", "core", "sshAuthorizedKeys", sshKeys)))));
    }

    private static NodeView done(String name, String config, boolean gateTainted) {
        return new NodeView(
                name,
                "uid-" + name,
                "1",
                null,
                Map.of("node-role.kubernetes.io/worker", ""),
                Map.of(McoApi.CURRENT_CONFIG, config, McoApi.DESIRED_CONFIG, config, McoApi.STATE, McoApi.STATE_DONE),
                false,
                true,
                gateTainted,
                null);
    }

    private static NodeView created(NodeView n, Instant at) {
        return new NodeView(
                n.name(),
                n.uid(),
                n.resourceVersion(),
                at,
                n.labels(),
                n.annotations(),
                n.unschedulable(),
                n.ready(),
                n.gateTainted(),
                n.mcn());
    }

    private static NodeView atRest(String name) {
        return done(name, OLD, false);
    }

    @Test
    void aRepeatedRolloutToASeenConfigIsANewAttemptThatAsksEveryHookAgain() {
        // Given a rollout to NEW whose pool gate was released, then a rollback to OLD
        Gatekeeper gatekeeper = new Gatekeeper("c1", Clock.fixed(T0, ZoneOffset.UTC), d -> {});
        gatekeeper.putHook(hook("kmod-check", Duration.ofMinutes(10), Duration.ZERO));
        BridgeState state = new BridgeState(
                "c1", GatePolicy.of(gatekeeper), Duration.ofMinutes(30), 0, Clock.fixed(T0, ZoneOffset.UTC));
        state.onRenderedConfig(new RenderedConfig(NEW, "quay.io/os@sha256:02", "default", List.of(), List.of()));
        state.onRenderedConfig(new RenderedConfig(OLD, "quay.io/os@sha256:01", "default", List.of(), List.of()));
        state.onPool(pool(OLD, 1), true);
        GateRequest first = requests(state.onPool(pool(NEW, 2), false)).get(0);
        gatekeeper.onGateRequest(first);
        gatekeeper.onVerdict(Verdict.answering(first, "kmod-check", Outcome.PASS, "Fine", null, null, T0));
        assertThat(gatekeeper.gate(first.gateId()).released()).isTrue();
        state.onPool(pool(NEW, NEW, 3), false);
        state.onPool(pool(OLD, NEW, 4), false);
        state.onPool(pool(OLD, OLD, 5), false);

        // When the pool rolls forward to NEW again
        List<GateRequest> again = requests(state.onPool(pool(NEW, OLD, 6), false));

        // Then the gate is requested again, as attempt 2, and opens waiting on its hook again
        assertThat(again).singleElement().satisfies(r -> {
            assertThat(r.gateId()).isEqualTo(first.gateId());
            assertThat(r.attempt()).isEqualTo(2);
        });
        gatekeeper.onGateRequest(again.get(0));
        assertThat(gatekeeper.gate(first.gateId()).released()).isFalse();
        assertThat(gatekeeper.gate(first.gateId()).last().decision()).isEqualTo(GateDecision.Decision.OPENED);
        // And the first attempt's PASS, heard again, is stale: it counts for nothing
        assertThat(gatekeeper.onVerdict(
                        Verdict.answering(first, "kmod-check", Outcome.PASS, "Fine", null, null, T0.plusSeconds(1))))
                .isEqualTo(VerdictFate.STALE);
        assertThat(gatekeeper.gate(first.gateId()).released()).isFalse();
    }

    @Test
    void aRestartKnowsTheLatestAttemptAndAsksTheNextOneAfterIt() {
        GateRequest second = new GateRequest(
                "c1",
                GateId.of("c1", Stage.PRE_UPDATE, "worker-0", NEW),
                2,
                Stage.PRE_UPDATE,
                new GateRequest.PoolFacts("worker", "1", 3),
                new GateRequest.NodeFacts("worker-0", null, Map.of()),
                OLD,
                NEW,
                new GateRequest.TargetFacts("quay.io/os@sha256:02", "default", List.of(), List.of(), null),
                T0,
                T0.plus(Duration.ofMinutes(30)));
        BridgeState state = restarted(List.of(second));

        // The owed request was sent (attempt 2 is known): nothing is sent again on restart
        assertThat(requests(state.onNode(updating("worker-0"), true))).isEmpty();
    }

    /** A bridge restarted after publishing worker-0's update-assigned event, and these requests. */
    private static BridgeState restarted(List<GateRequest> readBack) {
        BridgeState state = new BridgeState(
                "c1", (stage, pool) -> true, Duration.ofMinutes(30), 0, Clock.fixed(T0, ZoneOffset.UTC));
        state.recover(new LifecycleEvent(
                "c1",
                new LifecycleEvent.ObjectRef(LifecycleEvent.ObjectRef.Kind.Node, "worker-0", "uid-0", null),
                "worker",
                Transition.UPDATE_ASSIGNED,
                OLD,
                NEW,
                null,
                null,
                null,
                null,
                null,
                T0.minusSeconds(5),
                false,
                null));
        readBack.forEach(state::recover);
        state.onRenderedConfig(new RenderedConfig(NEW, "quay.io/os@sha256:02", "default", List.of(), List.of()));
        state.onPool(pool(NEW, 2), true);
        return state;
    }

    private static NodeView updating(String name) {
        return new NodeView(
                name,
                "uid-0",
                "1",
                null,
                Map.of("node-role.kubernetes.io/worker", ""),
                Map.of(McoApi.CURRENT_CONFIG, OLD, McoApi.DESIRED_CONFIG, NEW, McoApi.STATE, McoApi.STATE_WORKING),
                true,
                true,
                false,
                null);
    }

    private static List<GateRequest> requests(List<Outgoing> out) {
        return out.stream()
                .map(Outgoing::message)
                .filter(GateRequest.class::isInstance)
                .map(GateRequest.class::cast)
                .toList();
    }

    private static List<LifecycleEvent> lifecycle(List<Outgoing> out) {
        return out.stream()
                .map(Outgoing::message)
                .filter(LifecycleEvent.class::isInstance)
                .map(LifecycleEvent.class::cast)
                .toList();
    }

    private static GateRequest poolPreUpdateRequest(Gatekeeper gatekeeper) {
        BridgeState state = new BridgeState(
                "c1", GatePolicy.of(gatekeeper), Duration.ofMinutes(30), 0, Clock.fixed(T0, ZoneOffset.UTC));
        state.onRenderedConfig(new RenderedConfig(NEW, "quay.io/os@sha256:02", "default", List.of(), List.of()));
        state.onPool(pool(OLD, 1), true);
        List<Outgoing> out = state.onPool(pool(NEW, 2), false);
        return requests(out).stream()
                .filter(r -> r.stage() == Stage.POOL_PRE_UPDATE)
                .findFirst()
                .orElseThrow();
    }

    private static RegisteredHook hook(String name, Duration timeout, Duration maxExtension) {
        return new RegisteredHook(
                name,
                Set.of(Stage.POOL_PRE_UPDATE),
                Set.of(),
                Map.of(),
                timeout,
                maxExtension,
                FailurePolicy.Fail,
                Mode.Enforcing,
                RegisteredHook.PostUpdateFailure.Hold,
                false);
    }

    private static PoolView pool(String target, long generation) {
        return pool(target, OLD, generation);
    }

    private static PoolView pool(String target, String current, long generation) {
        return new PoolView(
                "worker",
                "uid-worker",
                "1",
                generation,
                target,
                current,
                false,
                "1",
                3,
                0,
                0,
                Map.of("node-role.kubernetes.io/worker", ""),
                Map.of(),
                null,
                Map.of());
    }
}
