package io.mcdhooks.bridge.ui;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.mcdhooks.bridge.BridgeConfig;
import io.mcdhooks.bridge.gate.Gate;
import io.mcdhooks.bridge.gate.GateMachine;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.mcdhooks.bridge.gate.PoolSchedules;
import io.mcdhooks.bridge.gate.PostUpdateHold;
import io.mcdhooks.bridge.gate.RegisteredHook;
import io.mcdhooks.bridge.gate.WhyHeld;
import io.mcdhooks.bridge.gatekeeper.GatekeeperService;
import io.mcdhooks.bridge.lag.LagStatus;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.rollback.RollbackText;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.Stage;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The bridge's read-only status page: {@code /} serves a static page that polls
 * {@code /api/status}, a JSON snapshot of pools, nodes (with their {@link NodePhase}), gates,
 * hooks (with their last verdicts and consumer lag) and recent verdicts. The snapshot is built on
 * the bridge's event loop, which owns the gatekeeper's state; informer caches are read as they are.
 */
public final class StatusPage {

    static final String PAGE_RESOURCE = "ui/index.html";
    private static final int RECENT_VERDICTS = 20;

    private final String cluster;
    private final Supplier<? extends Collection<Node>> nodes;
    private final Supplier<? extends Collection<GenericKubernetesResource>> pools;
    private final Supplier<GatekeeperService> gatekeeper;
    private final Clock clock;
    private final Buffer page;

    public StatusPage(
            BridgeConfig config,
            Supplier<? extends Collection<Node>> nodes,
            Supplier<? extends Collection<GenericKubernetesResource>> pools,
            Supplier<GatekeeperService> gatekeeper,
            Clock clock) {
        this.cluster = config.cluster();
        this.nodes = nodes;
        this.pools = pools;
        this.gatekeeper = gatekeeper;
        this.clock = clock;
        this.page = Buffer.buffer(readPage());
    }

    /** {@code GET /}: the page. */
    public void servePage(HttpServerRequest request) {
        request.response()
                .putHeader("content-type", "text/html; charset=utf-8")
                .putHeader("cache-control", "no-store")
                .end(page);
    }

    /** {@code GET /api/status}: the snapshot. */
    public void serveStatus(HttpServerRequest request) {
        request.response()
                .putHeader("content-type", "application/json")
                .putHeader("cache-control", "no-store")
                .end(snapshot().encode());
    }

    /** The snapshot, built now. Call on the bridge's event loop. */
    public JsonObject snapshot() {
        GatekeeperService service = gatekeeper.get();
        Collection<Gate> gates =
                service == null ? List.of() : service.gatekeeper().gates();
        Collection<RegisteredHook> hooks =
                service == null ? List.of() : service.gatekeeper().hooks();
        Map<String, LagStatus> lags = service == null ? Map.of() : service.lag();
        Map<String, String> gatePods = service == null ? Map.of() : service.gatePodsNotHolding();
        Map<String, PoolSchedules.Status> schedules = service == null ? Map.of() : service.schedules();
        JsonObject snapshot =
                build(cluster, nodes.get(), pools.get(), gates, hooks, lags, gatePods, schedules, clock.instant());
        if (service != null) {
            withRollbacks(snapshot, service.rollbacks());
            PostUpdateHold hold = service.postUpdateHold();
            snapshot.put(
                    "postUpdateHold", new JsonObject().put("mode", hold.label()).put("enforced", hold.description()));
        }
        return snapshot;
    }

    /**
     * What a gate shows: its last decision, with the hooks' latest verdicts while that decision
     * stands. A decision is published when it changes, not on every heartbeat; the page shows
     * the heartbeats too ("PENDING Soaking: soaking: 3 min of 10 min").
     */
    private static GateDecision shown(Gate gate, Instant now) {
        GateDecision last = gate.last();
        if (last == null || gate.released()) {
            return last;
        }
        GateDecision live = GateMachine.evaluate(gate, now);
        return live.decision() == last.decision() && live.released() == last.released() ? live : last;
    }

