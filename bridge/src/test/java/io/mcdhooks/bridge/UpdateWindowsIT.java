package io.mcdhooks.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.gate.PoolSchedules;
import io.mcdhooks.bridge.gate.UpdateWindows;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.kafka.junit.KafkaBrokerExtension;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.MachineConfigs;
import io.mcdhooks.sandbox.mco.MaxUnavailable;
import io.mcdhooks.sandbox.mco.Mco;
import io.mcdhooks.sandbox.mco.McoSimulator;
import io.mcdhooks.sandbox.mco.SimulatorConfig;
import io.mcdhooks.sandbox.mco.Topology;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Update windows and the pause between batches on the simulated MCO, with the gatekeeper's clock
 * in the test's hands: a rollout cut by a window's end finishes the nodes it started and starts
 * no other, and goes on in the next window, on the night Berlin moves to summer time.
 */
@ExtendWith(KafkaBrokerExtension.class)
class UpdateWindowsIT {

    private static final String NAMESPACE = "mcdhooks";
    private static final int WORKERS = 5;
    /** Simulated seconds per real second: a node's update takes a second or two. */
    private static final double TIME_SCALE = 300;
    /**
     * Saturday 23:30 for an hour (so into Sunday), and Sunday 04:00 for three hours, Berlin time.
     * On 2026-03-29 Berlin skips 02:00–03:00: Sunday's window opens at 04:00 CEST, 02:00 UTC (an
     * offset taken from Saturday would make it 03:00 UTC).
     */
    private static final String WINDOWS = "Sat 23:30+1h Europe/Berlin; Sun 04:00+3h Europe/Berlin";
    /** Saturday 23:45 CET: inside the first window. */
    private static final Instant START = Instant.parse("2026-03-28T22:45:00Z");

    private final KafkaBroker broker;
    private InMemoryCluster cluster;
    private KubernetesClient client;
    private McoSimulator mco;
    private Vertx vertx;
    private BridgeVerticle bridge;
    private final MovingClock clock = new MovingClock(START);

    UpdateWindowsIT(KafkaBroker broker) {
        this.broker = broker;
    }

    @BeforeEach
    void setUp() {
        Topology topology = Topology.builder()
                .workers(WORKERS)
                .maxUnavailable("worker", MaxUnavailable.of(1))
                .workloadPodsPerNode(1)
                .build();
        cluster = InMemoryCluster.start();
        client = cluster.client();
        topology.apply(client);
        ClusterReads.namespace(client, NAMESPACE);
        ClusterReads.installAdmissionPolicy(client, "bridge-levers-policy.yaml");
        vertx = Vertx.vertx();
    }

    @AfterEach
    void tearDown() {
        vertx.close().await();
        if (mco != null) {
            mco.close();
        }
        cluster.close();
    }

    @Test
    void aRolloutCutByItsWindowsEndFinishesWhatItStartedAndGoesOnInTheNextWindow() throws Exception {
        // Given a worker pool with two windows, and a kernel change rolled out inside the first
        annotatePool(Map.of(UpdateWindows.WINDOWS, WINDOWS));
        start();
        String target = rollOutRealtimeKernel();
        await().atMost(Duration.ofSeconds(120)).until(() -> !doneOn(target).isEmpty());

        // When Saturday's window ends, at 00:30 on Sunday
        clock.set(Instant.parse("2026-03-28T23:31:00Z"));

        // Then the pool takes no new node: the one started finishes, none is left drained
        await().atMost(Duration.ofSeconds(30)).until(this::poolPaused);
        Set<String> started = assigned(target);
        assertThat(started).hasSizeLessThan(WORKERS);
        await().atMost(Duration.ofSeconds(120)).until(() -> doneOn(target).equals(started));
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(10))
                .until(() -> assigned(target).equals(started) && poolPaused() && noneCordoned());

