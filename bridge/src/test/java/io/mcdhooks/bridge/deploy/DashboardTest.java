package io.mcdhooks.bridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mcdhooks.bridge.GateFixture;
import io.mcdhooks.bridge.gate.VerdictFate;
import io.mcdhooks.bridge.lag.LagState;
import io.mcdhooks.bridge.lag.LagStatus;
import io.mcdhooks.bridge.metrics.BridgeMetrics;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard ({@code deploy/monitoring/dashboard/mcdhooks-rollout.json}) asks only for metrics
 * the code exports (the bridge's from its registry, the runners' from the documented list), every
 * query parses (promtool has no expression check: each becomes a recording rule of a file
 * {@code promtool check rules} reads), and it uses only what the OpenShift console draws.
 */
class DashboardTest {

    static final Path DASHBOARD =
            Manifests.DEPLOY.resolve("monitoring").resolve("dashboard").resolve("mcdhooks-rollout.json");
    private static final Path OBSERVABILITY =
            Manifests.DEPLOY.resolveSibling("docs").resolve("observability.md");
    /** What the console's dashboards draw (openshift/console, monitoring dashboards' Card). */
    private static final Set<String> CONSOLE_PANELS = Set.of("graph", "singlestat", "table", "gauge");

    private static final Pattern METRIC_BEFORE_SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*\\{");
    private static final Pattern OUR_METRIC = Pattern.compile("\\bmcdhooks_[a-z_]+");

    @Test
    void everyQueryNamesOnlyMetricsTheCodeExports() throws Exception {
        Set<String> exported = exported();
        List<String> queries = queries();
        assertThat(queries).hasSizeGreaterThan(20);
        for (String query : queries) {
            Set<String> named = new TreeSet<>();
            Matcher ours = OUR_METRIC.matcher(query);
            while (ours.find()) {
                named.add(ours.group());
            }
            Matcher selector = METRIC_BEFORE_SELECTOR.matcher(query);
            while (selector.find()) {
                named.add(selector.group(1));
            }
            assertThat(named).as(query).isNotEmpty();
            assertThat(exported).as(query).containsAll(named);
        }
    }

    @Test
    void everyQueryParses(@TempDir Path dir) throws Exception {
        Promtool.assumeInstalled();
        ArrayNode rules = JsonNodeFactory.instance.arrayNode();
        List<String> queries = queries();
        for (int i = 0; i < queries.size(); i++) {
            rules.addObject().put("record", "dashboard:query_" + i).put("expr", concrete(queries.get(i)));
        }
        ObjectNode file = JsonNodeFactory.instance.objectNode();
        file.putArray("groups").addObject().put("name", "dashboard").set("rules", rules);
        Promtool.write(dir, "dashboard-queries.yaml", file);

        Promtool.Result check = Promtool.run(dir, "check", "rules", "dashboard-queries.yaml");

        assertThat(check.exit()).as(check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS: " + queries.size() + " rules found");
    }

    @Test
    void itDrawsInTheOpenShiftConsoleAndInGrafana() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        assertThat(dashboard.path("title").asText()).isEqualTo("mcd-update-hooks / Rollout");
        assertThat(dashboard.path("uid").asText()).isNotBlank();
        // The console reads rows of panels (Grafana's older layout, which Grafana still imports).
        assertThat(dashboard.path("rows")).isNotEmpty();
        Set<String> titles = new TreeSet<>();
        Set<Integer> ids = new TreeSet<>();
        for (JsonNode row : dashboard.path("rows")) {
            for (JsonNode panel : row.path("panels")) {
                assertThat(panel.path("type").asText())
                        .as(panel.path("title").asText())
                        .isIn(CONSOLE_PANELS);
                assertThat(panel.path("span").asInt()).isBetween(1, 12);
                assertThat(panel.path("targets"))
                        .as(panel.path("title").asText())
                        .isNotEmpty();
                assertThat(ids.add(panel.path("id").asInt()))
                        .as("unique id " + panel.path("id"))
                        .isTrue();
                titles.add(panel.path("title").asText().toLowerCase());
            }
        }
        assertThat(String.join("\n", titles))
                .contains("rollout progress per pool")
                .contains("held nodes")
                .contains("gate latency: request to each verdict")
                .contains("gate latency: request to release")
                .contains("hook lag")
                .contains("verdicts counted per minute")
                .contains("refused");
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            assertThat(variable.path("type").asText()).isIn("datasource", "query");
        }
    }

