package io.mcdhooks.bridge.gate;

import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gatekeeper's memory: every gate of this cluster and the hooks registered now. It opens
 * gates from gate requests, feeds them verdicts, overrides and the passing of time through the
 * {@link GateMachine}, and hands every changed decision on (to Kafka, to Kubernetes Events, to
 * the levers). No I/O of its own; one event loop owns it.
 */
public final class Gatekeeper {

    private static final Logger LOG = LoggerFactory.getLogger(Gatekeeper.class);

    private final String cluster;
    private final Clock clock;
    private final Consumer<GateDecision> decisions;
    private final Map<String, Gate> gates = new HashMap<>();
    private final Map<String, RegisteredHook> hooks = new HashMap<>();

    /** @param decisions receives every decision that changed, in order */
    public Gatekeeper(String cluster, Clock clock, Consumer<GateDecision> decisions) {
        this.cluster = cluster;
        this.clock = clock;
        this.decisions = decisions;
    }

    /** Registers or replaces a hook; {@code false} if it was registered with the same spec already. */
    public boolean putHook(RegisteredHook hook) {
        return !hook.equals(hooks.put(hook.name(), hook));
    }

    /** {@code false} if no such hook was registered. */
    public boolean removeHook(String name) {
        return hooks.remove(name) != null;
    }

    public Collection<RegisteredHook> hooks() {
        return List.copyOf(hooks.values());
    }

    /** Whether any registered hook gates {@code stage} of {@code pool}: the bridge then requests such gates. */
    public boolean gates(Stage stage, String pool) {
        return hooks.values().stream().anyMatch(h -> h.gates(stage, pool));
    }

    /**
     * How long after opening a gate of {@code stage} of {@code pool} its request's hooks may still
     * answer: the longest wait any hook gating it is allowed (timeout plus heartbeat extension),
     * and never less than {@code floor}. Runners skip a request past its deadline, so it must not
     * come before the gatekeeper stops waiting.
     */
    public Duration deadline(Stage stage, String pool, Duration floor) {
        Duration longest = floor;
        for (RegisteredHook hook : hooks.values()) {
            if (hook.gates(stage, pool)) {
                Duration wait = hook.timeout().plus(hook.maxExtension());
                longest = wait.compareTo(longest) > 0 ? wait : longest;
            }
        }
        return longest;
    }

    /** Opens the gate a request asks for, unless it is open already at this attempt or a later one. */
    public void onGateRequest(GateRequest request) {
        if (!cluster.equals(request.cluster())) {
            return;
        }
        Gate existing = gates.get(request.gateId());
        if (existing != null && existing.request().attempt() >= request.attempt()) {
            return;
        }
        apply(GateMachine.open(request, List.copyOf(hooks.values()), clock.instant()));
    }

    /**
     * What a rebuild found: the decisions read back that the rebuilt gates stand on (they are on
     * Kafka already), and the verdicts read back that the screen refused.
     */
    public record Recovery(List<GateDecision> standing, List<VerdictScreen.Refused> refused) {}

    /**
     * Rebuilds the gates from what Kafka holds: gate requests and decisions of this cluster, then
     * the verdicts read back, oldest first. A verdict read back is only on Kafka, not proven: each
     * passes {@code screen} (the live path's screen) against its restored gate before it counts,
     * so one refused live is refused again; verdict messages in {@code recovered} are ignored.
     */
    public Recovery recover(
            List<Message> recovered,
            List<VerdictRecord> verdicts,
            Function<VerdictRecord, VerdictScreen.Screened> screen) {
        Map<String, GateRequest> requests = new LinkedHashMap<>();
        Map<String, GateDecision> latest = new HashMap<>();
        for (Message message : recovered) {
            if (!cluster.equals(message.cluster())) {
                continue;
            }
            if (message instanceof GateRequest r) {
                GateRequest known = requests.get(r.gateId());
                if (known == null || known.attempt() <= r.attempt()) {
                    requests.put(r.gateId(), r);
                }
            } else if (message instanceof GateDecision d) {
                latest.put(d.gateId() + "#" + d.attempt(), d);
            }
        }
        Instant now = clock.instant();
        List<GateDecision> standing = new ArrayList<>();
        List<String> restored = new ArrayList<>();
        for (GateRequest r : requests.values()) {
            GateDecision last = latest.get(r.gateId() + "#" + r.attempt());
            if (last != null) {
                standing.add(last);
                gates.put(r.gateId(), GateMachine.restore(r, last));
            } else {
                apply(GateMachine.open(r, List.copyOf(hooks.values()), now));
            }
            restored.add(r.gateId());
        }
        // The gates stand restored, so the screen sees each verdict's gate (who must sign, when it opened).
        Map<String, List<Verdict>> verdictsByGate = new HashMap<>();
        List<VerdictScreen.Refused> refused = new ArrayList<>();
        for (VerdictRecord record : verdicts) {
            VerdictScreen.Screened screened = screen.apply(record);
            if (screened instanceof VerdictScreen.Accepted accepted) {
                verdictsByGate
                        .computeIfAbsent(accepted.verdict().gateId(), k -> new ArrayList<>())
                        .add(accepted.verdict());
            } else if (screened instanceof VerdictScreen.Refused r) {
                refused.add(r);
            }
        }
        for (String gateId : restored) {
            apply(GateMachine.replay(gates.get(gateId), verdictsByGate.getOrDefault(gateId, List.of()), now));
        }
        return new Recovery(standing, refused);
    }

