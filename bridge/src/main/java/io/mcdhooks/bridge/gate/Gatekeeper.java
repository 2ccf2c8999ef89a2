package io.mcdhooks.bridge.gate;

import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
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
    private final Map<String, HookSpec> hooks = new HashMap<>();

    /** @param decisions receives every decision that changed, in order */
    public Gatekeeper(String cluster, Clock clock, Consumer<GateDecision> decisions) {
        this.cluster = cluster;
        this.clock = clock;
        this.decisions = decisions;
    }

    /** Registers or replaces a hook; {@code false} if it was registered with the same spec already. */
    public boolean putHook(HookSpec hook) {
        return !hook.equals(hooks.put(hook.name(), hook));
    }

    /** {@code false} if no such hook was registered. */
    public boolean removeHook(String name) {
        return hooks.remove(name) != null;
    }

    public Collection<HookSpec> hooks() {
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
        for (HookSpec hook : hooks.values()) {
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

    /** A gate as it stood before a restart: its latest decision, then the verdicts it had received. */
    public void restore(GateRequest request, GateDecision latest, List<Verdict> verdicts) {
        Instant now = clock.instant();
        GateMachine.Step step = latest == null
                ? GateMachine.open(request, List.copyOf(hooks.values()), now)
                : new GateMachine.Step(GateMachine.restore(request, latest), null, null);
        if (step.decision() != null) {
            decisions.accept(step.decision());
        }
        apply(GateMachine.replay(step.gate(), verdicts, now));
    }

    public VerdictFate onVerdict(Verdict verdict) {
        Gate gate = gates.get(verdict.gateId());
        if (gate == null) {
            return VerdictFate.UNKNOWN_GATE;
        }
        GateMachine.Step step = GateMachine.onVerdict(gate, verdict, clock.instant());
        apply(step);
        return step.fate();
    }

    /**
     * An operator's override of a gate's current attempt; {@code false} if there is no such gate.
     * The same override seen again (the annotation stays on its object) changes nothing.
     */
    public boolean onOverride(String gateId, Gate.Override override) {
        Gate gate = gates.get(gateId);
        if (gate == null) {
            return false;
        }
        Gate.Override current = gate.override();
        boolean same = current != null
                && current.release() == override.release()
                && current.by().equals(override.by())
                && current.reason().equals(override.reason());
        if (!same) {
            LOG.atWarn()
                    .addKeyValue("gate", gateId)
                    .addKeyValue("by", override.by())
                    .log("operator override: {} ({})", override.release() ? "release" : "block", override.reason());
            apply(GateMachine.onOverride(gate, override, clock.instant()));
        }
        return true;
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

    /** Forgets released gates opened before {@code before}: nothing can change them any more. */
    public void forgetReleasedBefore(Instant before) {
        gates.values().removeIf(g -> g.released() && g.openedAt().isBefore(before));
    }

    private void apply(GateMachine.Step step) {
        gates.put(step.gate().id(), step.gate());
        if (step.decision() != null) {
            decisions.accept(step.decision());
        }
    }
}