    /** Every query of every panel, and of every variable. */
    static List<String> queries() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        List<String> queries = new ArrayList<>();
        for (JsonNode row : dashboard.path("rows")) {
            for (JsonNode panel : row.path("panels")) {
                panel.path("targets").forEach(t -> queries.add(t.path("expr").asText()));
            }
        }
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if (variable.path("type").asText().equals("query")) {
                queries.add(variable.path("query").asText());
            }
        }
        return queries;
    }

    /** A query as the console or Grafana sends it: variables filled in, label_values as a query. */
    private static String concrete(String query) {
        return query.replace("$__rate_interval", "5m")
                .replace("$pool", ".+")
                .replaceAll("label_values\\((.*), (.*)\\)", "count($1) by ($2)");
    }

    /**
     * What Prometheus scrapes from the code: the bridge's registry with every meter in use, and the
     * hook runners' metrics as documented (their own test checks the runner's registry).
     */
    private static Set<String> exported() throws Exception {
        Set<String> names = bridgeMetrics();
        Matcher runner =
                Pattern.compile("\\| `(mcdhooks_runner_[a-z_]+)` \\|").matcher(Files.readString(OBSERVABILITY));
        while (runner.find()) {
            names.add(runner.group(1));
        }
        return names;
    }

    @Test
    void theDocsListEveryMetricOfTheBridgeAndNoOther() throws Exception {
        Set<String> exported = new TreeSet<>();
        for (String name : bridgeMetrics()) {
            if (name.startsWith("mcdhooks_")) {
                exported.add(name.replaceAll("_(bucket|count|sum|max)$", ""));
            }
        }
        Set<String> documented = new TreeSet<>();
        Matcher row = Pattern.compile("(?m)^\\| `(mcdhooks_[a-z_]+)` \\|[^\\n]*\\|([^|\\n]*)\\|$")
                .matcher(Files.readString(OBSERVABILITY));
        while (row.find()) {
            if (!row.group(2).contains("(runner)")) {
                documented.add(row.group(1));
            }
        }
        assertThat(documented).isEqualTo(exported);
    }

    /** The bridge's metric names, every meter in use once. */
    private static Set<String> bridgeMetrics() {
        BridgeMetrics metrics = BridgeMetrics.create();
        GateFixture f = new GateFixture().hook("kmod-check", FailurePolicy.Fail, Stage.PRE_UPDATE);
        GateRequest request = f.open(Stage.PRE_UPDATE, "worker", "worker-0");
        f.pass(Duration.ofSeconds(3)).answer(request, "kmod-check", Outcome.PASS, "ModulesReady");
        GateDecision released = f.last(request.gateId());
        metrics.decision(new GateDecision(
                released.cluster(),
                released.gateId(),
                released.attempt(),
                released.stage(),
                released.pool(),
                released.node(),
                released.targetConfig(),
                GateDecision.Decision.OPENED,
                false,
                released.hooks(),
                List.of(),
                "opened",
                null,
                released.openedAt(),
                released.openedAt()));
        metrics.decision(released);
        metrics.verdict(
                Verdict.answering(request, "kmod-check", Outcome.PASS, "ModulesReady", null, null, f.now()),
                VerdictFate.ACCEPTED,
                request.requestedAt(),
                f.now());
        metrics.deadLetter("SCHEMA_VIOLATION");
        metrics.publishFailure("mcdhooks.lifecycle.v1");
        metrics.lag(Map.of("kmod-check", new LagStatus("kmod-check", LagState.OK, 0, null, null)));
        metrics.held(Map.of("worker", 0L));
        f.open(Stage.PRE_UPDATE, "worker", "worker-1");
        metrics.gates(f.gates(), f.now());
        metrics.nodePhases(Map.of("worker", Map.of("DONE", 1L)));
        Set<String> names = new TreeSet<>();
        for (String line : metrics.scrape().split("\n")) {
            if (!line.startsWith("#") && !line.isBlank()) {
                names.add(line.split("[{ ]", 2)[0]);
            }
        }
        return names;
    }
}