    /**
     * Adds to each pool of {@code snapshot} its latest rollback, where it has one: where it stands,
     * from and to which config, and the failed gate that started it with why. Pure.
     */
    static void withRollbacks(JsonObject snapshot, Map<String, GateDecision> rollbacks) {
        for (Object p : snapshot.getJsonArray("pools")) {
            JsonObject pool = (JsonObject) p;
            GateDecision decision = rollbacks.get(pool.getString("name"));
            if (decision != null) {
                GateDecision.Rollback rollback = decision.rollback();
                pool.put(
                        "rollback",
                        new JsonObject()
                                .put("state", rollback.state().name())
                                .put("from", rollback.from())
                                .put("to", rollback.to())
                                .put("reason", rollback.reason())
                                .put("message", rollback.message())
                                .put("at", decision.decidedAt().toString())
                                .put("startedBy", decision.gateId())
                                .put("why", WhyHeld.of(decision))
                                .put("text", RollbackText.of(decision)));
            }
        }
    }

    /** A pool's schedule, or null when it has none (always open). */
    private static JsonObject scheduleJson(PoolSchedules.Status status) {
        if (status == null || !status.scheduled()) {
            return null;
        }
        return new JsonObject()
                .put("state", status.state().label())
                .put("takesNewNodes", status.state() == PoolSchedules.State.OPEN)
                .put("description", status.description());
    }

    /** The snapshot from its parts, every gate pod holding. Pure. */
    static JsonObject build(
            String cluster,
            Collection<Node> nodeList,
            Collection<GenericKubernetesResource> poolList,
            Collection<Gate> gateList,
            Collection<RegisteredHook> hookList,
            Map<String, LagStatus> lags,
            Instant now) {
        return build(cluster, nodeList, poolList, gateList, hookList, lags, Map.of(), Map.of(), now);
    }