    public VerdictFate onVerdict(Verdict verdict) {
        Gate gate = gates.get(verdict.gateId());
        if (gate == null) {
            return VerdictFate.UNKNOWN_GATE;
        }
        GateMachine.Change step = GateMachine.onVerdict(gate, verdict, clock.instant());
        apply(step);
        return step.fate();
    }

    /**
     * An operator's override of a gate's current attempt. Only a gate of this cluster that is
     * still open takes one; the same override seen again (after a restart, say) changes nothing.
     */
    public OverrideRequest.Outcome onOverride(OverrideRequest request) {
        if (request.action().onRollback()) {
            throw new IllegalArgumentException(request.action() + " is for the gate's rollback, not the gate");
        }
        Gate gate = gates.get(request.gateId());
        if (gate == null) {
            return OverrideRequest.Outcome.UNKNOWN_GATE;
        }
        Gate.Override current = gate.override();
        if (current != null
                && current.release() == request.release()
                && current.by().equals(request.by())
                && current.reason().equals(request.reason())) {
            return OverrideRequest.Outcome.UNCHANGED;
        }
        if (gate.released()) {
            return OverrideRequest.Outcome.NOT_OPEN;
        }
        LOG.atWarn()
                .addKeyValue("gate", request.gateId())
                .addKeyValue("by", request.by())
                .log("operator override: {} ({})", request.release() ? "release" : "block", request.reason());
        apply(GateMachine.onOverride(gate, request.toOverride(clock.instant()), clock.instant()));
        return OverrideRequest.Outcome.APPLIED;
    }

    /** Lets time pass: deadlines may have come. */
    public void tick() {
        Instant now = clock.instant();
        for (Gate gate : new ArrayList<>(gates.values())) {
            if (!gate.released()) {
                apply(GateMachine.onTick(gate, now));
            }
        }
    }

    public Gate gate(String gateId) {
        return gates.get(gateId);
    }

    public Collection<Gate> gates() {
        return List.copyOf(gates.values());
    }

    /**
     * Forgets released gates opened before {@code before}: nothing can change them any more.
     * Returns the ids of the gates forgotten.
     */
    public List<String> forgetReleasedBefore(Instant before) {
        List<String> forgotten = new ArrayList<>();
        gates.values().removeIf(g -> {
            boolean old = g.released() && g.openedAt().isBefore(before);
            if (old) {
                forgotten.add(g.id());
            }
            return old;
        });
        return forgotten;
    }

    /** Nodes a gate holds now (opened and not released, past its first decision), per pool. */
    public Map<String, Long> heldByPool() {
        Map<String, Long> held = new HashMap<>();
        for (Gate gate : gates.values()) {
            GateDecision last = gate.last();
            if (gate.request().stage().perNode()
                    && !gate.released()
                    && last != null
                    && last.decision() != GateDecision.Decision.OPENED) {
                held.merge(gate.request().pool().name(), 1L, Long::sum);
            }
        }
        return held;
    }

    private void apply(GateMachine.Change step) {
        gates.put(step.gate().id(), step.gate());
        if (step.decision() != null) {
            decisions.accept(step.decision());
        }
    }
}
