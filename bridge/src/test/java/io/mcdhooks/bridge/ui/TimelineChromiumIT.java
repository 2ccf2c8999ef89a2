package io.mcdhooks.bridge.ui;

import static io.mcdhooks.bridge.GateFixture.SOURCE;
import static io.mcdhooks.bridge.GateFixture.TARGET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.mcdhooks.bridge.GateFixture;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The timeline at 500 nodes, in Debian's headless Chromium: the real page and script served with
 * the history of a simulated rollout fed through the real {@link RolloutObserver} (a gatekeeper's
 * gates, nodes stepping through their update), half way through, with three nodes held. The rows
 * stay within the cap, every held node has its row with its bar and blocking hook, the rest are
 * counted. The screenshot lands in {@code target/timeline-500.png}.
 */
class TimelineChromiumIT {

    private static final int NODES = 500;
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void fiveHundredNodesShowTheHeldOnesWithTheirHooksWithinTheRowCap(@TempDir Path profile) throws Exception {
        assumeTrue(Chromium.available(), Chromium.MISSING);
        // Given a rollout of 500 workers, 10 at a time, stopped half way with three nodes held
        Rollout rollout = new Rollout();
        rollout.run(240);
        URI page = serve(rollout);

        // When Chromium renders the status page
        String dom = Chromium.dumpDom(page, profile);
        Chromium.screenshot(page, profile, Path.of("target", "timeline-500.png"), 1400, 1100);

        // Then rows stay within the cap, the held nodes are first in their pool with their bars and hooks
        Matcher rows = Pattern.compile("<g class=\"tl-row").matcher(dom);
        int count = 0;
        while (rows.find()) {
            count++;
        }
        assertThat(count).isBetween(10, TimelineJson.ROW_CAP);
        for (String held : rollout.held) {
            assertThat(dom)
                    .containsPattern("<g class=\"tl-row held\" data-node=\"" + held
                            + "\" data-phase=\"HELD_(PRE|POST)_UPDATE\">" + "((?!</g>).)*class=\"tl-span phase-HELD_");
        }
        assertThat(dom)
                .containsPattern("data-node=\"" + rollout.held.get(0)
                        + "\"((?!</g>).)*held by node-selfcheck FAIL NodeUnhealthy");
        assertThat(dom)
                .containsPattern(
                        "data-node=\"" + rollout.held.get(2) + "\"((?!</g>).)*held by kmod-check FAIL ModulesMissing");
        assertThat(dom).containsPattern("<g class=\"tl-collapsed\" data-pool=\"worker\" data-count=\"\\d+\">");
        assertThat(dom).contains("of 500 nodes have a row");
        assertThat(Files.size(Path.of("target", "timeline-500.png"))).isGreaterThan(10_000);
    }

    private URI serve(Rollout rollout) throws Exception {
        Clock at = Clock.fixed(rollout.f.now(), ZoneOffset.UTC);
        TimelinePage timeline = new TimelinePage(rollout.observer, at);
        Buffer index = Buffer.buffer(TimelinePage.read(StatusPage.PAGE_RESOURCE));
        String status = StatusPage.build(
                        GateFixture.CLUSTER,
                        rollout.nodes,
                        rollout.pools,
                        rollout.f.gates(),
                        rollout.f.gatekeeper().hooks(),
                        Map.of(),
                        rollout.f.now())
                .encode();
        HttpServer server = vertx.createHttpServer()
                .requestHandler(request -> {
                    switch (request.path()) {
                        case "/" ->
                            request.response()
                                    .putHeader("content-type", "text/html")
                                    .end(index);
                        case "/api/status" ->
                            request.response()
                                    .putHeader("content-type", "application/json")
                                    .end(status);
                        case "/timeline.js" -> timeline.serveScript(request);
                        case "/api/timeline" -> timeline.serveTimeline(request);
                        default -> request.response().setStatusCode(404).end();
                    }
                })
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        return URI.create("http://127.0.0.1:" + server.actualPort() + "/");
    }

    /** Workers updated 10 at a time, 10 simulated seconds per step, through the real observer. */
    private static final class Rollout {
        final GateFixture f = new GateFixture()
                .hook("kmod-check", FailurePolicy.Fail, Stage.PRE_UPDATE)
                .hook("node-selfcheck", FailurePolicy.Fail, Stage.POST_UPDATE);
        final List<Node> nodes = new ArrayList<>();
        final List<GenericKubernetesResource> pools = new ArrayList<>();
        final RolloutObserver observer = new RolloutObserver(
                GateFixture.CLUSTER,
                () -> nodes,
                () -> pools,
                f::gates,
                id -> f.gatekeeper().gate(id));
        final List<String> held = List.of("worker-007", "worker-013", "worker-021");
        private final Map<String, Integer> step = new HashMap<>();

        Rollout() {
            for (int i = 0; i < NODES; i++) {
                nodes.add(ClusterObjects.atRest(String.format("worker-%03d", i), SOURCE));
            }
            pools.add(ClusterObjects.pool(TARGET, SOURCE, NODES, 0));
        }

        /** Steps the first {@code count} workers through their update, 10 at a time. */
        void run(int count) {
            observer.sample(f.now());
            for (int batch = 0; batch * 10 < count; batch++) {
                for (int s = 0; s < 5; s++) {
                    for (int i = batch * 10; i < Math.min(count, batch * 10 + 10); i++) {
                        advance(String.format("worker-%03d", i), s);
                    }
                    f.pass(Duration.ofSeconds(10));
                    observer.sample(f.now());
                }
            }
        }

        private void advance(String name, int s) {
            if (step.getOrDefault(name, -1) < 0 && s != 0) {
                return;
            }
            switch (s) {
                case 0 -> {
                    GateRequest pre = f.open(Stage.PRE_UPDATE, "worker", name);
                    replace(ClusterObjects.drainAsked(name, SOURCE, TARGET));
                    boolean fails = name.equals(held.get(2));
                    f.answer(
                            pre,
                            "kmod-check",
                            fails ? Outcome.FAIL : Outcome.PASS,
                            fails ? "ModulesMissing" : "ModulesReady");
                    step.put(name, fails ? -2 : 0);
                }
                case 1 ->
                    replace(ClusterObjects.node(
                            name, SOURCE, TARGET, McoApi.STATE_WORKING, McoApi.DRAIN_PREFIX + TARGET, "Rebooting"));
                case 2 -> {
                    GateRequest post = f.open(Stage.POST_UPDATE, "worker", name);
                    replace(ClusterObjects.updated(name, TARGET));
                    boolean fails = held.subList(0, 2).contains(name);
                    f.answer(
                            post,
                            "node-selfcheck",
                            fails ? Outcome.FAIL : Outcome.PASS,
                            fails ? "NodeUnhealthy" : "Healthy");
                }
                default -> {}
            }
        }

        private void replace(Node node) {
            nodes.replaceAll(
                    n -> n.getMetadata().getName().equals(node.getMetadata().getName()) ? node : n);
            observer.onNode(node, f.now());
        }
    }
}
