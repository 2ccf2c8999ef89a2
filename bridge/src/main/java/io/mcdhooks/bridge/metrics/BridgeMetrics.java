package io.mcdhooks.bridge.metrics;

import io.mcdhooks.bridge.gate.Gate;
import io.mcdhooks.bridge.gate.PoolSchedules;
import io.mcdhooks.bridge.gate.PostUpdateHold;
import io.mcdhooks.bridge.gate.VerdictFate;
import io.mcdhooks.bridge.lag.LagStatus;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.Verdict;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bridge's and gatekeeper's metrics, in Prometheus text format at {@code /metrics}. One
 * prefix, {@code mcdhooks_}; tags {@code stage}, {@code pool}, {@code hook}, {@code outcome},
 * {@code decision}. Hook and pool names are bounded by what the cluster registers.
 */
public final class BridgeMetrics {

    private final PrometheusMeterRegistry registry;
    private final Map<String, AtomicLong> lag = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> lagState = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> held = new ConcurrentHashMap<>();
    private final Map<Tags, AtomicLong> gatesOpen = new ConcurrentHashMap<>();
    private final Map<Tags, AtomicLong> oldestOpenMillis = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> hookWaiting = new ConcurrentHashMap<>();
    private final Map<Tags, AtomicLong> nodes = new ConcurrentHashMap<>();
    private final Map<Tags, AtomicLong> holdMode = new ConcurrentHashMap<>();
    private final Map<Tags, AtomicLong> schedule = new ConcurrentHashMap<>();
    private final Map<Tags, AtomicLong> limitLeft = new ConcurrentHashMap<>();
    private final AtomicLong leader = new AtomicLong();
    private final AtomicLong gatePodsNotRunning = new AtomicLong();

    public BridgeMetrics(PrometheusMeterRegistry registry) {
        this.registry = registry;
        // Registered at once, so a standby says 0 and "no leader" is a query, not an absence.
        Gauge.builder("mcdhooks.leader", leader, AtomicLong::get)
                .description("1 while this replica leads (its bridge and gatekeeper act), 0 on a standby")
                .register(registry);
        Gauge.builder("mcdhooks.gate.pods.not.running", gatePodsNotRunning, AtomicLong::get)
                .description("Gate pods that exist but are not Running and Ready: they do not hold their node's"
                        + " drain yet, and their pool stays paused")
                .register(registry);
    }

    /** How many gate pods exist but do not hold their node's drain (not Running and Ready). */
    public void gatePodsNotRunning(int count) {
        gatePodsNotRunning.set(count);
    }

    /** A registry with the JVM's own meters (memory, GC, threads, CPU) bound, as the process serves them. */
    public static BridgeMetrics create() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        return new BridgeMetrics(registry);
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The Prometheus text exposition of every metric. */
    public String scrape() {
        return registry.scrape();
    }

    public void decision(GateDecision d) {
        Tags tags = Tags.of("stage", d.stage().wire(), "pool", d.pool());
        if (d.decision() == GateDecision.Decision.OPENED) {
            Counter.builder("mcdhooks.gates.opened")
                    .description("Gates opened")
                    .tags(tags)
                    .register(registry)
                    .increment();
            return;
        }
        Counter.builder("mcdhooks.gate.decisions")
                .description("Gate decisions, by what was decided")
                .tags(tags)
                .tag("decision", d.decision().name())
                .tag("released", Boolean.toString(d.released()))
                .register(registry)
                .increment();
        if (d.released() && d.openedAt() != null) {
            Timer.builder("mcdhooks.gate.release")
                    .description("From a gate's opening to its release")
                    .tags(tags)
                    .publishPercentileHistogram()
                    .register(registry)
                    .record(Duration.between(d.openedAt(), d.decidedAt()));
        }
    }

