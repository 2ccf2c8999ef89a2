package io.mcdhooks.sandbox.faults;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
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
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The safety and liveness properties of a rollout under faults, each a pure function of a
 * {@link History}, returning the violations found (empty: the property held).
 */
final class Invariants {

    /** How long a verdict may sit on its topic before a decision that ignores it counts as losing it. */
    static final Duration READ_SLACK = Duration.ofSeconds(2);

    record Violation(String invariant, String detail) {
        @Override
        public String toString() {
            return invariant + ": " + detail;
        }
    }

    private Invariants() {}

    static List<Violation> all(History h) {
        List<Violation> found = new ArrayList<>();
        found.addAll(noEarlyRelease(h));
        found.addAll(noLostVerdict(h));
        found.addAll(noneHeldAfterRelease(h));
        found.addAll(withinMaxUnavailable(h));
        found.addAll(rolloutCompleted(h));
        found.addAll(oneGatekeeperActs(h));
        found.addAll(leverAfterDecision(h));
        return found;
    }

    /**
     * (g) Every lever release follows, in Kafka's append time, the decision that allowed it: each
     * write of a bridge replica that lets a node or the pool go on was served after the gate's
     * latest decision on the decisions topic (by LogAppendTime, up to that moment) was a release:
     * <ul>
     * <li>deleting a node's gate pod or its budget: the node's pre-update gate;
     * <li>writing a node without the post-update taint: its post-update gate;
     * <li>unpausing the pool: its pool-pre-update gate.
     * </ul>
     * The write's time is when the API server received it, the decision's when the broker appended
     * it: both clocks of this machine. A lever moved on a decision not yet on Kafka breaks this
     * even when the decision lands a moment later: a crash in between would leave the lever moved
     * and nothing on record to say why.
     */
    static List<Violation> leverAfterDecision(History h) {
        List<Violation> found = new ArrayList<>();
        for (History.Write w : h.writes()) {
            LeverRelease release = LeverRelease.of(h, w);
            if (release == null) {
                continue;
            }
            String gate = GateId.of(h.cluster(), release.stage(), release.subject(), h.targetConfig());
            Optional<KafkaEntry> latest = decisions(h).stream()
                    .filter(e -> gate.equals(((GateDecision) e.message()).gateId())
                            && !e.appendedAt().isAfter(w.at()))
                    .reduce((a, b) -> b);
            if (latest.isEmpty() || !((GateDecision) latest.get().message()).released()) {
                String after = decisions(h).stream()
                        .filter(e -> gate.equals(((GateDecision) e.message()).gateId())
                                && ((GateDecision) e.message()).released())
                        .findFirst()
                        .map(e -> "; its release was appended at " + e.appendedAt())
                        .orElse("; no release of it is on Kafka");
                found.add(new Violation(
                        "lever-before-decision",
                        release.what() + " by " + w.identity() + " at " + w.at() + " (" + w.method() + " " + w.path()
                                + ") while the latest decision of " + gate + " on Kafka was "
                                + latest.map(e -> ((GateDecision) e.message())
                                                .decision()
                                                .name())
                                        .orElse("none")
                                + after));
            }
        }
        return found;
    }

    /**
     * (f) Only one gatekeeper acts at a time: every write of a bridge replica the API server
     * served falls within a lease that replica held, i.e. after one of its renewals and before
     * that renewal plus the lease duration (after which another replica may take the lease).
     */
    static List<Violation> oneGatekeeperActs(History h) {
        List<Violation> found = new ArrayList<>();
        for (History.Write w : h.writes()) {
            boolean held = h.leases().stream()
                    .anyMatch(l -> w.identity().equals(l.holder())
                            && l.renewTime() != null
                            && !w.at().isBefore(l.renewTime())
                            && !w.at().isAfter(l.renewTime().plusSeconds(l.durationSeconds())));
            if (!held) {
                found.add(new Violation(
                        "two-gatekeepers",
                        w.identity() + " wrote " + w.method() + " " + w.path() + " at " + w.at()
                                + " without holding the lease"));
            }
        }
        return found;
    }

