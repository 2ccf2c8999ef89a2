package io.mcdhooks.bridge.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.mcdhooks.bridge.kube.McoInformers;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.overrides.GateOverride;
import io.mcdhooks.bridge.overrides.GateOverrideSpec;
import io.mcdhooks.bridge.overrides.GateOverrideStatus;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.kafka.junit.KafkaBrokerExtension;
import io.mcdhooks.sandbox.mco.Identity;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.LifecycleEvent;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Transition;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.Topics;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The CLI on real output: a real broker, and fabric8's in-memory API for override. */
@EnableKubernetesMockClient(crud = true)
@ExtendWith(KafkaBrokerExtension.class)
class CliIT {

    KubernetesClient client;

    private final KafkaBroker broker;
    private final String suffix = UUID.randomUUID().toString().substring(0, 8);
    private final String lifecycle = "lifecycle-" + suffix;
    private final String requests = "requests-" + suffix;
    private final String decisions = "decisions-" + suffix;
    private final String verdicts = "verdicts-" + suffix;

    CliIT(KafkaBroker broker) {
        this.broker = broker;
    }

    @Test
    void statusShowsPoolsNodesAndWhoBlocksOpenGates() throws Exception {
        // Given a node mid-update and a gate blocked on it
        GateRequest request = request("worker-1");
        publish(
                lifecycle,
                event("worker", LifecycleEvent.ObjectRef.Kind.MachineConfigPool, Transition.NEW_TARGET_CONFIG));
        publish(lifecycle, event("worker-1", LifecycleEvent.ObjectRef.Kind.Node, Transition.RESUMED));
        publish(requests, request);
        GateDecision blocked = blocked(request);
        publish(decisions, blocked);
        // and the pool rollback its failure started
        publish(
                decisions,
                blocked.withRollback(
                        new GateDecision.Rollback(
                                GateDecision.RollbackState.PLANNED,
                                "rendered-worker-2",
                                "rendered-worker-1",
                                null,
                                "the pool goes back to rendered-worker-1: restore 99-worker-kargs",
                                List.of(new GateDecision.RollbackStep(
                                        GateDecision.RollbackAction.RESTORE, "99-worker-kargs"))),
                        Instant.now()));

        // When
        Result result = cli("status");

        // Then
        assertThat(result.code).as(result.err).isZero();
        assertThat(result.out)
                .contains("c1/worker")
                .contains("c1/worker-1")
                .contains("resumed")
                .contains(request.gateId())
                .contains("blocked by node-check: FAIL ProbeFailed")
                .contains("hook node-check: STOPPED, lag 1")
                .contains("rollback PLANNED: the pool goes back to rendered-worker-1: restore 99-worker-kargs")
                .contains("rollback PLANNED rendered-worker-2 -> rendered-worker-1 at ")
                .contains("; started by " + request.gateId() + ": blocked by node-check: FAIL ProbeFailed");
    }

    @Test
    void statusSaysWhenAPoolTakesNewNodesAgain() throws Exception {
        // Given a pool the gatekeeper paused at the end of its update window
        LifecycleEvent paused = event("worker", LifecycleEvent.ObjectRef.Kind.MachineConfigPool, Transition.PAUSED);
        publish(
                lifecycle,
                new LifecycleEvent(
                        paused.cluster(),
                        paused.object(),
                        paused.pool(),
                        paused.transition(),
                        paused.fromConfig(),
                        paused.toConfig(),
                        null,
                        null,
                        null,
                        null,
                        null,
                        paused.observedAt(),
                        false,
                        new LifecycleEvent.Schedule(
                                "closed",
                                "outside its update windows Sat 22:00+4h UTC, waiting for Sat 2026-12-05 22:00 UTC")));

        Result result = cli("status");

        assertThat(result.code).as(result.err).isZero();
        assertThat(result.out)
                .contains("c1/worker")
                .contains(
                        "new nodes: outside its update windows Sat 22:00+4h UTC, waiting for Sat 2026-12-05 22:00 UTC");
    }

