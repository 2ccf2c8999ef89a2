package io.mcdhooks.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.gate.GateObjects;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.mcdhooks.bridge.gate.LeverWrites;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.bridge.mco.ChangeClassifier;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.kafka.junit.KafkaBrokerExtension;
import io.mcdhooks.sandbox.mco.Identity;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.MachineConfigs;
import io.mcdhooks.sandbox.mco.Mco;
import io.mcdhooks.sandbox.mco.McoSimulator;
import io.mcdhooks.sandbox.mco.SimulatedDeployment;
import io.mcdhooks.sandbox.mco.SimulatorConfig;
import io.mcdhooks.sandbox.mco.Topology;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the project's levers promise, checked on the simulator that behaves like the real MCO of
 * today (node disruption policies, Pending pods evicted without their budget, the ClusterOperator,
 * single-node clusters). Each test states the promise; where the levers do not keep it yet, the test
 * is disabled with what fails, until the issue that makes the levers hold on a real MCO is resolved.
 */
@ExtendWith(KafkaBrokerExtension.class)
class RealMcoGapsIT {

    private static final String NAMESPACE = "mcdhooks";
    private static final String ISSUE =
            "Fails on the faithful simulator until the issue \"Levers that hold on a real MCO: holds enforced"
                    + " by the API server, rolling pools, every kind of update and topology\" is resolved: ";
    private static final double TIME_SCALE = 100;
    private static final Identity GATEKEEPER = Identity.serviceAccount(NAMESPACE, "mcdhooks-bridge");
    private static final Path HOLD_POLICY = Path.of("..", "deploy", "admission", "v1", "post-update-hold-policy.yaml");
    private static final Duration LONG = Duration.ofSeconds(90);

    private final KafkaBroker broker;
    private InMemoryCluster cluster;
    private KubernetesClient client;
    private McoSimulator mco;
    private Vertx vertx;
    private ScriptedHook hook;

    RealMcoGapsIT(KafkaBroker broker) {
        this.broker = broker;
    }

