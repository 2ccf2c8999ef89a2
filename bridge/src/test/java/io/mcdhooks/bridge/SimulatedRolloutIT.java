package io.mcdhooks.bridge;

import static io.mcdhooks.schemas.Transition.APPLIED;
import static io.mcdhooks.schemas.Transition.CORDONED;
import static io.mcdhooks.schemas.Transition.DONE;
import static io.mcdhooks.schemas.Transition.DRAINED;
import static io.mcdhooks.schemas.Transition.DRAIN_REQUESTED;
import static io.mcdhooks.schemas.Transition.REBOOTING;
import static io.mcdhooks.schemas.Transition.RESUMED;
import static io.mcdhooks.schemas.Transition.UNCORDONED;
import static io.mcdhooks.schemas.Transition.UNCORDON_REQUESTED;
import static io.mcdhooks.schemas.Transition.UPDATE_ASSIGNED;
import static io.mcdhooks.schemas.Transition.WORKING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.kafka.junit.KafkaBrokerExtension;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.MachineConfigs;
import io.mcdhooks.sandbox.mco.MaxUnavailable;
import io.mcdhooks.sandbox.mco.McoSimulator;
import io.mcdhooks.sandbox.mco.SimulatorConfig;
import io.mcdhooks.sandbox.mco.Topology;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.LifecycleEvent;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Transition;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A whole simulated rollout through the bridge: every node's transitions, in order, and its gate requests. */
@ExtendWith(KafkaBrokerExtension.class)
class SimulatedRolloutIT {

    private static final List<Transition> FULL_UPDATE = List.of(
            UPDATE_ASSIGNED,
            WORKING,
            DRAIN_REQUESTED,
            CORDONED,
            DRAINED,
            APPLIED,
            REBOOTING,
            RESUMED,
            UNCORDON_REQUESTED,
            UNCORDONED,
            DONE);

    private final KafkaBroker broker;

    SimulatedRolloutIT(KafkaBroker broker) {
        this.broker = broker;
    }

    @ParameterizedTest(name = "MachineConfigNodes served: {0}")
    @ValueSource(booleans = {true, false})
    void publishesEveryNodesTransitionsInOrderAndAGateRequestPerStageWithTheTargetsFacts(boolean machineConfigNodes)
            throws Exception {
        Map<String, String> env = TestEnvironment.bridge(broker, "sim");
        env.put("MCDHOOKS_GATEKEEPER", "false");
        env.put("MCDHOOKS_GATED_POOLS", "worker");
        BridgeConfig config = BridgeConfig.fromEnvironment(env);
        Vertx vertx = Vertx.vertx();
        try (InMemoryCluster cluster = InMemoryCluster.start();
                KafkaTopicReader reader = new KafkaTopicReader(
                        broker.bootstrapServers(), List.of(config.lifecycleTopic(), config.gateRequestsTopic()))) {
            // Given three workers in two zones, and the bridge watching them
            Topology topology = Topology.builder()
                    .masters(1)
                    .workers(3)
                    .zones("zone-a", "zone-b")
                    .maxUnavailable("worker", MaxUnavailable.of(2))
                    .workloadPodsPerNode(1)
                    .build();
            topology.apply(cluster.client());
            vertx.deployVerticle(new BridgeVerticle(
                            config,
                            cluster.clientAs(TestEnvironment.bridgeIdentity(config.namespace())),
                            null,
                            Clock.systemUTC()))
                    .await();

            // When the simulated MCO rolls out a realtime kernel
            try (McoSimulator mco = McoSimulator.start(
                    cluster.client(), SimulatorConfig.defaults().withMachineConfigNodes(machineConfigNodes))) {
                mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-realtime", "worker", "realtime"));

                // Then each worker's update is on Kafka, milestone by milestone, in order
                List<String> workers = topology.nodeNames("worker");
                await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
                    List<KafkaTopicReader.Read> read = reader.poll();
                    for (String worker : workers) {
                        assertThat(transitions(read, worker)).as(worker).containsExactlyElementsOf(FULL_UPDATE);
                    }
                });
                List<KafkaTopicReader.Read> read = reader.poll();
                assertThat(read.stream().map(KafkaTopicReader.Read::id)).doesNotHaveDuplicates();
                String target = lifecycle(read, workers.get(0)).get(0).toConfig();
                assertThat(transitions(read, "master-0")).isEmpty();

                // And every worker had a pre- and a post-update gate request, the pool one pool gate
                List<GateRequest> gates = read.stream()
                        .map(KafkaTopicReader.Read::message)
                        .filter(GateRequest.class::isInstance)
                        .map(GateRequest.class::cast)
                        .toList();
                assertThat(gates)
                        .filteredOn(g -> g.stage() == Stage.POOL_PRE_UPDATE)
                        .singleElement()
                        .satisfies(g -> assertThat(g.pool().name()).isEqualTo("worker"));
                for (String worker : workers) {
                    assertThat(gates)
                            .filteredOn(g -> g.node() != null && g.node().name().equals(worker))
                            .extracting(GateRequest::stage)
                            .containsExactly(Stage.PRE_UPDATE, Stage.POST_UPDATE);
                }
                assertThat(gates).allSatisfy(g -> {
                    assertThat(g.targetConfig()).isEqualTo(target);
                    assertThat(g.target().kernelType()).isEqualTo("realtime");
                    assertThat(g.target().osImageURL()).isEqualTo(Topology.DEFAULT_OS_IMAGE);
                    assertThat(g.pool().maxUnavailable()).isEqualTo("2");
                });
                assertThat(gates)
                        .filteredOn(g -> g.node() != null)
                        .allSatisfy(g -> assertThat(g.node().zone()).startsWith("zone-"));
            }
        } finally {
            vertx.close().await();
        }
    }

    private static List<LifecycleEvent> lifecycle(List<KafkaTopicReader.Read> read, String object) {
        return read.stream()
                .map(KafkaTopicReader.Read::message)
                .filter(LifecycleEvent.class::isInstance)
                .map(LifecycleEvent.class::cast)
                .filter(e -> e.object().name().equals(object))
                .toList();
    }

    private static List<Transition> transitions(List<KafkaTopicReader.Read> read, String object) {
        return lifecycle(read, object).stream().map(LifecycleEvent::transition).toList();
    }
}