    /**
     * The snapshot from its parts. Pure.
     *
     * @param gatePods gate pods that do not hold their node's drain yet, by node, with why
     * @param schedules each pool's update windows and pause, as the gatekeeper applies them
     */
    static JsonObject build(
            String cluster,
            Collection<Node> nodeList,
            Collection<GenericKubernetesResource> poolList,
            Collection<Gate> gateList,
            Collection<RegisteredHook> hookList,
            Map<String, LagStatus> lags,
            Map<String, String> gatePods,
            Map<String, PoolSchedules.Status> schedules,
            Instant now) {
        List<GateDecision> decisions = gateList.stream()
                .map(g -> shown(g, now))
                .filter(Objects::nonNull)
                .sorted(Comparator.comparing(GateDecision::openedAt, Comparator.nullsFirst(Comparator.naturalOrder()))
                        .thenComparing(GateDecision::attempt))
                .toList();
        Map<String, String> targets = new HashMap<>();
        JsonArray poolsJson = new JsonArray();
        List<GenericKubernetesResource> sortedPools = poolList.stream()
                .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
                .toList();
        for (GenericKubernetesResource pool : sortedPools) {
            String name = pool.getMetadata().getName();
            String target = string(pool.get("spec", "configuration", "name"));
            targets.put(name, target);
            GateDecision poolGate = latest(decisions, Stage.POOL_PRE_UPDATE, name, null, target);
            poolsJson.add(new JsonObject()
                    .put("name", name)
                    .put("target", target)
                    .put("current", string(pool.get("status", "configuration", "name")))
                    .put("paused", Boolean.TRUE.equals(pool.get("spec", "paused")))
                    .put("maxUnavailable", string(pool.get("spec", "maxUnavailable")))
                    .put("machineCount", number(pool.get("status", "machineCount")))
                    .put("updatedMachineCount", number(pool.get("status", "updatedMachineCount")))
                    .put("unavailableMachineCount", number(pool.get("status", "unavailableMachineCount")))
                    .put("degradedMachineCount", number(pool.get("status", "degradedMachineCount")))
                    .put("gate", poolGate == null ? null : gateJson(poolGate, lags, now))
                    .put("schedule", scheduleJson(schedules.get(name))));
        }
        JsonArray nodesJson = new JsonArray();
        List<Node> sortedNodes = nodeList.stream()
                .sorted(Comparator.comparing(n -> n.getMetadata().getName()))
                .toList();
        for (Node node : sortedNodes) {
            String name = node.getMetadata().getName();
            String pool = poolOf(node, sortedPools);
            String target = pool == null ? null : targets.get(pool);
            GateDecision pre = latest(decisions, Stage.PRE_UPDATE, pool, name, target);
            GateDecision post = latest(decisions, Stage.POST_UPDATE, pool, name, target);
            Map<String, String> annotations = node.getMetadata().getAnnotations();
            NodePhase phase = NodePhase.of(annotations, target, pre, post);
            JsonArray nodeGates = new JsonArray();
            JsonArray blocking = new JsonArray();
            for (GateDecision gate : new GateDecision[] {pre, post}) {
                if (gate != null && !gate.released()) {
                    nodeGates.add(gateJson(gate, lags, now));
                    blockingOf(gate).forEach(blocking::add);
                }
            }
            Map<String, String> labels = node.getMetadata().getLabels() == null
                    ? Map.of()
                    : node.getMetadata().getLabels();
            nodesJson.add(new JsonObject()
                    .put("name", name)
                    .put("pool", pool)
                    .put("zone", labels.get(McoApi.ZONE_LABEL))
                    .put("phase", phase.name())
                    .put("phaseLabel", phase.label())
                    .put("held", phase.held())
                    .put("currentConfig", annotation(annotations, McoApi.CURRENT_CONFIG))
                    .put("desiredConfig", annotation(annotations, McoApi.DESIRED_CONFIG))
                    .put("state", annotation(annotations, McoApi.STATE))
                    .put("cordoned", Boolean.TRUE.equals(node.getSpec().getUnschedulable()))
                    .put(
                            "tainted",
                            node.getSpec().getTaints() != null
                                    && node.getSpec().getTaints().stream()
                                            .anyMatch(t -> LeverPlan.POST_UPDATE_TAINT.equals(t.getKey())))
                    .put("gates", nodeGates)
                    .put("blocking", blocking)
                    .put("gatePodNotRunning", gatePods.get(name)));
        }
        JsonArray gatesJson = new JsonArray();
        List<JsonObject> verdicts = new ArrayList<>();
        Map<String, JsonObject> lastVerdict = new HashMap<>();
        for (GateDecision gate : decisions) {
            JsonObject json = gateJson(gate, lags, now);
            JsonArray hookStates = new JsonArray();
            for (GateDecision.HookStatus h : gate.hooks()) {
                JsonObject status = hookStatus(h);
                hookStates.add(status);
                if (h.at() != null) {
                    JsonObject verdict = status.copy()
                            .put("gate", gate.gateId())
                            .put("stage", gate.stage().wire())
                            .put("pool", gate.pool())
                            .put("node", gate.node());
                    verdicts.add(verdict);
                    lastVerdict.merge(h.hook(), verdict, (a, b) -> at(a).compareTo(at(b)) >= 0 ? a : b);
                }
            }
            gatesJson.add(json.put("hooks", hookStates));
        }
        verdicts.sort(Comparator.comparing(StatusPage::at).reversed());
        JsonArray hooksJson = new JsonArray();
        hookList.stream()
                .sorted(Comparator.comparing(RegisteredHook::name))
                .forEach(h -> hooksJson.add(new JsonObject()
                        .put("name", h.name())
                        .put(
                                "stages",
                                new JsonArray(h.stages().stream()
                                        .map(Stage::wire)
                                        .sorted()
                                        .toList()))
                        .put("pools", new JsonArray(h.pools().stream().sorted().toList()))
                        .put("mode", h.mode().name())
                        .put("failurePolicy", h.failurePolicy().name())
                        .put("timeoutSeconds", h.timeout().toSeconds())
                        .put(
                                "lag",
                                lags.get(h.name()) == null
                                        ? null
                                        : lags.get(h.name()).lag())
                        .put(
                                "lagState",
                                lags.get(h.name()) == null
                                        ? null
                                        : lags.get(h.name()).state().name())
                        .put(
                                "lagDetail",
                                lags.get(h.name()) == null
                                        ? null
                                        : lags.get(h.name()).describe(now))
                        .put("lastVerdict", lastVerdict.get(h.name()))));
        return new JsonObject()
                .put("cluster", cluster)
                .put("generatedAt", now.toString())
                .put("pools", poolsJson)
                .put("nodes", nodesJson)
                .put("gates", gatesJson)
                .put("hooks", hooksJson)
                .put(
                        "verdicts",
                        new JsonArray(verdicts.stream().limit(RECENT_VERDICTS).toList()));
    }