    @AfterEach
    void tearDown() throws Exception {
        if (hook != null) {
            hook.close();
        }
        if (vertx != null) {
            vertx.close().await();
        }
        if (mco != null) {
            mco.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aFailingPreUpdateHookHoldsAChangeThatNeedsNoDrain() {
        // Given a pre-update hook that fails on the workers
        start(Topology.builder().workers(2), SimulatorConfig.defaults(), Map.of());
        hook("node-precheck", List.of(UpdateHookSpec.StageName.PRE_UPDATE), "worker", r -> Optional.of(Outcome.FAIL));
        deployBridge();

        // When a change that only reloads CRI-O is rolled out
        String target = rollOut(
                "worker",
                MachineConfigs.file("99-worker-policy", "worker", "/etc/containers/policy.json", "{\"default\":[]}"));

        // Then no worker runs it while its pre-update gate is blocked
        await().during(Duration.ofSeconds(10))
                .atMost(Duration.ofSeconds(15))
                .until(() -> workers().stream().noneMatch(n -> target.equals(annotation(n, Mco.CURRENT_CONFIG))));
        // (and the hook was told what the change does, by the policy the operator published)
        assertThat(hook.seen())
                .filteredOn(r -> r.stage() == Stage.PRE_UPDATE)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(ChangeClassifier.describe(r.disruption()))
                        .isEqualTo("services (Reload crio.service)"));
    }

    @Test
    void aGatePodThatIsNotRunningYetStillHoldsTheDrain() {
        // Given gate pods whose image cannot be pulled, and a pre-update hook that fails
        start(
                Topology.builder().workers(2),
                SimulatorConfig.defaults().withUnpullableImages(Pattern.compile("registry\\.example/slow/.*")),
                Map.of("MCDHOOKS_GATE_POD_IMAGE", "registry.example/slow/pause:3.10"));
        hook("node-precheck", List.of(UpdateHookSpec.StageName.PRE_UPDATE), "worker", r -> Optional.of(Outcome.FAIL));
        deployBridge();

        // When a change that drains and reboots is rolled out
        String target = rollOut("worker", MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

        // Then no worker is drained past its gate
        await().during(Duration.ofSeconds(10))
                .atMost(Duration.ofSeconds(15))
                .until(() -> workers().stream().noneMatch(n -> target.equals(annotation(n, Mco.CURRENT_CONFIG))));
    }

    @Test
    void holdingTheMasterPoolBeforeItsUpdateKeepsTheClusterOperatorHealthy() {
        // Given a pool-pre-update hook on the masters that fails, and the bridge running; the master
        // pool is not paused at rest (a paused master pool turns the ClusterOperator Degraded as soon
        // as a new config is rendered), so the gate is advisory there
        start(Topology.builder().masters(3).workers(1), SimulatorConfig.defaults(), Map.of());
        hook("kmod-check", List.of(UpdateHookSpec.StageName.POOL_PRE_UPDATE), "master", r -> Optional.of(Outcome.FAIL));
        deployBridge();
        await().during(Duration.ofSeconds(2)).atMost(LONG).until(() -> !paused("master"));

        // When a master change is rendered while the gate holds the pool
        rollOut("master", MachineConfigs.kernelArguments("99-master-kargs", "master", List.of("nosmt")));

        // Then the ClusterOperator stays not Degraded, the pool unpaused, and the hook asked all the same
        await().during(Duration.ofSeconds(10))
                .atMost(Duration.ofSeconds(15))
                .until(() -> !"True".equals(clusterOperatorCondition("Degraded")) && !paused("master"));
        await().atMost(LONG)
                .until(() -> hook.seen().stream()
                        .anyMatch(r -> r.stage() == Stage.POOL_PRE_UPDATE
                                && r.pool().name().equals("master")));
    }

    @Test
    void aSingleNodePostUpdateHoldIsReleasedWhenItsHookPasses() {
        // Given a single-node cluster and a post-update hook that first fails
        start(Topology.builder().masters(1).workers(0), SimulatorConfig.defaults(), Map.of());
        installHoldPolicy();
        var outcome = new AtomicReference<>(Outcome.FAIL);
        hook("node-check", List.of(UpdateHookSpec.StageName.POST_UPDATE), "master", r -> Optional.of(outcome.get()));
        // the bridge runs as its Deployment does, tolerating only its own taint: stopped while its
        // pod could not run
        SimulatedDeployment bridgePod = mco.deployment(
                "mcdhooks-bridge",
                List.of(new TolerationBuilder()
                        .withKey(LeverPlan.POST_UPDATE_TAINT)
                        .withOperator("Exists")
                        .withEffect("NoSchedule")
                        .build()),
                Map.of());
        var deployed = new AtomicReference<String>();
        bridgePod.onChange(running -> {
            if (running && deployed.get() == null) {
                deployed.set(deployBridge());
            } else if (!running && deployed.get() != null) {
                vertx.undeploy(deployed.getAndSet(null));
            }
        });
        deployed.set(deployBridge());

        // When the node updates and its hook then passes
        String target = rollOut("master", MachineConfigs.kernelType("99-master-rt", "master", "realtime"));
        await().atMost(LONG).until(() -> "Rebooting".equals(annotation(node("master-0"), Mco.POST_CONFIG_ACTION)));
        outcome.set(Outcome.PASS);

        // Then the node finishes its update, and the hook's status says the gate held nothing here
        await().atMost(LONG)
                .until(() -> target.equals(annotation(node("master-0"), Mco.CURRENT_CONFIG))
                        && "Done".equals(annotation(node("master-0"), Mco.STATE)));
        await().atMost(LONG).until(() -> "SingleNodeAdvisory".equals(holdMode("node-check")));
        assertThat(node("master-0").getMetadata().getAnnotations()).doesNotContainKey(GateObjects.HOLD);
    }

    @Test
    void withThePolicyAFailedNodeIsHandedOverToACordonAndStaysHeldWhileNoGatekeeperRuns() {
        // Given two workers (maxUnavailable 1), the shipped hold installed, a post-update hook that fails
        start(Topology.builder().masters(1).workers(2), SimulatorConfig.defaults(), Map.of());
        installHoldPolicy();
        hook("node-check", List.of(UpdateHookSpec.StageName.POST_UPDATE), "worker", r -> Optional.of(Outcome.FAIL));
        String deployed = deployBridge();
        await().atMost(LONG).until(() -> "Admission".equals(holdMode("node-check")));

        // When a change that drains and reboots rolls out: the first worker's check fails at its uncordon
        String target = rollOut("worker", MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));
        await().atMost(LONG).until(() -> handedOver(target).size() == 1);
        String heldNode = handedOver(target).get(0);

        // Then its hold was handed over: the MCD is done with it (its drain controller's worker free)
        // and the node is cordoned under the marker, tainted; the pool
        // was paused only for that moment, and the MCC took no second worker
        await().atMost(LONG).until(() -> !paused("worker"));
        assertThat(LeverWrites.tainted(node(heldNode))).isTrue();
        assertThat(assigned(target)).isEqualTo(1);

        // When no gatekeeper runs for a while
        vertx.undeploy(deployed).await();

        // Then the node stays cordoned under the hold (kube-apiserver refuses anyone else's uncordon),
        // so the MCC takes no second worker
        await().during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(15))
                .until(() -> handedOver(target).equals(List.of(heldNode)) && assigned(target) == 1);

        // When a gatekeeper runs again and the hook passes
        hook.script(r -> Optional.of(Outcome.PASS));
        deployBridge();
        var answered = new HashSet<String>();

        // Then every worker finishes its update, released, and the pool is left unpaused
        await().atMost(LONG).until(() -> {
            for (GateRequest request : hook.seen()) {
                if (answered.add(request.gateId() + "/" + request.attempt())) {
                    hook.answer(request, Outcome.PASS);
                }
            }
            return workers().stream()
                    .allMatch(n -> target.equals(annotation(n, Mco.CURRENT_CONFIG))
                            && "Done".equals(annotation(n, Mco.STATE))
                            && !Boolean.TRUE.equals(n.getSpec().getUnschedulable()));
        });
        await().atMost(LONG).until(() -> !paused("worker"));
        assertThat(workers())
                .allSatisfy(n -> assertThat(n.getMetadata().getAnnotations()).doesNotContainKey(GateObjects.HOLD));
    }