    @Test
    void lagTellsAStoppedHookFromOneThatKeepsUp() throws Exception {
        // Given two hooks: one consumed every request, one consumed nothing and has no consumer
        publish(requests, request("worker-0"));
        publish(requests, request("worker-1"));
        commit(Topics.hookGroup("keeps-up"), 2);
        commit(Topics.hookGroup("gone"), 0);

        Result result = cli("lag", "--samples", "1");

        assertThat(result.code).as(result.err).isZero();
        assertThat(result.out).containsPattern("keeps-up\\s+OK\\s+0").containsPattern("gone\\s+STOPPED\\s+2");
    }

    @Test
    void tailFollowsEveryKindOfMessage() throws Exception {
        GateRequest request = request("worker-2");
        publish(lifecycle, event("worker-2", LifecycleEvent.ObjectRef.Kind.Node, Transition.UPDATE_ASSIGNED));
        publish(requests, request);

        Result result = cli("tail", "--from-beginning", "--max", "2", "--for", "30s");

        assertThat(result.code).as(result.err).isZero();
        assertThat(result.out)
                .contains("lifecycle c1/worker-2 update-assigned")
                .contains("request   " + request.gateId());
    }

    @Test
    void overrideCreatesAGateOverrideRequestedByWhoTheApiServerSaysAndReportsTheGatekeepersAnswer() throws Exception {
        try (InMemoryCluster cluster = InMemoryCluster.start()) {
            try (InputStream policy =
                    Files.newInputStream(Path.of("..", "deploy", "admission", "v1", "gate-override-policy.yaml"))) {
                cluster.client().load(policy).create();
            }
            String gate = "c1/post-update/worker-1/rendered-worker-2";

            // When an administrator asks, with no gatekeeper to answer
            try (KubernetesClient alice = cluster.clientAs(Identity.user("alice", "mcdhooks-gate-overriders"))) {
                OverrideCommand.clientForTests = alice;
                Result result =
                        cli("override", "--gate", gate, "--release", "--reason", "checked by hand", "--wait", "0s");

                // Then the override names her as the API server knows her (not a kubeconfig's entry name)
                assertThat(result.code).as(result.err).isZero();
                assertThat(result.out)
                        .contains("release " + gate + " by alice: checked by hand")
                        .contains("not judged yet");
                List<GateOverride> created = cluster.client()
                        .resources(GateOverride.class)
                        .inNamespace("mcdhooks")
                        .list()
                        .getItems();
                assertThat(created).singleElement().satisfies(o -> {
                    assertThat(o.getSpec().getGate()).isEqualTo(gate);
                    assertThat(o.getSpec().getAction()).isEqualTo(GateOverrideSpec.Action.Release);
                    assertThat(o.getSpec().getRequestedBy()).isEqualTo("alice");
                    assertThat(o.getSpec().getReason()).isEqualTo("checked by hand");
                });

                // and when the gatekeeper refuses one, the command says why with its own exit code
                cluster.interceptRequests((request, proceed) -> {
                    var response = proceed.get();
                    if (request.getMethod().equals("POST") && request.getPath().contains("/gateoverrides")) {
                        refuseAll(cluster);
                    }
                    return response;
                });
                Result refused = cli("override", "--gate", gate, "--block", "--reason", "hold", "--wait", "30s");
                assertThat(refused.code).isEqualTo(OverrideCommand.REFUSED);
                assertThat(refused.out).contains("Refused: names no gate of this cluster");
                cluster.interceptRequests(null);

                // and a false --by is refused by the API server, naming who asked
                Result lying = cli("override", "--gate", gate, "--release", "--reason", "x", "--by", "bob");
                assertThat(lying.code).isEqualTo(Cli.KUBERNETES_FAILED);
                assertThat(lying.err).contains("spec.requestedBy must be the requesting user, alice");
            } finally {
                OverrideCommand.clientForTests = null;
            }

            // and a node's credentials cannot override at all
            try (KubernetesClient node = cluster.clientAs(Identity.node("worker-1"))) {
                OverrideCommand.clientForTests = node;
                Result result = cli("override", "--gate", gate, "--release", "--reason", "let me out");
                assertThat(result.code).isEqualTo(Cli.KUBERNETES_FAILED);
                assertThat(result.err).contains("a node's credentials cannot override a gate");
            } finally {
                OverrideCommand.clientForTests = null;
            }
        }
    }