    private static GateDecision latest(
            List<GateDecision> decisions, Stage stage, String pool, String node, String target) {
        GateDecision found = null;
        for (GateDecision d : decisions) {
            if (d.stage() == stage
                    && Objects.equals(d.pool(), pool)
                    && Objects.equals(d.node(), node)
                    && Objects.equals(d.targetConfig(), target)) {
                found = d;
            }
        }
        return found;
    }

    private static JsonObject gateJson(GateDecision gate, Map<String, LagStatus> lags, Instant now) {
        return new JsonObject()
                .put("id", gate.gateId())
                .put("attempt", gate.attempt())
                .put("stage", gate.stage().wire())
                .put("pool", gate.pool())
                .put("node", gate.node())
                .put("target", gate.targetConfig())
                .put("decision", gate.decision().name())
                .put("released", gate.released())
                .put("blockingHooks", new JsonArray(gate.blockingHooks()))
                .put("blocking", new JsonArray(blockingOf(gate)))
                .put("summary", WhyHeld.of(gate, lags, now))
                .put("advisory", gate.advisory())
                .put(
                        "overriddenBy",
                        gate.override() == null ? null : gate.override().by())
                .put(
                        "openedAt",
                        gate.openedAt() == null ? null : gate.openedAt().toString())
                .put("decidedAt", gate.decidedAt().toString());
    }

    /** The hooks holding a gate, each with its state and reason. */
    private static List<JsonObject> blockingOf(GateDecision gate) {
        List<JsonObject> out = new ArrayList<>();
        for (GateDecision.HookStatus h : gate.hooks()) {
            if (gate.blockingHooks().contains(h.hook())) {
                out.add(hookStatus(h)
                        .put("gate", gate.gateId())
                        .put("stage", gate.stage().wire()));
            }
        }
        return out;
    }

    private static JsonObject hookStatus(GateDecision.HookStatus h) {
        return new JsonObject()
                .put("hook", h.hook())
                .put("state", h.state().name())
                .put("reason", h.reason())
                .put("message", h.message())
                .put("at", h.at() == null ? null : h.at().toString())
                .put(
                        "failurePolicy",
                        h.failurePolicy() == null ? null : h.failurePolicy().name())
                .put("timeoutSeconds", h.timeoutSeconds());
    }

    private static String at(JsonObject verdict) {
        String at = verdict.getString("at");
        return at == null ? "" : at;
    }

    /** The pool whose node selector the node matches; a custom pool wins over worker. */
    static String poolOf(Node node, List<GenericKubernetesResource> pools) {
        Map<String, String> labels = node.getMetadata().getLabels() == null
                ? Map.of()
                : node.getMetadata().getLabels();
        String found = null;
        for (GenericKubernetesResource pool : pools) {
            Object selector = pool.get("spec", "nodeSelector", "matchLabels");
            if (!(selector instanceof Map<?, ?> match) || match.isEmpty()) {
                continue;
            }
            boolean matches = match.entrySet().stream()
                    .allMatch(
                            e -> Objects.equals(labels.get(String.valueOf(e.getKey())), String.valueOf(e.getValue())));
            if (matches && (found == null || "worker".equals(found))) {
                found = pool.getMetadata().getName();
            }
        }
        return found;
    }

    private static String annotation(Map<String, String> annotations, String key) {
        return annotations == null ? null : annotations.get(key);
    }

    private static String string(Object value) {
        return value == null ? null : value.toString();
    }

    private static Long number(Object value) {
        return value instanceof Number n ? n.longValue() : null;
    }

    private static byte[] readPage() {
        try (InputStream in = StatusPage.class.getClassLoader().getResourceAsStream(PAGE_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(PAGE_RESOURCE + " is missing from the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
