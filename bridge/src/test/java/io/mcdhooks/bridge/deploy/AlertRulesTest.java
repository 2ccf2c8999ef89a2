package io.mcdhooks.bridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped alerts ({@code deploy/monitoring/prometheus-rules.yaml}), checked and unit-tested by
 * Prometheus's own promtool against series written here: each fires once its threshold has held
 * for its {@code for:}, well before the MCO limit it guards, and not on series that should not
 * page. Each says what to do and links a runbook section of docs/operations.md that exists.
 */
class AlertRulesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path OPERATIONS =
            Manifests.DEPLOY.resolveSibling("docs").resolve("operations.md");

    @Test
    void theShippedRulesPassPromtoolCheck(@TempDir Path dir) throws Exception {
        Promtool.assumeInstalled();
        Promtool.write(dir, "rules.yaml", Promtool.shippedRuleGroups());

        Promtool.Result check = Promtool.run(dir, "check", "rules", "rules.yaml");

        assertThat(check.exit()).as(check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS: " + alerts().size() + " rules found");
    }

    @Test
    void everyAlertFiresBeforeTheMcoLimitItGuardsAndOnlyWhenItShould(@TempDir Path dir) throws Exception {
        Promtool.assumeInstalled();
        Promtool.write(dir, "rules.yaml", Promtool.shippedRuleGroups());
        String tests = tests();
        Files.writeString(dir.resolve("tests.yaml"), tests);

        Promtool.Result result = Promtool.run(dir, "test", "rules", "tests.yaml");

        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS");
        Set<String> tested = new TreeSet<>();
        Matcher m = Pattern.compile("alertname: (\\w+)").matcher(tests);
        while (m.find()) {
            tested.add(m.group(1));
        }
        assertThat(tested).as("every alert has a promtool test").isEqualTo(alerts().keySet());
    }

    @Test
    void everyAlertHasAForASeveritySaysWhatToDoAndLinksItsRunbook() throws Exception {
        String operations = Files.readString(OPERATIONS);
        Set<String> anchors = anchors(operations);
        assertThat(alerts()).hasSizeGreaterThanOrEqualTo(9).allSatisfy((name, rule) -> {
            assertThat(rule.path("for").asText()).as(name + " for").matches("\\d+[smh]");
            assertThat(rule.path("labels").path("severity").asText())
                    .as(name + " severity")
                    .isIn("warning", "critical");
            JsonNode a = rule.path("annotations");
            for (String label : byLabels(rule.path("expr").asText())) {
                assertThat(a.path("summary").asText())
                        .as(name + " summary names its " + label)
                        .contains("{{ $labels." + label + " }}");
            }
            assertThat(a.path("description").asText()).as(name + " description").hasSizeGreaterThan(80);
            String runbook = a.path("runbook_url").asText();
            assertThat(runbook).as(name + " runbook").isEqualTo("docs/operations.md#" + name.toLowerCase());
            assertThat(anchors).as(name + " has its runbook section").contains(name.toLowerCase());
            assertThat(operations)
                    .as("docs/operations.md lists " + name)
                    .contains("| [`" + name + "`](#" + name.toLowerCase() + ") | "
                            + rule.path("labels").path("severity").asText() + " |");
        });
    }

    /** The promtool unit tests: series per minute, and what must (not) be firing when. */
    private static String tests() throws Exception {
        return """
                rule_files: [rules.yaml]
                evaluation_interval: 1m
                tests:
                  # A pre-update gate open for 70 minutes in pool worker (the MCD's drain gives up at
                  # 60), another released after 10; a post-update gate held 20 minutes, then released.
                  - interval: 1m
                    input_series:
                      - series: 'mcdhooks_gate_oldest_open_seconds{stage="pre-update",pool="worker",pod="bridge-0"}'
                        values: '0+60x70'
                      - series: 'mcdhooks_gate_oldest_open_seconds{stage="pre-update",pool="infra",pod="bridge-0"}'
                        values: '0+60x10 0x60'
                      - series: 'mcdhooks_gate_oldest_open_seconds{stage="post-update",pool="worker",pod="bridge-0"}'
                        values: '0+60x20 0x50'
                    alert_rule_test:
                      - {eval_time: 45m, alertname: McdHooksPreUpdateHoldNearDrainLimit, exp_alerts: []}
                      - {eval_time: 46m, alertname: McdHooksPreUpdateHoldNearDrainLimit, exp_alerts: [%s]}
                      - {eval_time: 59m, alertname: McdHooksPreUpdateHoldNearDrainLimit, exp_alerts: [%s]}
                      - {eval_time: 6m, alertname: McdHooksPostUpdateHoldNearUncordonLimit, exp_alerts: []}
                      - {eval_time: 7m, alertname: McdHooksPostUpdateHoldNearUncordonLimit, exp_alerts: [%s]}
                      - {eval_time: 25m, alertname: McdHooksPostUpdateHoldNearUncordonLimit, exp_alerts: []}
                  # A node held at its uncordon from minute 0 (10 min left, then less each minute) in pool
                  # worker, released at minute 9; a drain held in pool infra, 20 min left at minute 0;
                  # pool worker under batch pacing from minute 2, pool infra enforced all along.
                  - interval: 1m
                    input_series:
                      - series: 'mcdhooks_hold_limit_left_seconds{pool="worker",limit="uncordon",pod="bridge-0"}'
                        values: '600-60x8 _x10'
                      - series: 'mcdhooks_hold_limit_left_seconds{pool="infra",limit="drain",pod="bridge-0"}'
                        values: '1200-60x18'
                      - series: 'mcdhooks_post_update_hold_mode{pool="worker",mode="BatchPacing",pod="bridge-0"}'
                        values: '0 0 1x20'
                      - series: 'mcdhooks_post_update_hold_mode{pool="infra",mode="BatchPacing",pod="bridge-0"}'
                        values: '0x22'
                      - series: 'mcdhooks_post_update_hold_mode{pool="infra",mode="Admission",pod="bridge-0"}'
                        values: '1x22'
                    alert_rule_test:
                      - {eval_time: 6m, alertname: McdHooksHoldNearMcoLimit, exp_alerts: [%s]}
                      - {eval_time: 7m, alertname: McdHooksHoldNearMcoLimit, exp_alerts: [%s]}
                      - {eval_time: 8m, alertname: McdHooksHoldNearMcoLimit, exp_alerts: [%s, %s]}
                      - {eval_time: 15m, alertname: McdHooksHoldNearMcoLimit, exp_alerts: [%s]}
                      - {eval_time: 11m, alertname: McdHooksPostUpdateHoldFallback, exp_alerts: []}
                      - {eval_time: 12m, alertname: McdHooksPostUpdateHoldFallback, exp_alerts: [%s]}
                  # A post-update gate blocked from minute 2, two pre-update gates timed out closed from
                  # minute 3, five gates still checking all along.
                  - interval: 1m
                    input_series:
                      - series: 'mcdhooks_gates_open{stage="post-update",pool="worker",decision="BLOCKED",pod="bridge-0"}'
                        values: '0 0 1 1 1 1'
                      - series: 'mcdhooks_gates_open{stage="pre-update",pool="worker",decision="TIMED_OUT",pod="bridge-0"}'
                        values: '0 0 0 2 2 2'
                      - series: 'mcdhooks_gates_open{stage="pre-update",pool="worker",decision="OPENED",pod="bridge-0"}'
                        values: '5x5'
                    alert_rule_test:
                      - {eval_time: 2m, alertname: McdHooksGateBlocked, exp_alerts: []}
                      - {eval_time: 3m, alertname: McdHooksGateBlocked, exp_alerts: [%s]}
                      - {eval_time: 3m, alertname: McdHooksGateTimedOutClosed, exp_alerts: []}
                      - {eval_time: 4m, alertname: McdHooksGateTimedOutClosed, exp_alerts: [%s]}
                  # Two gate pods whose image cannot be pulled from minute 1; one runs at minute 9, the
                  # other at 12. A pod Pending for a moment (minute 20) does not alert.
                  - interval: 1m
                    input_series:
                      - series: 'mcdhooks_gate_pods_not_running{pod="bridge-0"}'
                        values: '0 2 2 2 2 2 2 2 2 1 1 1 0 0 0 0 0 0 0 0 1 1 0 0'
                      - series: 'mcdhooks_gate_pods_not_running{pod="bridge-1"}'
                        values: '0x23'
                    alert_rule_test:
                      - {eval_time: 5m, alertname: McdHooksGatePodsNotRunning, exp_alerts: []}
                      - {eval_time: 6m, alertname: McdHooksGatePodsNotRunning, exp_alerts: [%s]}
                      - {eval_time: 10m, alertname: McdHooksGatePodsNotRunning, exp_alerts: [%s]}
                      - {eval_time: 12m, alertname: McdHooksGatePodsNotRunning, exp_alerts: []}
                      - {eval_time: 23m, alertname: McdHooksGatePodsNotRunning, exp_alerts: []}
                  # kmod-check STALLED from minute 2 with a gate waiting; cmdb-sync STOPPED all along, a
                  # gate waiting on it from minute 3; idle STOPPED with nothing waiting: no page.
                  - interval: 1m
                    input_series:
                      - series: 'mcdhooks_hook_lag_state{hook="kmod-check",pod="bridge-0"}'
                        values: '0 0 2 2 2 2 2'
                      - series: 'mcdhooks_hook_gates_waiting{hook="kmod-check",pod="bridge-0"}'
                        values: '1x6'
                      - series: 'mcdhooks_hook_lag_state{hook="cmdb-sync",pod="bridge-0"}'
                        values: '3x6'
                      - series: 'mcdhooks_hook_gates_waiting{hook="cmdb-sync",pod="bridge-0"}'
                        values: '0 0 0 1 1 1 1'
                      - series: 'mcdhooks_hook_lag_state{hook="idle",pod="bridge-0"}'
                        values: '3x6'
                      - series: 'mcdhooks_hook_gates_waiting{hook="idle",pod="bridge-0"}'
                        values: '0x6'
                    alert_rule_test:
                      - {eval_time: 3m, alertname: McdHooksHookStalled, exp_alerts: []}
                      - {eval_time: 4m, alertname: McdHooksHookStalled, exp_alerts: [%s]}
                      - {eval_time: 4m, alertname: McdHooksHookStopped, exp_alerts: []}
                      - {eval_time: 5m, alertname: McdHooksHookStopped, exp_alerts: [%s]}
                  # The first forged verdict (its counter appears at 1 in minute 3), unsigned ones from
                  # minute 6 on a counter at 0 before; a malformed record in minute 2; refusals counted
                  # from the start of the data that no longer grow.
                  - interval: 1m
                    input_series:
                      - series: 'mcdhooks_dead_letters_total{reason="SIGNATURE_BAD_SIGNATURE",pod="bridge-0"}'
                        values: '_x3 1x16'
                      - series: 'mcdhooks_dead_letters_total{reason="SIGNATURE_UNSIGNED",pod="bridge-0"}'
                        values: '0x5 1x14'
                      - series: 'mcdhooks_dead_letters_total{reason="SCHEMA_VIOLATION",pod="bridge-0"}'
                        values: '_x2 3x17'
                      - series: 'mcdhooks_dead_letters_total{reason="UNKNOWN_GATE",pod="bridge-0"}'
                        values: '7x19'
                    alert_rule_test:
                      - {eval_time: 3m, alertname: McdHooksVerdictSignaturesRefused, exp_alerts: []}
                      - {eval_time: 4m, alertname: McdHooksVerdictSignaturesRefused, exp_alerts: [%s]}
                      - {eval_time: 7m, alertname: McdHooksVerdictSignaturesRefused, exp_alerts: [%s, %s]}
                      - {eval_time: 17m, alertname: McdHooksVerdictSignaturesRefused, exp_alerts: []}
                      - {eval_time: 3m, alertname: McdHooksVerdictsRefused, exp_alerts: [%s, %s]}
                      - {eval_time: 11m, alertname: McdHooksVerdictsRefused, exp_alerts: [%s]}
                      - {eval_time: 12m, alertname: McdHooksVerdictsRefused, exp_alerts: []}
                  # The leader exits at minute 3; the standby takes the lease at minute 6.
                  - interval: 1m
                    input_series:
                      - series: 'mcdhooks_leader{pod="bridge-0"}'
                        values: '1 1 1 0 0 0 0 0 0 0'
                      - series: 'mcdhooks_leader{pod="bridge-1"}'
                        values: '0 0 0 0 0 0 1 1 1 1'
                    alert_rule_test:
                      - {eval_time: 4m, alertname: McdHooksNoLeader, exp_alerts: []}
                      - {eval_time: 5m, alertname: McdHooksNoLeader, exp_alerts: [%s]}
                      - {eval_time: 6m, alertname: McdHooksNoLeader, exp_alerts: []}
                  # No bridge scraped at all.
                  - interval: 1m
                    input_series: []
                    alert_rule_test:
                      - {eval_time: 1m, alertname: McdHooksNoLeader, exp_alerts: []}
                      - {eval_time: 2m, alertname: McdHooksNoLeader, exp_alerts: [%s]}
                """.formatted(
                        exp("McdHooksPreUpdateHoldNearDrainLimit", Map.of("pool", "worker"), "46m 0s"),
                        exp("McdHooksPreUpdateHoldNearDrainLimit", Map.of("pool", "worker"), "59m 0s"),
                        exp("McdHooksPostUpdateHoldNearUncordonLimit", Map.of("pool", "worker"), "7m 0s"),
                        exp("McdHooksHoldNearMcoLimit", Map.of("pool", "infra", "limit", "drain"), "14m 0s"),
                        exp("McdHooksHoldNearMcoLimit", Map.of("pool", "infra", "limit", "drain"), "13m 0s"),
                        exp("McdHooksHoldNearMcoLimit", Map.of("pool", "infra", "limit", "drain"), "12m 0s"),
                        exp("McdHooksHoldNearMcoLimit", Map.of("pool", "worker", "limit", "uncordon"), "2m 0s"),
                        exp("McdHooksHoldNearMcoLimit", Map.of("pool", "infra", "limit", "drain"), "5m 0s"),
                        exp("McdHooksPostUpdateHoldFallback", Map.of("pool", "worker"), "1"),
                        exp("McdHooksGateBlocked", Map.of("stage", "post-update", "pool", "worker"), "1"),
                        exp("McdHooksGateTimedOutClosed", Map.of("stage", "pre-update", "pool", "worker"), "2"),
                        exp("McdHooksGatePodsNotRunning", Map.of(), "2"),
                        exp("McdHooksGatePodsNotRunning", Map.of(), "1"),
                        exp("McdHooksHookStalled", Map.of("hook", "kmod-check"), "2"),
                        exp("McdHooksHookStopped", Map.of("hook", "cmdb-sync"), "3"),
                        exp("McdHooksVerdictSignaturesRefused", Map.of("reason", "SIGNATURE_BAD_SIGNATURE"), "1"),
                        exp("McdHooksVerdictSignaturesRefused", Map.of("reason", "SIGNATURE_BAD_SIGNATURE"), "1"),
                        exp("McdHooksVerdictSignaturesRefused", Map.of("reason", "SIGNATURE_UNSIGNED"), "1"),
                        exp("McdHooksVerdictsRefused", Map.of("reason", "SCHEMA_VIOLATION"), "3"),
                        exp("McdHooksVerdictsRefused", Map.of("reason", "UNKNOWN_GATE"), "7"),
                        exp("McdHooksVerdictsRefused", Map.of("reason", "SCHEMA_VIOLATION"), "3"),
                        exp("McdHooksNoLeader", Map.of(), "1"),
                        exp("McdHooksNoLeader", Map.of(), "1"));
    }

    /**
     * One expected alert as a YAML flow mapping: its labels (these and its severity) and its
     * annotations as Prometheus renders them for these labels and this value (as {@code $value},
     * or its {@code humanizeDuration}).
     */
    private static String exp(String alert, Map<String, String> labels, String value) throws Exception {
        JsonNode rule = alerts().get(alert);
        Map<String, String> expLabels = new LinkedHashMap<>(labels);
        expLabels.put("severity", rule.path("labels").path("severity").asText());
        Map<String, String> rendered = new LinkedHashMap<>();
        rule.path("annotations").fields().forEachRemaining(e -> {
            String text = e.getValue().asText();
            for (Map.Entry<String, String> l : labels.entrySet()) {
                text = text.replace("{{ $labels." + l.getKey() + " }}", l.getValue());
            }
            text = text.replace("{{ $value | humanizeDuration }}", value).replace("{{ $value }}", value);
            assertThat(text)
                    .as(alert + " " + e.getKey() + " has no template left")
                    .doesNotContain("{{");
            rendered.put(e.getKey(), text);
        });
        return "{exp_labels: " + JSON.writeValueAsString(expLabels) + ", exp_annotations: "
                + JSON.writeValueAsString(rendered) + "}";
    }

    /** Every alerting rule of the shipped file, by name. */
    static Map<String, JsonNode> alerts() {
        Map<String, JsonNode> alerts = new LinkedHashMap<>();
        for (JsonNode group : Promtool.shippedRuleGroups().path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                if (rule.has("alert")) {
                    alerts.put(rule.path("alert").asText(), rule);
                }
            }
        }
        return alerts;
    }

    /** The labels the expression's outermost aggregation keeps: those its alerts carry. */
    private static List<String> byLabels(String expr) {
        Matcher m = Pattern.compile("^\\s*\\w+ by \\(([^)]*)\\)").matcher(expr);
        List<String> labels = new ArrayList<>();
        if (m.find()) {
            for (String l : m.group(1).split(",")) {
                labels.add(l.trim());
            }
        }
        return labels;
    }

    /** GitHub's anchors of the Markdown's headings. */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^#+ (.+)$").matcher(markdown);
        while (m.find()) {
            anchors.add(m.group(1)
                    .trim()
                    .toLowerCase()
                    .replaceAll("[^\\p{L}\\p{N} _-]", "")
                    .replace(' ', '-'));
        }
        return anchors;
    }
}
