package io.mcdhooks.bridge.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.mcdhooks.bridge.gate.UpdateWindows;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.MachineConfigs;
import io.mcdhooks.sandbox.mco.Mco;
import io.mcdhooks.sandbox.mco.McoSimulator;
import io.mcdhooks.sandbox.mco.SimulatorConfig;
import io.mcdhooks.sandbox.mco.Topology;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code mcdhooks plan} against the in-memory API server and the MCO simulator (which renders
 * configs and publishes the node disruption policy as the MCO does): no Kafka is needed.
 */
class PlanIT {

    private InMemoryCluster cluster;
    private KubernetesClient client;
    private McoSimulator mco;

    @BeforeEach
    void setUp() {
        cluster = InMemoryCluster.start();
        client = cluster.client();
        // A worker pool held paused at rest, as the gatekeeper holds pools with pre-update hooks
        Topology.builder()
                .masters(1)
                .workers(3)
                .zones("a", "b")
                .paused("worker")
                .build()
                .apply(client);
        mco = McoSimulator.start(client, SimulatorConfig.defaults().withTimeScale(100));
        PlanCommand.clientForTests = client;
    }

    @AfterEach
    void tearDown() {
        PlanCommand.clientForTests = null;
        mco.close();
        cluster.close();
    }

    @Test
    void printsEachNodesDisruptionTheMccsOrderAndWhatHoldsEachStage() {
        // Given pre- and post-update hooks on the workers, and a pending SSH key change the pause holds
        hook("node-precheck", UpdateHookSpec.StageName.PRE_UPDATE);
        hook("node-check", UpdateHookSpec.StageName.POST_UPDATE);
        mco.applyMachineConfig(MachineConfigs.sshKeys("99-worker-ssh-extra", "worker", List.of("ssh-ed25519 AAAA x")));
        await().atMost(Duration.ofSeconds(30)).until(() -> plan("worker").contains("->"));

        // When the plan is asked for
        String out = plan("worker");

        // Then every worker's change is rebootless, held by the pause until its gate passes, in zone order
        assertThat(out).contains("the MCC takes up to 1 node(s) at a time");
        List<String> rows =
                out.lines().filter(l -> l.matches("\\s+\\d+\\s+worker-.*")).toList();
        assertThat(rows).hasSize(3);
        // (zones go round-robin from master-0: worker-1 is in a, worker-0 and worker-2 in b, oldest first;
        // created within the same second, their order is the MCO's unspecified one)
        assertThat(rows.get(0)).contains("worker-1").contains(" a ");
        assertThat(rows.subList(1, 3)).allSatisfy(r -> assertThat(r).contains(" b "));
        Instant created0 = created("worker-0");
        Instant created2 = created("worker-2");
        if (!created0.equals(created2)) {
            String older = created0.isBefore(created2) ? "worker-0" : "worker-2";
            assertThat(rows.get(1)).contains(older);
        }
        assertThat(String.join("\n", rows.subList(1, 3))).contains("worker-0").contains("worker-2");
        assertThat(rows)
                .allSatisfy(r -> assertThat(r)
                        .contains("none")
                        .contains("the pool stays paused until it passes")
                        .contains("taint and cordon until released"));
        assertThat(out)
                .containsPattern("pre-update\\s+node-precheck\\s+enforced: the pool stays paused until it passes")
                .containsPattern("post-update\\s+node-check\\s+enforced: taint and cordon");
    }

    @Test
    void saysWhenAPoolWithUpdateWindowsTakesNewNodesAndThatTheMasterPoolsAreOnlyAdvisory() {
        // Given weekday windows on the workers and masters, and a freeze from 2020 on that never ends
        for (String pool : List.of("worker", "master")) {
            // a merge patch: the simulated MCO writes the pools' status meanwhile
            Mco.pools(client)
                    .withName(pool)
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            "{\"metadata\":{\"annotations\":{\"" + UpdateWindows.WINDOWS
                                    + "\":\"Mon-Fri 22:00+2h UTC\",\"" + UpdateWindows.FREEZE
                                    + "\":\"2020-01-01T00:00:00Z/\"}}}");
        }

        // Then the plan says no window opens, and that on masters this holds nothing
        assertThat(plan("worker"))
                .contains(
                        "new nodes: outside its update windows Mon-Fri 22:00+2h UTC, no window opens within 400 days");
        assertThat(plan("master")).contains("(advisory: the master pool is never paused)");
    }

    @Test
    void aPoolAtRestHasNoPlanAndAnUnknownPoolIsAnError() {
        assertThat(plan("master")).contains("pool master is at rest");

        StringWriter err = new StringWriter();
        int code = Cli.run(new PrintWriter(new StringWriter()), new PrintWriter(err, true), Map.of(), "plan", "nope");
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains("no MachineConfigPool nope");
    }

    private Instant created(String node) {
        return Instant.parse(client.nodes().withName(node).get().getMetadata().getCreationTimestamp());
    }

    private String plan(String pool) {
        StringWriter out = new StringWriter();
        int code =
                Cli.run(new PrintWriter(out, true), new PrintWriter(new StringWriter(), true), Map.of(), "plan", pool);
        assertThat(code).isZero();
        return out.toString();
    }

    private void hook(String name, UpdateHookSpec.StageName stage) {
        UpdateHook resource = new UpdateHook();
        resource.getMetadata().setName(name);
        UpdateHookSpec spec = new UpdateHookSpec();
        spec.setStages(List.of(stage));
        spec.setPools(List.of("worker"));
        spec.setTimeoutSeconds(600);
        resource.setSpec(spec);
        client.resources(UpdateHook.class).resource(resource).create();
    }
}
