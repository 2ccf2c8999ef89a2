package io.mcdhooks.bridge;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.kafka.junit.KafkaBrokerExtension;
import io.mcdhooks.sandbox.mco.Identity;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.Mco;
import io.mcdhooks.sandbox.mco.McoSimulator;
import io.mcdhooks.sandbox.mco.SimulatorConfig;
import io.mcdhooks.sandbox.mco.Topology;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The gatekeeper on the simulated MCO, for tests of what it does to a cluster: an in-memory API
 * server, the simulator, a real broker, one scripted hook, and the bridge as its service account.
 */
@ExtendWith(KafkaBrokerExtension.class)
abstract class GatekeeperOnSimulator {

    protected static final String NAMESPACE = "mcdhooks";
    protected static final Identity GATEKEEPER = Identity.serviceAccount(NAMESPACE, "mcdhooks-bridge");
    protected static final Duration LONG = Duration.ofSeconds(90);
    private static final double TIME_SCALE = 100;
    private static final Path HOLD_POLICY = Path.of("..", "deploy", "admission", "v1", "post-update-hold-policy.yaml");

    protected final KafkaBroker broker;
    private final String clusterName;
    protected InMemoryCluster cluster;
    protected KubernetesClient client;
    protected McoSimulator mco;
    protected Vertx vertx;
    protected ScriptedHook hook;
    protected BridgeConfig config;
    /** The bridge deployed last. */
    protected BridgeVerticle bridge;

    /** @param clusterName the cluster the bridge and its messages name */
    protected GatekeeperOnSimulator(KafkaBroker broker, String clusterName) {
        this.broker = broker;
        this.clusterName = clusterName;
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

    /** The hold as shipped in deploy/, applied as written. */
    protected void installHoldPolicy() {
        try (InputStream in = Files.newInputStream(HOLD_POLICY)) {
            client.load(in).create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    protected List<String> events(String node, String reason) {
        return client.v1().events().inNamespace(Mco.NAMESPACE).list().getItems().stream()
                .filter(e -> node.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
                .map(e -> e.getMessage())
                .toList();
    }

    /** The messages of the Events the gatekeeper recorded on {@code object} (a node or a pool) with {@code reason}. */
    protected List<String> gatekeeperEvents(String object, String reason) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> object.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
                .map(e -> e.getMessage())
                .toList();
    }

    protected long assigned(String target) {
        return workers().stream()
                .filter(n -> target.equals(annotation(n, Mco.DESIRED_CONFIG)))
                .count();
    }

    protected String holdMode(String hook) {
        UpdateHook resource = client.resources(UpdateHook.class).withName(hook).get();
        return resource == null
                        || resource.getStatus() == null
                        || resource.getStatus().getPostUpdateHold() == null
                ? null
                : resource.getStatus().getPostUpdateHold().getMode();
    }

    protected void start(Topology.Builder topology, SimulatorConfig simulator, Map<String, String> bridgeEnv) {
        start(topology, simulator, bridgeEnv, TIME_SCALE);
    }

    protected void start(
            Topology.Builder topology, SimulatorConfig simulator, Map<String, String> bridgeEnv, double timeScale) {
        Map<String, String> env = TestEnvironment.bridge(broker, clusterName);
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

    protected String deployBridge() {
        // as its ServiceAccount: the hold lets only that identity release a node
        bridge = new BridgeVerticle(config, cluster.clientAs(GATEKEEPER), null, Clock.systemUTC());
        return vertx.deployVerticle(bridge).await();
    }

    protected void hook(
            String name,
            List<UpdateHookSpec.StageName> stages,
            String pool,
            Function<GateRequest, Optional<Outcome>> script) {
        hook(name, stages, pool, script, spec -> {});
    }

    /** A hook answering as {@code script} says, its UpdateHook's spec as {@code settings} makes it. */
    protected void hook(
            String name,
            List<UpdateHookSpec.StageName> stages,
            String pool,
            Function<GateRequest, Optional<Outcome>> script,
            Consumer<UpdateHookSpec> settings) {
        UpdateHook resource = new UpdateHook();
        resource.getMetadata().setName(name);
        UpdateHookSpec spec = new UpdateHookSpec();
        spec.setStages(stages);
        spec.setPools(List.of(pool));
        spec.setTimeoutSeconds(600);
        settings.accept(spec);
        resource.setSpec(spec);
        client.resources(UpdateHook.class).resource(resource).create();
        hook = new ScriptedHook(
                name, broker.bootstrapServers(), config.gateRequestsTopic(), config.verdictsTopic(), script);
    }

    protected String rollOut(String pool, GenericKubernetesResource machineConfig) {
        String before = poolTarget(pool);
        mco.applyMachineConfig(machineConfig);
        await().atMost(LONG).until(() -> !poolTarget(pool).equals(before));
        return poolTarget(pool);
    }

    @SuppressWarnings("unchecked")
    protected String poolTarget(String pool) {
        Map<String, Object> spec = (Map<String, Object>)
                Mco.pools(client).withName(pool).get().getAdditionalProperties().get("spec");
        return (String) ((Map<String, Object>) spec.get("configuration")).get("name");
    }

    /** Whether the pool's status reports it Updated on {@code config}: at rest there, as the MCC last synced it. */
    @SuppressWarnings("unchecked")
    protected boolean updatedOn(String pool, String config) {
        Map<String, Object> status = (Map<String, Object>)
                Mco.pools(client).withName(pool).get().getAdditionalProperties().get("status");
        if (status == null
                || !(status.get("configuration") instanceof Map<?, ?> configuration)
                || !config.equals(configuration.get("name"))
                || !(status.get("conditions") instanceof List<?> conditions)) {
            return false;
        }
        return conditions.stream()
                .map(c -> (Map<String, Object>) c)
                .anyMatch(c -> "Updated".equals(c.get("type")) && "True".equals(c.get("status")));
    }

    @SuppressWarnings("unchecked")
    protected boolean paused(String pool) {
        Map<String, Object> spec = (Map<String, Object>)
                Mco.pools(client).withName(pool).get().getAdditionalProperties().get("spec");
        return Boolean.TRUE.equals(spec.get("paused"));
    }

    @SuppressWarnings("unchecked")
    protected String clusterOperatorCondition(String type) {
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

    protected Node node(String name) {
        return client.nodes().withName(name).get();
    }

    protected List<Node> workers() {
        return client.nodes().list().getItems().stream()
                .filter(n -> n.getMetadata().getLabels().containsKey("node-role.kubernetes.io/worker"))
                .toList();
    }

    protected static String annotation(Node node, String key) {
        return node == null || node.getMetadata().getAnnotations() == null
                ? null
                : node.getMetadata().getAnnotations().get(key);
    }
}
