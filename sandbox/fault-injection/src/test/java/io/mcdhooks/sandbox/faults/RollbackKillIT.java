package io.mcdhooks.sandbox.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.mcdhooks.bridge.TestEnvironment;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.sandbox.faults.History.KafkaEntry;
import io.mcdhooks.sandbox.kafka.ForkedKafkaBroker;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.MachineConfigs;
import io.mcdhooks.sandbox.mco.MaxUnavailable;
import io.mcdhooks.sandbox.mco.Mco;
import io.mcdhooks.sandbox.mco.McoSimulator;
import io.mcdhooks.sandbox.mco.RequestInterceptor;
import io.mcdhooks.sandbox.mco.SimulatorConfig;
import io.mcdhooks.sandbox.mco.Topology;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateDecision.RollbackState;
import io.mcdhooks.schemas.Stage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pool rollback (docs/open-questions.md §2) with the gatekeeper SIGKILLed at each of its steps
 * and started again at once: once its failed post-update gate's decision is on Kafka (as its
 * GateBlocked Event reaches the API server, while the rollback's PLANNED is on its way to Kafka or
 * just on it); once PLANNED is on Kafka and nothing written (the first MachineConfig write is
 * refused while the bridge dies); once the MachineConfig is written and APPLIED is not on Kafka yet
 * (the bridge dies as its second write is served); and once APPLIED is on Kafka. The first kill
 * races the rollback's first write; where the write comes first, that step is left out of the run,
 * which says so (PoolRollbacksTest has that gap exactly).
 *
 * <p>It must end as one rollback: one PLANNED and one APPLIED on Kafka, every MachineConfig write
 * served after PLANNED was appended, the MachineConfig back byte for byte, every worker on the
 * previous config, never more than {@code maxUnavailable} out.
 */
class RollbackKillIT {

    private static final String CLUSTER = "faults-rollback";
    private static final String NAMESPACE = Children.NAMESPACE;
    private static final String POOL = "worker";
    private static final String KARGS = "99-worker-kargs";
    private static final String HOOK = "nosmt-check";
    private static final double TIME_SCALE = 50;
    private static final Duration LONG = Duration.ofSeconds(180);
    private static final Path HOLD_POLICY =
            Path.of("..", "..", "deploy", "admission", "v1", "post-update-hold-policy.yaml");
    /** What the bridge may write, MachineConfigs among it: the rollback's writes must pass it. */
    private static final Path LEVERS_POLICY =
            Path.of("..", "..", "deploy", "admission", "v1", "bridge-levers-policy.yaml");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Logger LOG = LoggerFactory.getLogger(RollbackKillIT.class);

