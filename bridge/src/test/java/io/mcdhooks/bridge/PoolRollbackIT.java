package io.mcdhooks.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.gate.GateObjects;
import io.mcdhooks.bridge.gate.LeverWrites;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.bridge.overrides.GateOverride;
import io.mcdhooks.bridge.overrides.GateOverrideSpec;
import io.mcdhooks.bridge.overrides.GateOverrideStatus;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.mco.Identity;
import io.mcdhooks.sandbox.mco.MachineConfigs;
import io.mcdhooks.sandbox.mco.Mco;
import io.mcdhooks.sandbox.mco.SimulatorConfig;
import io.mcdhooks.sandbox.mco.Topology;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a pool rollback needs and does, on the simulated MCO (open question 2 of docs/open-questions.md). */
class PoolRollbackIT extends GatekeeperOnSimulator {

    private static final ObjectMapper JSON = new ObjectMapper();
    private KafkaTopicReader decisions;

    PoolRollbackIT(KafkaBroker broker) {
        super(broker, "rollback");
    }

    @Test
    void aKernelArgumentWhosePostUpdateCheckFailsRollsThePoolBackThroughItsGates() throws Exception {
        // Given three workers (maxUnavailable 1), the shipped hold, rollbacks enabled, an
        // administrator's kernel argument in place, and a hook before and after each node's update
        // whose post-update check fails on the next one
        start(
                Topology.builder().masters(1).workers(3),
                SimulatorConfig.defaults(),
                Map.of("MCDHOOKS_ROLLBACK", "true"));
        installHoldPolicy();
        String before =
                rollOut("worker", MachineConfigs.kernelArguments("99-worker-kargs", "worker", List.of("quiet")));
        // (at rest there as the pool's status says, or the bridge would find its nodes finished
        // mid-rollout, hold each of them, and ask their late post-update gates)
        await().atMost(LONG)
                .until(() -> workers().stream()
                                .allMatch(n -> before.equals(annotation(n, Mco.CURRENT_CONFIG))
                                        && "Done".equals(annotation(n, Mco.STATE)))
                        && updatedOn("worker", before));
        String original = JSON.writeValueAsString(Mco.machineConfigs(client)
                .withName("99-worker-kargs")
                .get()
                .getAdditionalProperties()
                .get("spec"));
        hook(
                "node-check",
                List.of(UpdateHookSpec.StageName.PRE_UPDATE, UpdateHookSpec.StageName.POST_UPDATE),
                "worker",
                // before an update it passes; after, it fails nosmt wherever it runs, from the first request on
                r -> Optional.of(
                        r.stage() == Stage.POST_UPDATE
                                        && r.target().kernelArguments().contains("nosmt")
                                ? Outcome.FAIL
                                : Outcome.PASS),
                spec -> spec.setPostUpdateFailureAction(UpdateHookSpec.PostUpdateFailureAction.RollbackPool));
        deployBridge();
        await().atMost(LONG)
                .until(() -> bridge.snapshots().snapshot("worker", before).isPresent());
        Unavailable unavailable = Unavailable.watch(client, "worker");

        // When the administrator adds nosmt
        mco.applyMachineConfig(MachineConfigs.kernelArguments("99-worker-kargs", "worker", List.of("quiet", "nosmt")));
        await().atMost(LONG).until(() -> !poolTarget("worker").equals(before));

        // Then the first node's check fails, the MachineConfig is put back byte for byte, and every
        // worker ends on the config before, through its gates, never more than one out at a time
        await().atMost(LONG).until(() -> poolTarget("worker").equals(before));
        assertThat(JSON.writeValueAsString(Mco.machineConfigs(client)
                        .withName("99-worker-kargs")
                        .get()
                        .getAdditionalProperties()
                        .get("spec")))
                .isEqualTo(original);

        // And an operator who stops the rollback holds the pool paused where it is, and the status
        // page says so and why it started
        await().atMost(LONG)
                .until(() -> rollbackOnPage().map(r -> r.getString("state")).equals(Optional.of("APPLIED")));
        String failedGate = await().atMost(LONG)
                .until(this::rollbacks, r -> !r.isEmpty())
                .get(0)
                .gateId();
        ClusterReads.installAdmissionPolicy(client, "gate-override-policy.yaml");
        assertThat(override("stop", failedGate, GateOverrideSpec.Action.StopRollback)
                        .getPhase())
                .isEqualTo(GateOverrideStatus.Phase.Applied);
        await().atMost(LONG).until(() -> paused("worker"));
        assertThat(rollbackOnPage()).hasValueSatisfying(r -> {
            assertThat(r.getString("state")).isEqualTo("STOPPED");
            assertThat(r.getString("message")).startsWith("stopped by alice (rollback under review)");
            assertThat(r.getString("startedBy")).isEqualTo(failedGate);
            assertThat(r.getString("why")).contains("node-check");
        });

        // And a resume carries it on
        assertThat(override("resume", failedGate, GateOverrideSpec.Action.ResumeRollback)
                        .getPhase())
                .isEqualTo(GateOverrideStatus.Phase.Applied);
        // (each node going back is drained, rebooted and checked again: longer than one step)
        await().atMost(LONG.multipliedBy(2))
                .untilAsserted(() -> assertThat(workers())
                        .as("workers (pool paused: %s)", paused("worker"))
                        .allSatisfy(n -> assertThat(describe(n))
                                .isEqualTo(n.getMetadata().getName() + " on " + before
                                        + ", Done, schedulable, untainted")));
        // (then at rest, the pool is paused as any pool with pre-update hooks, until its next config's gates pass)
        await().atMost(LONG).until(() -> paused("worker"));
        assertThat(unavailable.max())
                .as("workers out at once (%s)", unavailable.atMax())
                .isEqualTo(1);
        unavailable.close();
        // One node went to the failing config, and came back through its pre-update gate
        List<String> failed = hook.seen().stream()
                .filter(r -> r.stage() == Stage.POST_UPDATE
                        && r.target().kernelArguments().contains("nosmt"))
                .map(r -> r.node().name())
                .toList();
        assertThat(failed).hasSize(1);
        assertThat(hook.seen())
                .filteredOn(
                        r -> r.stage() == Stage.PRE_UPDATE && r.targetConfig().equals(before))
                .extracting(r -> r.node().name())
                .contains(failed.get(0));
        // And the rollback is on Kafka: planned and applied once, stopped, and resumed (its writes made again)
        await().atMost(LONG)
                .untilAsserted(() -> assertThat(rollbacks())
                        .extracting(d -> d.rollback().state())
                        .containsExactly(
                                GateDecision.RollbackState.PLANNED,
                                GateDecision.RollbackState.APPLIED,
                                GateDecision.RollbackState.STOPPED,
                                GateDecision.RollbackState.PLANNED,
                                GateDecision.RollbackState.APPLIED));
        assertThat(rollbacks().get(0).rollback().steps())
                .containsExactly(new GateDecision.RollbackStep(GateDecision.RollbackAction.RESTORE, "99-worker-kargs"));
        assertThat(gatekeeperEvents("worker", "RollbackApplied")).isNotEmpty();
        assertThat(gatekeeperEvents("worker", "RollbackStopped")).hasSize(1);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aChangeToAControllersMachineConfigIsRefusedAndThePoolHeldPaused() {
        // Given rollbacks enabled, and a post-update check that fails
        start(
                Topology.builder().masters(1).workers(2),
                SimulatorConfig.defaults(),
                Map.of("MCDHOOKS_ROLLBACK", "true"));
        installHoldPolicy();
        hook(
                "node-check",
                List.of(UpdateHookSpec.StageName.POST_UPDATE),
                "worker",
                r -> Optional.of(Outcome.FAIL),
                spec -> spec.setPostUpdateFailureAction(UpdateHookSpec.PostUpdateFailureAction.RollbackPool));
        deployBridge();
        String before = poolTarget("worker");
        await().atMost(LONG)
                .until(() -> bridge.snapshots().snapshot("worker", before).isPresent());

        // When the MCO's own base config changes (as an OpenShift update changes it)
        GenericKubernetesResource base =
                Mco.machineConfigs(client).withName("00-worker").get();
        ((Map<String, Object>) base.getAdditionalProperties().get("spec")).put("osImageURL", "quay.io/os@sha256:02");
        base.getMetadata().setResourceVersion(null);
        String target = rollOut("worker", base);

        // Then the rollback is refused, saying why, nothing is written back, and the pool is held paused
        await().atMost(LONG)
                .untilAsserted(() -> assertThat(rollbacks()).singleElement().satisfies(d -> {
                    assertThat(d.rollback().state()).isEqualTo(GateDecision.RollbackState.REFUSED);
                    assertThat(d.rollback().reason()).isEqualTo("NotAnAdministratorChange");
                    assertThat(d.rollback().message())
                            .contains("00-worker", "generated by the machine-config controller");
                }));
        await().atMost(LONG).until(() -> paused("worker"));
        assertThat(poolTarget("worker")).isEqualTo(target);
        assertThat(gatekeeperEvents("worker", "RollbackRefused")).hasSize(1);
    }

    /** What a test failure shows of a node: its configs, MCD state, drain handshake, cordon, taint and hold. */
    private static String describe(Node n) {
        String config = annotation(n, Mco.CURRENT_CONFIG);
        String desired = annotation(n, Mco.DESIRED_CONFIG);
        boolean done = "Done".equals(annotation(n, Mco.STATE)) && config != null && config.equals(desired);
        boolean cordoned = Boolean.TRUE.equals(n.getSpec().getUnschedulable());
        boolean tainted = LeverWrites.tainted(n);
        if (done && !cordoned && !tainted) {
            return n.getMetadata().getName() + " on " + config + ", Done, schedulable, untainted";
        }
        return n.getMetadata().getName() + " on " + config + " desired " + desired + " state "
                + annotation(n, Mco.STATE) + " drain " + annotation(n, Mco.DESIRED_DRAIN) + "/"
                + annotation(n, Mco.LAST_APPLIED_DRAIN) + " cordoned " + cordoned + " tainted " + tainted + " hold "
                + n.getMetadata().getAnnotations().get(GateObjects.HOLD);
    }

    /** An override by alice, a member of the shipped overriders' group, once the gatekeeper judged it. */
    private GateOverrideStatus override(String name, String gateId, GateOverrideSpec.Action action) {
        GateOverride override = new GateOverride();
        override.getMetadata().setName(name);
        override.getMetadata().setNamespace(NAMESPACE);
        override.setSpec(new GateOverrideSpec(gateId, action, "rollback under review", "alice"));
        try (KubernetesClient alice = cluster.clientAs(Identity.user("alice", "mcdhooks-gate-overriders"))) {
            alice.resources(GateOverride.class)
                    .inNamespace(NAMESPACE)
                    .resource(override)
                    .create();
        }
        return ClusterReads.judged(client, NAMESPACE, name, LONG);
    }

    /** The worker pool's rollback as the status page shows it. */
    private Optional<JsonObject> rollbackOnPage() throws Exception {
        HttpResponse<String> page = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + bridge.httpPort() + "/api/status"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return new JsonObject(page.body())
                .getJsonArray("pools").stream()
                        .map(JsonObject.class::cast)
                        .filter(p -> p.getString("name").equals("worker"))
                        .map(p -> p.getJsonObject("rollback"))
                        .filter(Objects::nonNull)
                        .findFirst();
    }

    /** The decisions on Kafka that record a rollback, in order. */
    private List<GateDecision> rollbacks() {
        if (decisions == null) {
            decisions = new KafkaTopicReader(broker.bootstrapServers(), List.of(config.decisionsTopic()));
        }
        return decisions.poll().stream()
                .map(KafkaTopicReader.Read::message)
                .filter(GateDecision.class::isInstance)
                .map(GateDecision.class::cast)
                .filter(d -> d.rollback() != null)
                .toList();
    }

    @AfterEach
    void closeReader() {
        if (decisions != null) {
            decisions.close();
        }
    }
}