    /**
     * (a) No node passes a lever before the hooks of its gate allowed it, where "passes" is read
     * from the node, not from the gatekeeper:
     * <ul>
     * <li>pool-pre-update: the first worker whose {@code desiredConfig} is the target;
     * <li>pre-update: the node's {@code lastAppliedDrain} reaches {@code drain-<target>} (its
     *     drain finished, so the gate pod was gone);
     * <li>post-update: the node is on the target, schedulable and without the gatekeeper's taint.
     * </ul>
     * At that moment, for every enforcing hook of the stage, the hook's latest PASS or FAIL for
     * that gate and a requested attempt already on Kafka must be a PASS; or, for a hook with
     * {@code failurePolicy: Ignore}, a released TIMED_OUT decision naming it must be on Kafka; or
     * an operator override.
     */
    static List<Violation> noEarlyRelease(History h) {
        List<Violation> found = new ArrayList<>();
        String target = h.targetConfig();
        Optional<NodeState> firstAssigned = h.nodes().stream()
                .filter(n -> h.workers().contains(n.node()) && target.equals(n.desiredConfig()))
                .findFirst();
        firstAssigned.ifPresent(n -> check(
                h, Stage.POOL_PRE_UPDATE, h.pool(), n.at(), "worker " + n.node() + " assigned the target", found));
        for (String node : h.workers()) {
            List<NodeState> states = statesOf(h, node);
            states.stream()
                    .filter(s -> ("drain-" + target).equals(s.lastAppliedDrain()))
                    .findFirst()
                    .ifPresent(s -> check(h, Stage.PRE_UPDATE, node, s.at(), "drained", found));
            states.stream()
                    .filter(s -> target.equals(s.currentConfig()) && !s.unschedulable() && !s.gateTainted())
                    .findFirst()
                    .ifPresent(s -> check(h, Stage.POST_UPDATE, node, s.at(), "released on the target", found));
        }
        return found;
    }

    private static void check(History h, Stage stage, String subject, Instant at, String what, List<Violation> found) {
        List<HookPolicy> hooks = h.hooks().stream()
                .filter(p -> p.enforcing() && p.stages().contains(stage))
                .toList();
        if (hooks.isEmpty()) {
            return;
        }
        String gate = GateId.of(h.cluster(), stage, subject, h.targetConfig());
        Set<Integer> attempts = requests(h).stream()
                .filter(e -> gate.equals(((GateRequest) e.message()).gateId())
                        && !e.appendedAt().isAfter(at))
                .map(e -> ((GateRequest) e.message()).attempt())
                .collect(Collectors.toSet());
        List<GateDecision> decisions = decisions(h).stream()
                .filter(e -> gate.equals(((GateDecision) e.message()).gateId())
                        && !e.appendedAt().isAfter(at))
                .map(e -> (GateDecision) e.message())
                .toList();
        if (decisions.stream().anyMatch(d -> d.released() && d.decision() == Decision.OVERRIDDEN)) {
            return;
        }
        for (HookPolicy hook : hooks) {
            Optional<Verdict> last = finalVerdicts(h, gate, hook.name()).stream()
                    .filter(e -> !e.appendedAt().isAfter(at))
                    .map(e -> (Verdict) e.message())
                    .filter(v -> attempts.contains(v.attempt()))
                    .reduce((a, b) -> b);
            boolean passed = last.isPresent() && last.get().outcome() == Outcome.PASS;
            boolean timedOutIgnored = hook.ignoreOnTimeout()
                    && decisions.stream()
                            .anyMatch(d -> d.released()
                                    && d.decision() == Decision.TIMED_OUT
                                    && d.hooks().stream()
                                            .anyMatch(s ->
                                                    s.hook().equals(hook.name()) && s.state() == HookState.TIMED_OUT));
            if (!passed && !timedOutIgnored) {
                found.add(new Violation(
                        "early-release",
                        stage.wire() + " " + subject + " " + what + " at " + at
                                + " but hook " + hook.name() + " had "
                                + last.map(v -> v.outcome().name()).orElse("no verdict")
                                + " for " + gate + " (attempts requested by then: " + attempts + ")"));
            }
        }
    }