    public void verdict(Verdict v, VerdictFate fate, Instant openedAt, Instant receivedAt) {
        Counter.builder("mcdhooks.verdicts")
                .description("Verdicts received, by what became of them")
                .tags("hook", v.hook(), "outcome", v.outcome().name(), "fate", fate.name())
                .register(registry)
                .increment();
        if (fate == VerdictFate.ACCEPTED && openedAt != null) {
            Timer.builder("mcdhooks.gate.verdict")
                    .description("From a gate's opening to each verdict on it")
                    .tags("hook", v.hook(), "stage", v.stage().wire())
                    .publishPercentileHistogram()
                    .register(registry)
                    .record(Duration.between(openedAt, receivedAt));
        }
    }

    public void deadLetter(String reason) {
        Counter.builder("mcdhooks.dead.letters")
                .description("Records refused and sent to the dead-letter topic")
                .tag("reason", reason)
                .register(registry)
                .increment();
    }

    public void publishFailure(String topic) {
        Counter.builder("mcdhooks.publish.failures")
                .description("Sends that failed and will be retried")
                .tag("topic", topic)
                .register(registry)
                .increment();
    }

    /** Each hook's lag on the gate requests and its state (0 OK, 1 WARNING, 2 STALLED, 3 STOPPED, 4 ERROR). */
    public void lag(Map<String, LagStatus> statuses) {
        statuses.forEach((hook, status) -> {
            gauge(lag, "mcdhooks.hook.lag", "Gate requests the hook has not committed", "hook", hook)
                    .set(status.lag());
            gauge(lagState, "mcdhooks.hook.lag.state", "0 OK, 1 WARNING, 2 STALLED, 3 STOPPED, 4 ERROR", "hook", hook)
                    .set(status.state().ordinal());
        });
    }

    /** Nodes whose gate holds them now, per pool. */
    public void held(Map<String, Long> nodesHeldByPool) {
        held.forEach((pool, value) -> value.set(nodesHeldByPool.getOrDefault(pool, 0L)));
        nodesHeldByPool.forEach(
                (pool, count) -> gauge(held, "mcdhooks.nodes.held", "Nodes a closed gate holds", "pool", pool)
                        .set(count));
    }

    /** Whether this replica leads: set when its bridge starts and stops. */
    public void leading(boolean leading) {
        leader.set(leading ? 1 : 0);
    }

    /**
     * The gates not yet released, now: how many per stage, pool and last decision, the age of the
     * oldest per stage and pool (what an alert compares with the MCO's 10-minute and 1-hour
     * limits), and how many wait on each enforcing hook. Series seen before and gone now read 0.
     */
    public void gates(Collection<Gate> gates, Instant now) {
        GateGauges g = GateGauges.of(gates, now);
        Map<Tags, Long> open = new HashMap<>();
        g.open()
                .forEach((k, count) ->
                        open.put(Tags.of("stage", k.stage(), "pool", k.pool(), "decision", k.decision()), count));
        set(gatesOpen, open, "mcdhooks.gates.open", "Gates not released, by their last decision", null, 1);
        Map<Tags, Long> oldest = new HashMap<>();
        g.oldest().forEach((k, age) -> oldest.put(Tags.of("stage", k.stage(), "pool", k.pool()), age.toMillis()));
        set(
                oldestOpenMillis,
                oldest,
                "mcdhooks.gate.oldest.open",
                "How long the oldest gate of this stage and pool not yet released has been open",
                "seconds",
                1000);
        hookWaiting.forEach((hook, value) -> value.set(g.waiting().getOrDefault(hook, 0L)));
        g.waiting()
                .forEach((hook, count) -> gauge(
                                hookWaiting,
                                "mcdhooks.hook.gates.waiting",
                                "Gates not released that wait on this enforcing hook's verdict",
                                "hook",
                                hook)
                        .set(count));
    }