    private static ForkedKafkaBroker broker;

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "rollback-kills");
        t.setDaemon(true);
        return t;
    });

    @BeforeAll
    static void startBroker() {
        broker = ForkedKafkaBroker.start(Map.of());
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void theGatekeeperKilledAtEveryStepOfARollbackLeavesOneRollbackAndThePoolBack() throws Exception {
        Path dir = FaultCluster.cleanDirectory(Path.of("target", "faults", "rollback-kills"));
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String requests = "gates-" + suffix;
        String verdicts = "verdicts-" + suffix;
        String decisions = "decisions-" + suffix;
        FaultCluster.createTopics(
                broker.bootstrapServers(),
                List.of("lifecycle-" + suffix, requests, verdicts, decisions, "dead-letter-" + suffix));
        List<TopicPartition> recorded = List.of(
                new TopicPartition(decisions, 0), new TopicPartition(decisions, 1), new TopicPartition(decisions, 2));
        ChildJvm bridge = null;
        ChildJvm runner = null;
        McoSimulator mco = null;
        Recorder recorder = null;
        try (InMemoryCluster cluster = InMemoryCluster.start()) {
            // Given three workers (maxUnavailable 1), the shipped hold and lever policies, an
            // administrator's kernel argument in place, and a hook that fails nosmt after the
            // update, asking for a rollback
            KubernetesClient client = cluster.client();
            Topology.builder()
                    .workers(3)
                    .zones("zone-a", "zone-b")
                    .maxUnavailable(POOL, MaxUnavailable.of(1))
                    .build()
                    .apply(client);
            FaultCluster.namespace(client);
            for (Path policy : List.of(HOLD_POLICY, LEVERS_POLICY)) {
                try (var in = Files.newInputStream(policy)) {
                    client.load(in).create();
                }
            }
            Set<String> workers = client.nodes().list().getItems().stream()
                    .filter(n -> n.getMetadata().getLabels().containsKey("node-role.kubernetes.io/worker"))
                    .map(n -> n.getMetadata().getName())
                    .collect(Collectors.toSet());
            mco = McoSimulator.start(client, SimulatorConfig.defaults().withTimeScale(TIME_SCALE));
            String before = target(client);
            mco.applyMachineConfig(MachineConfigs.kernelArguments(KARGS, POOL, List.of("quiet")));
            await().atMost(LONG).until(() -> !before.equals(target(client)));
            String previous = target(client);
            await().atMost(LONG).until(() -> FaultCluster.allOn(client, workers, previous));
            String original = specOf(client);
            registerHook(client);

            KillSwitch kills = new KillSwitch();
            cluster.interceptRequests(kills);
            recorder = new Recorder(cluster.newClient(), NAMESPACE, broker.bootstrapServers(), recorded);
            runner = Children.runner(
                    broker.bootstrapServers(),
                    HOOK,
                    "post-update",
                    "if grep -q nosmt; then echo nosmt breaks this workload; exit 1; fi",
                    requests,
                    verdicts,
                    "dead-letter-" + suffix,
                    dir);
            runner.start();
            bridge = Children.bridge(
                    broker.bootstrapServers(),
                    CLUSTER,
                    cluster.url(),
                    cluster.tokenFor(TestEnvironment.bridgeIdentity(NAMESPACE)),
                    "bridge-a",
                    suffix,
                    dir,
                    Map.of("MCDHOOKS_ROLLBACK", "true"));
            kills.bridge = bridge;
            bridge.start();
            ChildJvm supervised = bridge;
            scheduler.scheduleWithFixedDelay(supervised::restartIfExited, 300, 300, TimeUnit.MILLISECONDS);
            await().atMost(LONG).until(() -> supervised.loggedSinceStart("recorded a config snapshot"));
            Recorder rec = recorder;
            scheduler.scheduleWithFixedDelay(() -> kills.onKafka(rec.kafka()), 20, 20, TimeUnit.MILLISECONDS);

            // When the administrator adds nosmt, and the gatekeeper is killed at each step of the rollback
            mco.applyMachineConfig(MachineConfigs.kernelArguments(KARGS, POOL, List.of("quiet", "nosmt")));
            await().atMost(LONG).until(() -> !previous.equals(target(client)));

            // Then every worker ends back on the previous config, the pool unpaused
            await().atMost(LONG.multipliedBy(2))
                    .until(() -> previous.equals(target(client))
                            && FaultCluster.allOn(client, workers, previous)
                            && !Boolean.TRUE.equals(pool(client).get("spec", "paused")));
            List<String> steps = kills.steps();
            if (!steps.contains("failed")) {
                LOG.warn("the rollback's first write came before the failed gate's Event: no kill between the two");
            }
            assertThat(steps).containsSubsequence("planned", "written", "applied");

            // And the rollback is on Kafka once: planned, then applied
            List<KafkaEntry> rollbacks = recorder.kafka().stream()
                    .filter(e -> e.message() instanceof GateDecision d && d.rollback() != null)
                    .sorted(Comparator.comparing(KafkaEntry::appendedAt))
                    .toList();
            assertThat(rollbacks)
                    .extracting(e -> ((GateDecision) e.message()).rollback().state())
                    .containsExactly(RollbackState.PLANNED, RollbackState.APPLIED);
            // And every MachineConfig write was served after the plan was on Kafka (record before act)
            Instant planned = rollbacks.get(0).appendedAt();
            assertThat(kills.served())
                    .isNotEmpty()
                    .allSatisfy(at -> assertThat(at).isAfterOrEqualTo(planned));
            // And the MachineConfig is back byte for byte, with never more than one worker out
            assertThat(specOf(client)).isEqualTo(original);
            History history = new History(
                    CLUSTER,
                    POOL,
                    1,
                    previous,
                    workers,
                    List.of(),
                    recorder.nodes(),
                    recorder.pools(),
                    recorder.kafka(),
                    List.of(),
                    Set.of(),
                    recorder.leases(),
                    List.of());
            assertThat(Invariants.withinMaxUnavailable(history)).isEmpty();
            assertThat(Invariants.mostUnavailable(history)).isEqualTo(1);
        } finally {
            scheduler.shutdownNow();
            if (bridge != null) {
                bridge.close();
            }
            if (runner != null) {
                runner.close();
            }
            if (recorder != null) {
                recorder.close();
            }
            if (mco != null) {
                mco.close();
            }
        }
    }

    /**
     * Kills the bridge at the rollback's steps: on its failed gate's decision and on APPLIED as the
     * recorder reads them from Kafka, and at its first two MachineConfig writes as the API server
     * receives them (the first refused, the second served). Each step once, in that order.
     */
    private static final class KillSwitch implements RequestInterceptor {

        volatile ChildJvm bridge;
        private final List<String> steps = new CopyOnWriteArrayList<>();
        private final List<Instant> served = new CopyOnWriteArrayList<>();
        private final AtomicInteger writes = new AtomicInteger();

        @Override
        public MockResponse intercept(RecordedRequest request, Supplier<MockResponse> proceed) {
            String method = request.getMethod();
            String agent = request.getHeader("User-Agent");
            boolean bridge = agent != null && agent.startsWith(ApiFaults.BRIDGE_USER_AGENT + "/");
            if (bridge
                    && "POST".equals(method)
                    && request.getPath().contains("/events")
                    && request.getBody() != null
                    && new String(request.getBody().getBytes(), StandardCharsets.UTF_8).contains("GateBlocked")
                    && writes.get() == 0) {
                // The failed gate's decision is on Kafka: its Event is written once Kafka acknowledged it
                kill("failed");
                return new MockResponse().setResponseCode(503);
            }
            if (!bridge || !request.getPath().contains("/machineconfigs") || "GET".equals(method)) {
                return proceed.get();
            }
            int n = writes.incrementAndGet();
            if (n == 1) {
                // PLANNED is on Kafka, nothing is written: the bridge dies before its write lands
                kill("planned");
                return new MockResponse().setResponseCode(503);
            }
            Instant at = Instant.now();
            MockResponse response = proceed.get();
            if (response.code() < 400) {
                served.add(at);
            }
            if (n == 2) {
                // Written, and APPLIED not yet on Kafka: the bridge dies before it hears the answer
                kill("written");
            }
            return response;
        }

        void onKafka(List<KafkaEntry> records) {
            for (KafkaEntry e : records) {
                if (!(e.message() instanceof GateDecision d) || d.stage() != Stage.POST_UPDATE) {
                    continue;
                }
                if (d.rollback() != null
                        && d.rollback().state() == RollbackState.APPLIED
                        && steps.contains("written")
                        && !steps.contains("applied")) {
                    kill("applied");
                }
            }
        }

        private synchronized void kill(String step) {
            if (steps.contains(step)) {
                return;
            }
            steps.add(step);
            LOG.info("killing the bridge: {}", step);
            bridge.kill();
            bridge.start();
        }

        List<String> steps() {
            return List.copyOf(steps);
        }

        List<Instant> served() {
            return new ArrayList<>(served);
        }
    }

    private static void registerHook(KubernetesClient client) {
        UpdateHook hook = new UpdateHook();
        hook.getMetadata().setName(HOOK);
        UpdateHookSpec spec = new UpdateHookSpec();
        spec.setStages(List.of(UpdateHookSpec.StageName.POST_UPDATE));
        spec.setPools(List.of(POOL));
        spec.setTimeoutSeconds(600);
        spec.setFailurePolicy(UpdateHookSpec.FailurePolicy.Fail);
        spec.setPostUpdateFailureAction(UpdateHookSpec.PostUpdateFailureAction.RollbackPool);
        hook.setSpec(spec);
        client.resources(UpdateHook.class).resource(hook).create();
    }

    private static String specOf(KubernetesClient client) throws IOException {
        return JSON.writeValueAsString(Mco.machineConfigs(client)
                .withName(KARGS)
                .get()
                .getAdditionalProperties()
                .get("spec"));
    }

    private static GenericKubernetesResource pool(KubernetesClient client) {
        return FaultCluster.pool(client, POOL);
    }

    private static String target(KubernetesClient client) {
        return FaultCluster.target(client, POOL);
    }
}