    /**
     * (b) No verdict is lost: every verdict a hook produced is on the verdicts topic (by id, or for
     * a runner's check by gate, attempt and hook), and every final verdict of a requested gate is
     * accounted for by the gatekeeper's decisions: the first released decision lists no hook as
     * short of PASS while that hook's PASS had been on the topic for {@link #READ_SLACK}; a gate
     * never released has a last decision that shows each hook's latest final verdict.
     */
    static List<Violation> noLostVerdict(History h) {
        List<Violation> found = new ArrayList<>();
        List<KafkaEntry> verdicts = verdicts(h);
        Set<String> ids = verdicts.stream().map(KafkaEntry::id).collect(Collectors.toSet());
        for (Produced p : h.produced()) {
            boolean present = p.id() != null
                    ? ids.contains(p.id())
                    : verdicts.stream()
                            .map(e -> (Verdict) e.message())
                            .anyMatch(v -> v.gateId().equals(p.gateId())
                                    && v.attempt() == p.attempt()
                                    && v.hook().equals(p.hook())
                                    && v.outcome().name().equals(p.outcome()));
            if (!present) {
                found.add(new Violation("lost-verdict", "produced but not on the verdicts topic: " + p));
            }
        }
        Map<String, Set<Integer>> requested = new HashMap<>();
        for (KafkaEntry e : requests(h)) {
            GateRequest r = (GateRequest) e.message();
            requested.computeIfAbsent(r.gateId(), k -> new TreeSet<>()).add(r.attempt());
        }
        Map<String, List<KafkaEntry>> byGate = new LinkedHashMap<>();
        for (KafkaEntry e : verdicts) {
            Verdict v = (Verdict) e.message();
            if (v.outcome() != Outcome.PENDING
                    && requested.getOrDefault(v.gateId(), Set.of()).contains(v.attempt())) {
                byGate.computeIfAbsent(v.gateId(), k -> new ArrayList<>()).add(e);
            }
        }
        for (Map.Entry<String, List<KafkaEntry>> gate : byGate.entrySet()) {
            List<KafkaEntry> gateDecisions = decisions(h).stream()
                    .filter(e -> gate.getKey().equals(((GateDecision) e.message()).gateId()))
                    .toList();
            if (gateDecisions.isEmpty()) {
                found.add(new Violation("lost-verdict", gate.getKey() + " got verdicts but no decision at all"));
                continue;
            }
            Optional<KafkaEntry> released = gateDecisions.stream()
                    .filter(e -> ((GateDecision) e.message()).released())
                    .findFirst();
            if (released.isPresent()) {
                GateDecision d = (GateDecision) released.get().message();
                Instant cutoff = released.get().appendedAt().minus(READ_SLACK);
                for (GateDecision.HookStatus s : d.hooks()) {
                    if (s.state() == HookState.PASS) {
                        continue;
                    }
                    gate.getValue().stream()
                            .filter(e -> e.appendedAt().isBefore(cutoff))
                            .map(e -> (Verdict) e.message())
                            .filter(v -> v.hook().equals(s.hook()) && v.outcome() == Outcome.PASS)
                            .findFirst()
                            .ifPresent(v -> found.add(new Violation(
                                    "lost-verdict",
                                    gate.getKey() + " released with " + s.hook() + " " + s.state()
                                            + " although its PASS was on the topic")));
                }
            } else {
                GateDecision last = (GateDecision)
                        gateDecisions.get(gateDecisions.size() - 1).message();
                Map<String, Outcome> latest = new HashMap<>();
                gate.getValue().stream()
                        .map(e -> (Verdict) e.message())
                        .forEach(v -> latest.put(v.hook(), v.outcome()));
                latest.forEach((hook, outcome) -> {
                    boolean shown = last.hooks().stream()
                            .anyMatch(s ->
                                    s.hook().equals(hook) && s.state().name().equals(outcome.name()));
                    if (!shown) {
                        found.add(new Violation(
                                "lost-verdict",
                                gate.getKey() + " last decision " + last.decision() + " does not show " + hook + " "
                                        + outcome));
                    }
                });
            }
        }
        return found;
    }