    @Test
    void withThePolicyAHoldThatLastsIsHandedOverBeforeTheMcdsTenMinutes() {
        // Given a post-update hook that does not answer, and a handover after 1 s (20 s of the MCO's
        // time here), the MCO at 20x so that its 10 minutes are 30 s
        start(
                Topology.builder().masters(1).workers(2),
                SimulatorConfig.defaults(),
                Map.of("MCDHOOKS_UNCORDON_HANDOVER", "1s"),
                20);
        installHoldPolicy();
        hook("node-check", List.of(UpdateHookSpec.StageName.POST_UPDATE), "worker", r -> Optional.empty());
        deployBridge();
        await().atMost(LONG).until(() -> "Admission".equals(holdMode("node-check")));

        // When a change that drains and reboots rolls out
        String target = rollOut("worker", MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

        // Then the first worker, its gate still open, ends Done and cordoned under the marker, never
        // degraded for its uncordon, and the pool takes no second worker
        await().atMost(LONG).until(() -> handedOver(target).size() == 1 && !paused("worker"));
        String heldNode = handedOver(target).get(0);
        assertThat(events(heldNode, "FailedToUncordon")).isEmpty();
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(() -> assigned(target) == 1);
    }

    /** The hold as shipped in deploy/, applied as written. */
    private void installHoldPolicy() {
        try (InputStream in = Files.newInputStream(HOLD_POLICY)) {
            client.load(in).create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Workers the MCD is done with on {@code target}, cordoned by the gatekeeper under the hold marker. */
    private List<String> handedOver(String target) {
        return workers().stream()
                .filter(n -> n.getMetadata().getAnnotations().containsKey(GateObjects.HOLD)
                        && n.getMetadata().getAnnotations().containsKey(GateObjects.CORDONED_FOR)
                        && Boolean.TRUE.equals(n.getSpec().getUnschedulable())
                        && target.equals(annotation(n, Mco.CURRENT_CONFIG))
                        && "Done".equals(annotation(n, Mco.STATE)))
                .map(n -> n.getMetadata().getName())
                .toList();
    }

    private List<String> events(String node, String reason) {
        return client.v1().events().inNamespace(Mco.NAMESPACE).list().getItems().stream()
                .filter(e -> node.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
                .map(e -> e.getMessage())
                .toList();
    }

    private long assigned(String target) {
        return workers().stream()
                .filter(n -> target.equals(annotation(n, Mco.DESIRED_CONFIG)))
                .count();
    }

    private String holdMode(String hook) {
        UpdateHook resource = client.resources(UpdateHook.class).withName(hook).get();
        return resource == null
                        || resource.getStatus() == null
                        || resource.getStatus().getPostUpdateHold() == null
                ? null
                : resource.getStatus().getPostUpdateHold().getMode();
    }

    private void start(Topology.Builder topology, SimulatorConfig simulator, Map<String, String> bridgeEnv) {
        start(topology, simulator, bridgeEnv, TIME_SCALE);
    }

    private void start(
            Topology.Builder topology, SimulatorConfig simulator, Map<String, String> bridgeEnv, double timeScale) {
        Map<String, String> env = TestEnvironment.bridge(broker, "gaps");
        env.put("MCDHOOKS_NAMESPACE", NAMESPACE);
        env.put("MCDHOOKS_TICK", "200ms");
        env.putAll(bridgeEnv);
        config = BridgeConfig.fromEnvironment(env);
        cluster = InMemoryCluster.start();
        client = cluster.client();
        topology.build().apply(client);
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(NAMESPACE)
                        .endMetadata()
                        .build())
                .create();
        vertx = Vertx.vertx();
        mco = McoSimulator.start(client, simulator.withTimeScale(timeScale));
    }

    private BridgeConfig config;

    private String deployBridge() {
        // as its ServiceAccount: the hold lets only that identity release a node
        return vertx.deployVerticle(new BridgeVerticle(config, cluster.clientAs(GATEKEEPER), null, Clock.systemUTC()))
                .await();
    }

    private void hook(
            String name,
            List<UpdateHookSpec.StageName> stages,
            String pool,
            Function<GateRequest, Optional<Outcome>> script) {
        UpdateHook resource = new UpdateHook();
        resource.getMetadata().setName(name);
        UpdateHookSpec spec = new UpdateHookSpec();
        spec.setStages(stages);
        spec.setPools(List.of(pool));
        spec.setTimeoutSeconds(600);
        resource.setSpec(spec);
        client.resources(UpdateHook.class).resource(resource).create();
        hook = new ScriptedHook(
                name, broker.bootstrapServers(), config.gateRequestsTopic(), config.verdictsTopic(), script);
    }

    private String rollOut(String pool, GenericKubernetesResource machineConfig) {
        String before = poolTarget(pool);
        mco.applyMachineConfig(machineConfig);
        await().atMost(LONG).until(() -> !poolTarget(pool).equals(before));
        return poolTarget(pool);
    }

    @SuppressWarnings("unchecked")
    private String poolTarget(String pool) {
        Map<String, Object> spec = (Map<String, Object>)
                Mco.pools(client).withName(pool).get().getAdditionalProperties().get("spec");
        return (String) ((Map<String, Object>) spec.get("configuration")).get("name");
    }

    @SuppressWarnings("unchecked")
    private boolean paused(String pool) {
        Map<String, Object> spec = (Map<String, Object>)
                Mco.pools(client).withName(pool).get().getAdditionalProperties().get("spec");
        return Boolean.TRUE.equals(spec.get("paused"));
    }

    @SuppressWarnings("unchecked")
    private String clusterOperatorCondition(String type) {
        GenericKubernetesResource co = Mco.clusterOperator(client).get();
        if (co == null || !(co.getAdditionalProperties().get("status") instanceof Map<?, ?> status)) {
            return null;
        }
        for (Object c : (List<Object>) status.get("conditions")) {
            Map<String, Object> m = (Map<String, Object>) c;
            if (type.equals(m.get("type"))) {
                return (String) m.get("status");
            }
        }
        return null;
    }

    private Node node(String name) {
        return client.nodes().withName(name).get();
    }

    private List<Node> workers() {
        return client.nodes().list().getItems().stream()
                .filter(n -> n.getMetadata().getLabels().containsKey("node-role.kubernetes.io/worker"))
                .toList();
    }

    private static String annotation(Node node, String key) {
        return node == null || node.getMetadata().getAnnotations() == null
                ? null
                : node.getMetadata().getAnnotations().get(key);
    }
}