    /** Plays the gatekeeper refusing every override not yet judged, as its status write does. */
    private static void refuseAll(InMemoryCluster cluster) {
        Thread judge = new Thread(() -> await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            List<GateOverride> pending =
                    cluster.client().resources(GateOverride.class).inNamespace("mcdhooks").list().getItems().stream()
                            .filter(o -> o.getStatus() == null)
                            .toList();
            assertThat(pending).isNotEmpty();
            for (GateOverride o : pending) {
                cluster.client()
                        .resources(GateOverride.class)
                        .inNamespace("mcdhooks")
                        .withName(o.getMetadata().getName())
                        .editStatus(g -> {
                            g.setStatus(new GateOverrideStatus(
                                    GateOverrideStatus.Phase.Refused, "names no gate of this cluster", "now"));
                            return g;
                        });
            }
        }));
        judge.setDaemon(true);
        judge.start();
    }

    @Test
    void planSaysAPoolGoesBackAndWhichRollbackTookItThere() throws Exception {
        // Given a worker pool whose MachineConfigs were put back: it targets the config it still
        // reports, one of its two workers still on the failing one
        client.genericKubernetesResources(McoInformers.context(McoApi.POOL_KIND, "v1"))
                .resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion("machineconfiguration.openshift.io/v1")
                        .withKind("MachineConfigPool")
                        .withNewMetadata()
                        .withName("worker")
                        .endMetadata()
                        .addToAdditionalProperties(
                                "spec",
                                Map.of(
                                        "configuration", Map.of("name", "rendered-worker-1"),
                                        "nodeSelector",
                                                Map.of("matchLabels", Map.of("node-role.kubernetes.io/worker", ""))))
                        .addToAdditionalProperties(
                                "status",
                                Map.of(
                                        "configuration",
                                        Map.of("name", "rendered-worker-1"),
                                        "machineCount",
                                        2,
                                        "updatedMachineCount",
                                        1,
                                        "conditions",
                                        List.of(Map.of("type", "Updated", "status", "False"))))
                        .build())
                .create();
        for (String[] n : List.of(
                new String[] {"worker-0", "rendered-worker-1"}, new String[] {"worker-1", "rendered-worker-2"})) {
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(n[0])
                            .addToLabels("node-role.kubernetes.io/worker", "")
                            .addToAnnotations(McoApi.CURRENT_CONFIG, n[1])
                            .addToAnnotations(McoApi.DESIRED_CONFIG, n[1])
                            .addToAnnotations(McoApi.STATE, McoApi.STATE_DONE)
                            .endMetadata()
                            .build())
                    .create();
        }
        // and the applied rollback on Kafka
        GateRequest request = request("worker-1");
        publish(
                decisions,
                blocked(request)
                        .withRollback(
                                new GateDecision.Rollback(
                                        GateDecision.RollbackState.APPLIED,
                                        "rendered-worker-2",
                                        "rendered-worker-1",
                                        null,
                                        "the MachineConfigs are back as they were for rendered-worker-1",
                                        List.of()),
                                Instant.now()));
        PlanCommand.clientForTests = client;
        try {
            // When the plan is asked for
            Result result = cli("plan", "worker");

            // Then it says where the pool goes, which node goes back, and why
            assertThat(result.code).as(result.err).isZero();
            assertThat(result.out)
                    .contains("pool worker goes back to rendered-worker-1, the config it still reports")
                    .containsPattern("1\\s+worker-1\\s")
                    .contains("rollback APPLIED rendered-worker-2 -> rendered-worker-1 at ")
                    .contains("started by " + request.gateId() + ": blocked by node-check: FAIL ProbeFailed");
        } finally {
            PlanCommand.clientForTests = null;
        }
    }

    @Test
    void anUnreachableBrokerIsAClearErrorWithItsOwnExitCode() {
        Result result = run(Map.of(), "--bootstrap-servers", "127.0.0.1:1", "--timeout", "2s", "status");

        assertThat(result.code).isEqualTo(Cli.KAFKA_UNREACHABLE);
        assertThat(result.err).contains("cannot reach Kafka at 127.0.0.1:1");
    }

    @Test
    void badArgumentsSayWhatIsWrong() {
        Result missing = run(Map.of(), "override", "--gate", "x");
        Result noKafka = run(Map.of(), "status");

        assertThat(missing.code).isEqualTo(2);
        assertThat(missing.err).contains("--reason");
        assertThat(noKafka.code).isEqualTo(2);
        assertThat(noKafka.err).contains("KAFKA_BOOTSTRAP_SERVERS");
    }

    private record Result(int code, String out, String err) {}

    private Result cli(String... args) {
        List<String> all = new ArrayList<>(List.of(
                "--bootstrap-servers",
                broker.bootstrapServers(),
                "--topic-lifecycle",
                lifecycle,
                "--topic-gate-requests",
                requests,
                "--topic-gate-decisions",
                decisions,
                "--topic-verdicts",
                verdicts));
        all.addAll(List.of(args));
        return run(Map.of(), all.toArray(String[]::new));
    }

    private static Result run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.run(new PrintWriter(out, true), new PrintWriter(err, true), env, args);
        return new Result(code, out.toString(), err.toString());
    }

    private void publish(String topic, Message message) throws Exception {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", broker.bootstrapServers()),
                new StringSerializer(),
                new ByteArraySerializer())) {
            producer.send(new CloudEventsKafka(new MessageCodec())
                            .toRecord(
                                    topic,
                                    message,
                                    UUID.randomUUID().toString(),
                                    URI.create("/test"),
                                    OffsetDateTime.now(),
                                    Map.of()))
                    .get();
        }
    }

    private void commit(String group, long offset) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        group),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.commitSync(Map.of(new TopicPartition(requests, 0), new OffsetAndMetadata(offset)));
        }
    }

    private static LifecycleEvent event(String name, LifecycleEvent.ObjectRef.Kind kind, Transition transition) {
        return new LifecycleEvent(
                "c1",
                new LifecycleEvent.ObjectRef(kind, name, "uid-" + name, "1"),
                "worker",
                transition,
                "rendered-worker-1",
                "rendered-worker-2",
                null,
                null,
                null,
                null,
                null,
                Instant.now(),
                false,
                null);
    }

    /** The BLOCKED decision of {@code request}'s post-update gate: node-check failed it. */
    private static GateDecision blocked(GateRequest request) {
        return new GateDecision(
                "c1",
                request.gateId(),
                1,
                Stage.POST_UPDATE,
                "worker",
                "worker-1",
                "rendered-worker-2",
                GateDecision.Decision.BLOCKED,
                false,
                List.of(new GateDecision.HookStatus(
                        "node-check",
                        GateDecision.HookState.FAIL,
                        GateDecision.Mode.Enforcing,
                        "ProbeFailed",
                        "port 9100 refused",
                        Instant.now(),
                        null,
                        600,
                        0,
                        null,
                        false,
                        false)),
                List.of("node-check"),
                "blocked by node-check: FAIL ProbeFailed",
                null,
                Instant.now(),
                Instant.now());
    }

    private static GateRequest request(String node) {
        return new GateRequest(
                "c1",
                "c1/post-update/" + node + "/rendered-worker-2",
                1,
                Stage.POST_UPDATE,
                new GateRequest.PoolFacts("worker", "1", 3),
                new GateRequest.NodeFacts(node, "a", Map.of()),
                "rendered-worker-1",
                "rendered-worker-2",
                new GateRequest.TargetFacts("quay.io/os@sha256:1", "default", null, null, null),
                Instant.now(),
                Instant.now().plusSeconds(600));
    }
}