    /**
     * (c) No node stays held after its gate passed: at the end every worker is schedulable and
     * untainted by the gatekeeper, and no gate pod is left.
     */
    static List<Violation> noneHeldAfterRelease(History h) {
        List<Violation> found = new ArrayList<>();
        for (String node : h.workers()) {
            List<NodeState> states = statesOf(h, node);
            if (states.isEmpty()) {
                continue;
            }
            NodeState last = states.get(states.size() - 1);
            if (last.unschedulable() || last.gateTainted()) {
                found.add(new Violation(
                        "held-after-release",
                        node + " still "
                                + (last.unschedulable() ? "cordoned" : "") + (last.gateTainted() ? " tainted" : "")
                                + " at the end"));
            }
        }
        h.gatePodsAtEnd().forEach(p -> found.add(new Violation("held-after-release", "gate pod " + p + " left")));
        return found;
    }

    /**
     * (d) The pool never has more than maxUnavailable nodes unavailable, counted as the MCO's node
     * controller counts (not Ready, cordoned, or not Done unless failing), after every node change.
     */
    static List<Violation> withinMaxUnavailable(History h) {
        List<Violation> found = new ArrayList<>();
        Map<String, NodeState> current = new HashMap<>();
        for (NodeState s : h.nodes()) {
            if (!h.workers().contains(s.node())) {
                continue;
            }
            current.put(s.node(), s);
            List<String> out = current.values().stream()
                    .filter(NodeState::unavailable)
                    .map(NodeState::node)
                    .sorted()
                    .toList();
            if (out.size() > h.maxUnavailable()) {
                found.add(new Violation(
                        "max-unavailable",
                        out.size() + " unavailable (max " + h.maxUnavailable() + ") at " + s.at() + " rv "
                                + s.resourceVersion() + ": " + out));
            }
        }
        return found;
    }

    /** Maximum of nodes unavailable at once, for the report. */
    static int mostUnavailable(History h) {
        Map<String, NodeState> current = new HashMap<>();
        int most = 0;
        for (NodeState s : h.nodes()) {
            if (h.workers().contains(s.node())) {
                current.put(s.node(), s);
                most = Math.max(most, (int)
                        current.values().stream().filter(NodeState::unavailable).count());
            }
        }
        return most;
    }

    /** (e) The rollout completed: every worker Done on the target, and the pool Updated on it. */
    static List<Violation> rolloutCompleted(History h) {
        List<Violation> found = new ArrayList<>();
        for (String node : h.workers()) {
            List<NodeState> states = statesOf(h, node);
            NodeState last = states.isEmpty() ? null : states.get(states.size() - 1);
            if (last == null || !last.done() || !h.targetConfig().equals(last.currentConfig())) {
                found.add(new Violation(
                        "rollout-incomplete",
                        node + " ends "
                                + (last == null
                                        ? "unseen"
                                        : last.currentConfig() + " -> " + last.desiredConfig() + " " + last.state())));
            }
        }
        PoolState pool = h.pools().isEmpty() ? null : h.pools().get(h.pools().size() - 1);
        if (pool == null || !pool.updated() || !h.targetConfig().equals(pool.statusConfig())) {
            found.add(new Violation("rollout-incomplete", "pool " + h.pool() + " ends " + pool));
        }
        return found;
    }

    /** What a write released, as the gate it needed: stage and subject. */
    private record LeverRelease(Stage stage, String subject, String what) {

        private static final ObjectMapper JSON = new ObjectMapper();

        /** The release {@code w} is, or {@code null} if it releases nothing. */
        static LeverRelease of(History h, History.Write w) {
            String path =
                    w.path().contains("?") ? w.path().substring(0, w.path().indexOf('?')) : w.path();
            String name = path.substring(path.lastIndexOf('/') + 1);
            if ("DELETE".equals(w.method()) && (path.contains("/pods/") || path.contains("/poddisruptionbudgets/"))) {
                return h.workers().stream()
                        .filter(node -> GateObjects.gateName(node).equals(name))
                        .findFirst()
                        .map(node -> new LeverRelease(
                                Stage.PRE_UPDATE,
                                node,
                                (path.contains("/pods/") ? "gate pod" : "gate budget") + " of " + node + " deleted"))
                        .orElse(null);
            }
            boolean write = "PUT".equals(w.method()) || "PATCH".equals(w.method());
            if (write && path.endsWith("/nodes/" + name) && h.workers().contains(name) && untaints(w)) {
                return new LeverRelease(Stage.POST_UPDATE, name, "node " + name + " written untainted");
            }
            if (write && path.endsWith("/machineconfigpools/" + h.pool()) && unpauses(w)) {
                return new LeverRelease(Stage.POOL_PRE_UPDATE, h.pool(), "pool " + h.pool() + " unpaused");
            }
            return null;
        }

