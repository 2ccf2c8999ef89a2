package io.mcdhooks.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.mcdhooks.bridge.gate.GateObjects;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.kafka.junit.KafkaBrokerExtension;
import io.mcdhooks.sandbox.local.DocBlocks.Block;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.registry.ForkedRegistry;
import io.mcdhooks.sandbox.registry.ImagePusher;
import io.mcdhooks.sandbox.registry.ImagePusher.Platform;
import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.codec.InvalidMessageException;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.Topics;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands of the README and of docs/ run as written, from the repository root. Only what
 * names the reader's own world is filled in: their Kafka's address, their kubeconfig, the gate id
 * they would copy from an Event. What cannot run here (no OpenShift, no image builder) is checked
 * by {@link DocumentedBlocksTest} instead, which also fails on any block neither of them knows.
 */
@ExtendWith(KafkaBrokerExtension.class)
class DocumentedExamplesIT {

    private static final CloudEventsKafka EVENTS = new CloudEventsKafka(new MessageCodec());

    @Test
    void theReadmeQuickStartRollsOutAndHoldsTheNodeWhosePostUpdateCheckFails() {
        assumeTrue(ForkedRegistry.installed(), ForkedRegistry.MISSING);
        Block readme = DocBlocks.find("README.md", "./run-local --scenario");
        assertThat(DocBlocks.find("docs/local-run.md", "./run-local --scenario").text())
                .isEqualTo(readme.text());

        Shell.Result run = Shell.run(readme.text(), Map.of(), 240);

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output())
                .contains("=== summary: scenario post-check-fails, rollout HELD")
                .contains("held (1):")
                .contains("BLOCKED: node-selfcheck FAIL NodeUnhealthy")
                .contains("stopped: hooks, bridge, simulator, in-memory cluster, Kafka broker and registry are closed");
    }

    @Test
    void theLocalRunServesAGivenClusterAndKafkaUntilCtrlC(KafkaBroker kafka, @TempDir Path dir) {
        assumeTrue(ForkedRegistry.installed(), ForkedRegistry.MISSING);
        Block block = DocBlocks.find("docs/local-run.md", "./run-local --kubeconfig");
        try (InMemoryCluster cluster = TwoWorkers.start()) {
            Path kubeconfig = cluster.writeKubeconfig(dir.resolve("test-cluster"));
            String command = block.text()
                    .trim()
                    .replace("~/.kube/test-cluster", kubeconfig.toString())
                    .replace("kafka.example:9092", kafka.bootstrapServers());

            try (Shell run = Shell.start(command, Map.of())) {
                await().atMost(Duration.ofMinutes(3)).until(() -> run.output().contains("registered hooks"));
                assertThat(run.output())
                        .contains("Kafka at " + kafka.bootstrapServers())
                        .doesNotContain("starting the embedded Kafka broker");
                // Nothing was rolled out: the docs say it shows the cluster until Ctrl-C
                assertThat(cluster.client()
                                .genericKubernetesResources("machineconfiguration.openshift.io/v1", "MachineConfig")
                                .withName("99-worker-realtime")
                                .get())
                        .isNull();

                // Ctrl-C ends it with 130 (the hooks and the bridge get 15 s each to close)
                run.signal("INT");
                assertThat(run.waitFor(90)).as(run.output()).isEqualTo(130);
            }
        }
    }

    @Test
    void theObservabilityCommandsShowAHeldGateAndTheOverrideReleasesIt(@TempDir Path dir) throws Exception {
        Block cli = DocBlocks.find("docs/observability.md", "bridge/mcdhooks");
        try (HeldRun run = HeldRun.start()) {
            LocalSystem system = run.system();
            RunSummary summary = run.summary();
            // The scenario: exactly the first updated node is held, and the pool stops within maxUnavailable
            assertThat(summary.ending()).isEqualTo(RunSummary.Ending.HELD);
            assertThat(summary.held()).singleElement().satisfies(g -> {
                assertThat(g.stage()).isEqualTo("post-update");
                assertThat(g.decision()).isEqualTo("BLOCKED");
                assertThat(g.blockingHooks()).containsExactly(LocalHooks.SELFCHECK);
                assertThat(g.why()).contains("node-selfcheck FAIL NodeUnhealthy");
            });
            RunSummary.GateOutcome held = summary.held().get(0);
            assertThat(summary.heldNodes()).containsExactly(held.node());
            assertThat(summary.maxUnavailableSeen()).isLessThanOrEqualTo(1);
            assertThat(summary.untouched()).hasSize(2).doesNotContain(held.node());
            Node heldNode = system.client().nodes().withName(held.node()).get();
            assertThat(heldNode.getSpec().getUnschedulable()).isTrue();
            assertThat(heldNode.getSpec().getTaints()).anyMatch(t -> LeverPlan.POST_UPDATE_TAINT.equals(t.getKey()));
            // The local run installs the post-update hold: kube-apiserver keeps the cordon, the marker
            // names the gate, and the MCD asked for its uncordon on the new config (the failed hold is
            // handed over to the gatekeeper's cordon, so the MCD need not wait there)
            assertThat(heldNode.getMetadata().getAnnotations())
                    .containsEntry(GateObjects.HOLD, held.gateId())
                    .containsEntry(
                            McoApi.DESIRED_CONFIG,
                            held.gateId().substring(held.gateId().lastIndexOf('/') + 1))
                    .containsEntry(
                            McoApi.DESIRED_DRAIN,
                            McoApi.UNCORDON_PREFIX
                                    + heldNode.getMetadata().getAnnotations().get(McoApi.DESIRED_CONFIG));
            assertThat(system.client().nodes().list().getItems())
                    .filteredOn(
                            n -> summary.untouched().contains(n.getMetadata().getName()))
                    .hasSize(2)
                    .allSatisfy(n -> {
                        assertThat(n.getMetadata().getAnnotations())
                                .containsEntry(McoApi.DESIRED_CONFIG, system.initialTarget());
                        assertThat(n.getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
                    });
            String bootstrap = system.bootstrapServers();
            Map<String, String> env = Map.of(
                    "KUBECONFIG",
                    system.writeKubeconfig(dir.resolve("kubeconfig")).toString());
            List<String> commands = new ArrayList<>(cli.lines().stream()
                    .map(DocBlocks::command)
                    .map(c -> c.replace("localhost:9092", bootstrap)
                            .replace("prod-1/post-update/worker-3/rendered-worker-2f…", held.gateId()))
                    .toList());
            assertThat(commands).hasSize(5);

            // status, hooks and lag read Kafka alone and name the held node and the hook that holds it
            Shell.Result status = Shell.run(commands.get(0), env, 90);
            assertThat(status.exitCode()).as(status.output()).isZero();
            assertThat(status.output()).contains(held.node()).contains("node-selfcheck");
            Shell.Result hooks = Shell.run(commands.get(1), env, 90);
            assertThat(hooks.exitCode()).as(hooks.output()).isZero();
            assertThat(hooks.output()).contains("node-selfcheck").contains("NodeUnhealthy");
            Shell.Result lag = Shell.run(commands.get(2), env, 90);
            assertThat(lag.exitCode()).as(lag.output()).isZero();
            assertThat(lag.output()).contains("node-selfcheck").contains("kmod-check");

            // tail follows what comes next: the override's decision
            try (Shell tail = Shell.start(commands.get(3), env)) {
                await().atMost(Duration.ofMinutes(1)).until(() -> tail.output().contains("following "));
                Shell.Result override = Shell.run(commands.get(4), env, 90);
                assertThat(override.exitCode()).as(override.output()).isZero();

                await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
                    Node node = system.client().nodes().withName(held.node()).get();
                    assertThat(node.getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
                    assertThat(node.getSpec().getTaints())
                            .noneMatch(t -> LeverPlan.POST_UPDATE_TAINT.equals(t.getKey()));
                });
                await().atMost(Duration.ofMinutes(1))
                        .untilAsserted(() -> assertThat(tail.output())
                                .contains(held.gateId())
                                .contains("OVERRIDDEN"));
            }

            // operations.md: the gatekeeper's Events are in "default", from mcdhooks-gatekeeper, on the node
            Block events = DocBlocks.find("docs/operations.md", "oc get events");
            assertThat(events.text())
                    .contains("-n default")
                    .contains("source=mcdhooks-gatekeeper")
                    .contains("involvedObject.name=<node>,reason=GateBlocked");
            List<Event> onNode = system.client().v1().events().inNamespace("default").list().getItems().stream()
                    .filter(e -> held.node().equals(e.getInvolvedObject().getName()))
                    .toList();
            assertThat(onNode).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo("GateBlocked");
                assertThat(e.getSource().getComponent()).isEqualTo("mcdhooks-gatekeeper");
            });
        }
    }

    @Test
    void theHookAuthorsGuideRunnerCommandAnswersGateRequests(KafkaBroker kafka) throws Exception {
        Block block = DocBlocks.find("docs/hook-authors-guide.md", "mvn -q -pl hook-runner");
        createTopics(kafka, Topics.GATE_REQUESTS, Topics.VERDICTS, Topics.DEAD_LETTER);
        String script = "set -e\n" + block.text().replace("localhost:9092", kafka.bootstrapServers());

        try (Shell runner = Shell.start(script, Map.of());
                KafkaConsumer<String, byte[]> verdicts = consumer(kafka)) {
            GateRequest lacking = request("worker-1", List.of("kernel-devel"));
            GateRequest having = request("worker-2", List.of("usbguard", "kernel-devel"));
            // The runner's group starts from the earliest offset: the requests wait for it.
            publish(kafka, List.of(lacking, having));

            List<Verdict> seen = new ArrayList<>();
            await().atMost(Duration.ofMinutes(4)).untilAsserted(() -> {
                poll(verdicts, seen);
                assertThat(seen)
                        .as(runner.output())
                        .anySatisfy(v -> {
                            assertThat(v.gateId()).isEqualTo(lacking.gateId());
                            assertThat(v.hook()).isEqualTo("require-extensions");
                            assertThat(v.outcome()).isEqualTo(Outcome.FAIL);
                            assertThat(v.message()).contains("lacks extension usbguard");
                        })
                        .anySatisfy(v -> {
                            assertThat(v.gateId()).isEqualTo(having.gateId());
                            assertThat(v.outcome()).isEqualTo(Outcome.PASS);
                        });
            });
        }
    }

    @Test
    void theHookAuthorsGuideKmodExampleJudgesEachGateByItsKernelsModuleImage(KafkaBroker kafka, @TempDir Path dir)
            throws Exception {
        assumeTrue(ForkedRegistry.installed(), ForkedRegistry.MISSING);
        Block modules = DocBlocks.find("docs/hook-authors-guide.md", "# /etc/mcdhooks/kmod/modules.yaml");
        Block conf = DocBlocks.find("docs/hook-authors-guide.md", "# /etc/mcdhooks/kmod/registries.conf");
        Block secret = DocBlocks.find("docs/hook-authors-guide.md", "{\"auths\"");
        Block run = DocBlocks.find("docs/hook-authors-guide.md", "export KAFKA_BOOTSTRAP_SERVERS=localhost:9092");
        // The runner is built as the exec hooks' example builds it.
        String build = DocBlocks.find("docs/hook-authors-guide.md", "mvn -q -pl hook-runner")
                .firstLine();
        // The pull secret's own credentials are the mirror's: a real registry stands in for it.
        String auth = new ObjectMapper()
                .readTree(secret.text())
                .path("auths")
                .path("mirror.example.com:5000")
                .path("auth")
                .asText();
        String[] user = new String(Base64.getDecoder().decode(auth), StandardCharsets.UTF_8).split(":", 2);
        createTopics(kafka, Topics.GATE_REQUESTS, Topics.VERDICTS, Topics.DEAD_LETTER);
        try (ForkedRegistry mirror = ForkedRegistry.start(ForkedRegistry.Options.basic(user[0], user[1]))) {
            String kernel = "5.14.0-427.13.1.el9_4.x86_64";
            Map<Platform, String> kernels = new LinkedHashMap<>();
            kernels.put(Platform.of("amd64"), kernel);
            kernels.put(new Platform("arm64", "v8"), "5.14.0-427.13.1.el9_4.aarch64");
            ImagePusher pusher = mirror.pusher();
            String index = pusher.pushOsImage("openshift-release-dev/ocp-v4.0-art-dev", "4.16", kernels);
            pusher.pushImage("gpu/nvidia-kmod", kernel, Platform.of("amd64"), Map.of());
            Files.writeString(dir.resolve("modules.yaml"), modules.text());
            Files.writeString(
                    dir.resolve("registries.conf"), conf.text().replace("mirror.example.com:5000", mirror.host()));
            Files.writeString(
                    dir.resolve("pull-secret.json"), secret.text().replace("mirror.example.com:5000", mirror.host()));
            Files.copy(mirror.tls().caFile(), dir.resolve("mirror-ca.pem"));
            String script = "set -e\n" + build + "\n"
                    + run.text()
                            .replace("/etc/mcdhooks/kmod/", dir + "/")
                            .replace("localhost:9092", kafka.bootstrapServers());
            String os = "quay.io/openshift-release-dev/ocp-v4.0-art-dev@" + index;
            GateRequest pool = kmodRequest(Stage.POOL_PRE_UPDATE, null, null, os, "default");
            GateRequest arm64 = kmodRequest(Stage.PRE_UPDATE, "worker-arm", "arm64", os, "default");
            GateRequest realtime = kmodRequest(Stage.PRE_UPDATE, "worker-rt", "amd64", os, "realtime");

            try (Shell runner = Shell.start(script, Map.of());
                    KafkaConsumer<String, byte[]> verdicts = consumer(kafka)) {
                publish(kafka, List.of(pool, arm64, realtime));
                List<Verdict> seen = new ArrayList<>();
                await().atMost(Duration.ofMinutes(4)).untilAsserted(() -> {
                    poll(verdicts, seen);
                    assertThat(seen)
                            .as(runner.output())
                            .anySatisfy(v -> {
                                assertThat(v.gateId()).isEqualTo(pool.gateId());
                                assertThat(v.outcome()).isEqualTo(Outcome.PASS);
                                assertThat(v.reason()).isEqualTo("ModulesReady");
                                assertThat(v.message())
                                        .contains("registry.example.com/gpu/nvidia-kmod:" + kernel + "@sha256:");
                            })
                            .anySatisfy(v -> {
                                assertThat(v.gateId()).isEqualTo(arm64.gateId());
                                assertThat(v.outcome()).isEqualTo(Outcome.FAIL);
                                assertThat(v.reason()).isEqualTo("ModulesNotBuilt");
                                assertThat(v.message()).contains("registry.example.com/gpu/nvidia-kmod:aarch64-hotfix");
                            })
                            .anySatisfy(v -> {
                                assertThat(v.gateId()).isEqualTo(realtime.gateId());
                                assertThat(v.reason()).isEqualTo("ModulesNotBuilt");
                                assertThat(v.message())
                                        .contains("registry.example.com/gpu/nvidia-kmod:" + kernel + "_rt");
                            });
                });
            }
        }
    }

    private static GateRequest kmodRequest(Stage stage, String node, String arch, String osImage, String kernelType) {
        return gate(
                stage, node, node == null ? null : Map.of("kubernetes.io/arch", arch), osImage, kernelType, List.of());
    }

    private static GateRequest request(String node, List<String> extensions) {
        return gate(Stage.PRE_UPDATE, node, Map.of(), "quay.io/example/rhcos@sha256:aaaa", "default", extensions);
    }

    /** A gate of cluster {@code docs}: the pool {@code worker}'s when {@code node} is null. */
    private static GateRequest gate(
            Stage stage,
            String node,
            Map<String, String> labels,
            String osImage,
            String kernelType,
            List<String> extensions) {
        Instant now = Instant.now();
        String target = "rendered-worker-" + UUID.randomUUID().toString().substring(0, 8);
        return new GateRequest(
                "docs",
                GateId.of("docs", stage, node == null ? "worker" : node, target),
                1,
                stage,
                new GateRequest.PoolFacts("worker", "1", 3),
                node == null ? null : new GateRequest.NodeFacts(node, "zone-a", labels),
                "rendered-worker-old",
                target,
                new GateRequest.TargetFacts(osImage, kernelType, extensions, List.of(), null),
                now,
                now.plus(Duration.ofMinutes(10)));
    }

    private static void publish(KafkaBroker kafka, List<GateRequest> requests) throws Exception {
        try (KafkaProducer<String, byte[]> producer = producer(kafka)) {
            for (GateRequest request : requests) {
                producer.send(EVENTS.toRecord(
                                Topics.GATE_REQUESTS,
                                request,
                                UUID.randomUUID().toString(),
                                URI.create("/clusters/docs/bridge"),
                                OffsetDateTime.now(ZoneOffset.UTC),
                                Map.of()))
                        .get(30, TimeUnit.SECONDS);
            }
        }
    }

    /** Adds the verdicts one poll brings to {@code seen}. */
    private static List<Verdict> poll(KafkaConsumer<String, byte[]> verdicts, List<Verdict> seen)
            throws InvalidMessageException {
        for (ConsumerRecord<String, byte[]> record : verdicts.poll(Duration.ofMillis(500))) {
            seen.add((Verdict) EVENTS.fromRecord(record.key(), record.headers(), record.value())
                    .message());
        }
        return seen;
    }

    private static void createTopics(KafkaBroker kafka, String... topics) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            for (String topic : topics) {
                try {
                    admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1)))
                            .all()
                            .get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        }
    }

    private static KafkaProducer<String, byte[]> producer(KafkaBroker kafka) {
        return new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    private static KafkaConsumer<String, byte[]> consumer(KafkaBroker kafka) {
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        kafka.bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "docs-" + UUID.randomUUID(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new ByteArrayDeserializer());
        consumer.subscribe(List.of(Topics.VERDICTS));
        return consumer;
    }
}