    /**
     * How post-update gates hold in each pool ({@code mcdhooks_post_update_hold_mode}): 1 for the
     * mode in force, 0 for the others, so an alert can ask for the fallback.
     */
    public void holdMode(Collection<String> pools, PostUpdateHold mode) {
        Map<Tags, Long> values = new HashMap<>();
        for (String pool : pools) {
            for (PostUpdateHold m : PostUpdateHold.values()) {
                values.put(Tags.of("pool", pool, "mode", m.label()), m == mode ? 1L : 0L);
            }
        }
        set(holdMode, values, "mcdhooks.post.update.hold.mode", "How post-update gates hold nodes here", null, 1);
    }

    /**
     * Whether each pool takes new nodes by its schedule ({@code mcdhooks_pool_schedule}): 1 for
     * its state now ({@code open}, {@code pausing} between nodes, {@code closed} outside its
     * windows, {@code invalid}), 0 for the others.
     */
    public void schedules(Map<String, PoolSchedules.State> states) {
        Map<Tags, Long> values = new HashMap<>();
        states.forEach((pool, state) -> {
            for (PoolSchedules.State s : PoolSchedules.State.values()) {
                values.put(Tags.of("pool", pool, "state", s.label()), s == state ? 1L : 0L);
            }
        });
        set(schedule, values, "mcdhooks.pool.schedule", "Whether the pool takes new nodes by its schedule", null, 1);
    }

    /**
     * Per pool and MCO limit ({@code uncordon}: the MCD's 10 minutes on the uncordon handshake;
     * {@code drain}: its hour on a drain), the least time left before a node a gate holds reaches it
     * ({@code mcdhooks_hold_limit_left_seconds}); negative once past it.
     */
    public void holdLimits(Map<String, Map<String, Duration>> leftByPoolAndLimit) {
        Map<Tags, Long> values = new HashMap<>();
        leftByPoolAndLimit.forEach((pool, limits) ->
                limits.forEach((limit, left) -> values.put(Tags.of("pool", pool, "limit", limit), left.toMillis())));
        // Unlike the counts, a series whose hold is gone must go: 0 would read "at the limit now".
        limitLeft.keySet().removeIf(tags -> {
            if (values.containsKey(tags)) {
                return false;
            }
            registry.find("mcdhooks.hold.limit.left").tags(tags).meters().forEach(registry::remove);
            return true;
        });
        set(
                limitLeft,
                values,
                "mcdhooks.hold.limit.left",
                "Least time left before a held node reaches the MCO's limit (uncordon 10 min, drain 1 h)",
                "seconds",
                1000);
    }

    /** Nodes per pool and rollout phase (the status page's phases), e.g. {@code worker → DONE → 3}. */
    public void nodePhases(Map<String, Map<String, Long>> counts) {
        Map<Tags, Long> values = new HashMap<>();
        counts.forEach((pool, phases) ->
                phases.forEach((phase, count) -> values.put(Tags.of("pool", pool, "phase", phase), count)));
        set(nodes, values, "mcdhooks.nodes", "Nodes by pool and rollout phase", null, 1);
    }

    /** Sets one gauge per tag set; tag sets known before and absent now read 0. */
    private void set(
            Map<Tags, AtomicLong> known,
            Map<Tags, Long> now,
            String name,
            String description,
            String unit,
            double divisor) {
        known.forEach((tags, value) -> value.set(now.getOrDefault(tags, 0L)));
        now.forEach((tags, value) -> known.computeIfAbsent(tags, t -> {
                    AtomicLong holder = new AtomicLong();
                    Gauge.builder(name, holder, h -> h.get() / divisor)
                            .description(description)
                            .baseUnit(unit)
                            .tags(t)
                            .register(registry);
                    return holder;
                })
                .set(value));
    }

    private AtomicLong gauge(
            Map<String, AtomicLong> values, String name, String description, String tag, String value) {
        return values.computeIfAbsent(value, v -> {
            AtomicLong holder = new AtomicLong();
            Gauge.builder(name, holder, AtomicLong::get)
                    .description(description)
                    .tag(tag, v)
                    .register(registry);
            return holder;
        });
    }
}