        /** A whole node without the taint, or a patch that sets its taints to a list without it. */
        private static boolean untaints(History.Write w) {
            JsonNode body = body(w);
            if (body.isArray()) {
                return anyOperation(
                        body,
                        (path, op) -> path.startsWith("/spec/taints")
                                && ("remove".equals(op.path("op").asText()) || !hasTaint(op.path("value"))));
            }
            JsonNode taints = body.path("spec").path("taints");
            return "PUT".equals(w.method())
                    ? body.isObject() && !hasTaint(taints)
                    : taints.isArray() && !hasTaint(taints);
        }

        /** A pool, or a patch of one, with {@code spec.paused: false}. */
        private static boolean unpauses(History.Write w) {
            JsonNode body = body(w);
            if (body.isArray()) {
                return anyOperation(
                        body,
                        (path, op) -> "/spec/paused".equals(path) && unpaused(op.path("value"))
                                || "/spec".equals(path)
                                        && unpaused(op.path("value").path("paused")));
            }
            return unpaused(body.path("spec").path("paused"));
        }

        private static boolean unpaused(JsonNode paused) {
            return paused.isBoolean() && !paused.asBoolean();
        }

        /** Whether an operation of a JSON Patch, by its path and itself, is one {@code test} looks for. */
        private static boolean anyOperation(JsonNode patch, BiPredicate<String, JsonNode> test) {
            for (JsonNode op : patch) {
                if (test.test(op.path("path").asText(), op)) {
                    return true;
                }
            }
            return false;
        }

        private static boolean hasTaint(JsonNode taints) {
            if (taints.isObject()) {
                return LeverPlan.POST_UPDATE_TAINT.equals(taints.path("key").asText());
            }
            for (JsonNode taint : taints) {
                if (LeverPlan.POST_UPDATE_TAINT.equals(taint.path("key").asText())) {
                    return true;
                }
            }
            return false;
        }

        /** The body as JSON; a missing node when there is none. */
        private static JsonNode body(History.Write w) {
            if (w.body() == null || w.body().isBlank()) {
                return MissingNode.getInstance();
            }
            try {
                return JSON.readTree(w.body());
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a bridge write whose body is not JSON: " + w, e);
            }
        }
    }

    private static List<NodeState> statesOf(History h, String node) {
        return h.nodes().stream().filter(s -> s.node().equals(node)).toList();
    }

    private static List<KafkaEntry> requests(History h) {
        return of(h, e -> e.message() instanceof GateRequest);
    }

    private static List<KafkaEntry> decisions(History h) {
        return of(h, e -> e.message() instanceof GateDecision);
    }

    private static List<KafkaEntry> verdicts(History h) {
        return of(h, e -> e.message() instanceof Verdict);
    }

    /** A hook's PASS and FAIL verdicts for one gate, in partition order (one key, one partition). */
    private static List<KafkaEntry> finalVerdicts(History h, String gate, String hook) {
        return of(
                h,
                e -> e.message() instanceof Verdict v
                        && v.gateId().equals(gate)
                        && v.hook().equals(hook)
                        && v.outcome() != Outcome.PENDING);
    }

    private static List<KafkaEntry> of(History h, Predicate<KafkaEntry> which) {
        return h.kafka().stream()
                .filter(which)
                .sorted(Comparator.comparing(KafkaEntry::topic)
                        .thenComparing(KafkaEntry::partition)
                        .thenComparingLong(KafkaEntry::offset))
                .filter(Objects::nonNull)
                .toList();
    }
}