        // And the pool says when it goes on, on the status page, in an Event and in a metric
        JsonObject schedule = statusOfPool().getJsonObject("schedule");
        assertThat(schedule.getString("state")).isEqualTo("closed");
        assertThat(schedule.getString("description")).contains("waiting for Sun 2026-03-29 04:00 CEST");
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(poolEvents()).anySatisfy(e -> {
                    assertThat(e.getReason()).isEqualTo("UpdateWindowClosed");
                    assertThat(e.getMessage()).contains("waiting for Sun 2026-03-29 04:00 CEST");
                }));
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(get("/metrics"))
                        .contains("mcdhooks_pool_schedule{pool=\"worker\",state=\"closed\"} 1.0"));

        // When it is 03:59 in Berlin, summer time (01:59 UTC): still closed
        clock.set(Instant.parse("2026-03-29T01:59:00Z"));
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(10))
                .until(() -> assigned(target).equals(started) && poolPaused());

        // When Sunday's window opens (04:30 CEST is 02:30 UTC)
        clock.set(Instant.parse("2026-03-29T02:30:00Z"));

        // Then the rollout completes, and the gatekeeper's pause is gone
        await().atMost(Duration.ofSeconds(180)).until(() -> doneOn(target).size() == WORKERS);
        await().atMost(Duration.ofSeconds(30)).until(() -> !poolPaused());
        assertThat(statusOfPool().getJsonObject("schedule").getString("state")).isEqualTo("open");
    }

    @Test
    void aPoolWithAPauseUpdatesNodeByNodeAndWaitsThePauseAfterEach() throws Exception {
        // Given a worker pool that pauses 20 minutes after each batch (of 1: maxUnavailable 1)
        annotatePool(Map.of(PoolSchedules.PAUSE, "20m"));
        start();
        String target = rollOutRealtimeKernel();

        // When the first node has finished
        await().atMost(Duration.ofSeconds(120)).until(() -> doneOn(target).size() == 1);

        // Then no other starts while the pause lasts, and the status page says until when
        await().atMost(Duration.ofSeconds(30)).until(this::poolPaused);
        Set<String> first = assigned(target);
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(10))
                .until(() -> assigned(target).equals(first));
        assertThat(first).hasSize(1);
        assertThat(statusOfPool().getJsonObject("schedule").getString("description"))
                .startsWith("20m pause after each batch, pausing until Sat 2026-03-28");

        // When 20 minutes have passed, the next node starts, and only it
        clock.set(clock.instant().plus(Duration.ofMinutes(21)));
        await().atMost(Duration.ofSeconds(60)).until(() -> assigned(target).size() == 2);
        await().atMost(Duration.ofSeconds(120)).until(() -> doneOn(target).size() == 2);
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(10))
                .until(() -> assigned(target).size() == 2 && poolPaused());
    }

    private void start() {
        Map<String, String> env = new HashMap<>(TestEnvironment.bridge(broker, "windows"));
        env.put("MCDHOOKS_NAMESPACE", NAMESPACE);
        env.put("MCDHOOKS_TICK", "200ms");
        BridgeConfig config = BridgeConfig.fromEnvironment(env);
        mco = McoSimulator.start(client, SimulatorConfig.defaults().withTimeScale(TIME_SCALE));
        bridge = new BridgeVerticle(
                config, cluster.clientAs(TestEnvironment.bridgeIdentity(config.namespace())), null, clock);
        vertx.deployVerticle(bridge).await();
    }

    private void annotatePool(Map<String, String> annotations) {
        Mco.annotatePool(client, "worker", annotations);
    }

    private String rollOutRealtimeKernel() {
        String before = poolTarget();
        mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-realtime", "worker", "realtime"));
        await().atMost(Duration.ofSeconds(30)).until(() -> !poolTarget().equals(before));
        return poolTarget();
    }

    /** Workers the MCO has asked to move to {@code target}. */
    private Set<String> assigned(String target) {
        return ClusterReads.workers(client).stream()
                .filter(n -> target.equals(ClusterReads.annotation(n, McoApi.DESIRED_CONFIG)))
                .map(n -> n.getMetadata().getName())
                .collect(Collectors.toSet());
    }

    /** Workers on {@code target}, done and schedulable. */
    private Set<String> doneOn(String target) {
        return ClusterReads.workers(client).stream()
                .filter(n -> target.equals(ClusterReads.annotation(n, McoApi.CURRENT_CONFIG))
                        && McoApi.STATE_DONE.equals(ClusterReads.annotation(n, McoApi.STATE))
                        && !Boolean.TRUE.equals(n.getSpec().getUnschedulable()))
                .map(n -> n.getMetadata().getName())
                .collect(Collectors.toSet());
    }

    private boolean noneCordoned() {
        return ClusterReads.workers(client).stream()
                .noneMatch(n -> Boolean.TRUE.equals(n.getSpec().getUnschedulable()));
    }

    private boolean poolPaused() {
        return ClusterReads.paused(ClusterReads.pool(client, "worker"));
    }

    private String poolTarget() {
        return ClusterReads.target(ClusterReads.pool(client, "worker"));
    }

    private List<Event> poolEvents() {
        // Events about cluster-scoped objects go to "default", as kubectl looks for them
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> McoApi.POOL_KIND.equals(e.getInvolvedObject().getKind())
                        && "worker".equals(e.getInvolvedObject().getName()))
                .toList();
    }

    private JsonObject statusOfPool() throws Exception {
        return new JsonObject(get("/api/status"))
                .getJsonArray("pools").stream()
                        .map(JsonObject.class::cast)
                        .filter(p -> p.getString("name").equals("worker"))
                        .findFirst()
                        .orElseThrow();
    }

    private String get(String path) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + bridge.httpPort() + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }
}
