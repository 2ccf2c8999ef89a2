package io.mcdhooks.sandbox.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.BridgeConfig;
import io.mcdhooks.bridge.BridgeVerticle;
import io.mcdhooks.bridge.TestEnvironment;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.MachineConfigs;
import io.mcdhooks.sandbox.mco.Mco;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

/**
 * The bridge with its gatekeeper, as deployed, on topics of its own: its own Vert.x and its own
 * API client, like the process it is in production.
 */
final class BenchBridge implements AutoCloseable {

    static final String CLUSTER = "bench";
    static final String NAMESPACE = "mcdhooks";
    static final String POOL = "worker";

    private final BridgeConfig config;
    private final Vertx vertx;
    private final BridgeVerticle verticle;
    private final KubernetesClient client;

    private BenchBridge(BridgeConfig config, Vertx vertx, BridgeVerticle verticle, KubernetesClient client) {
        this.config = config;
        this.vertx = vertx;
        this.verticle = verticle;
        this.client = client;
    }

    /**
     * Deploys a bridge with a client of its own acting as the bridge's service account (closed with
     * it); register hooks before, so its gatekeeper knows them from the start.
     */
    static BenchBridge start(String bootstrap, InMemoryCluster cluster) {
        KubernetesClient bridgeClient = cluster.clientAs(TestEnvironment.bridgeIdentity(NAMESPACE));
        Map<String, String> env = TestEnvironment.bridge(
                bootstrap, CLUSTER, UUID.randomUUID().toString().substring(0, 8));
        env.put("MCDHOOKS_NAMESPACE", NAMESPACE);
        // The lever a run compares (e.g. MCDHOOKS_PRE_UPDATE_LOOKAHEAD=0): taken from the harness's environment.
        String lookahead = System.getenv(BridgeConfig.PRE_UPDATE_LOOKAHEAD.name());
        if (lookahead != null) {
            env.put(BridgeConfig.PRE_UPDATE_LOOKAHEAD.name(), lookahead);
        }
        BridgeConfig config = BridgeConfig.fromEnvironment(env);
        Vertx vertx = Vertx.vertx();
        BridgeVerticle verticle = new BridgeVerticle(config, bridgeClient);
        try {
            vertx.deployVerticle(verticle)
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(300, TimeUnit.SECONDS);
        } catch (Exception e) {
            vertx.close();
            bridgeClient.close();
            throw new IllegalStateException("the bridge did not start: " + e.getMessage(), e);
        }
        return new BenchBridge(config, vertx, verticle, bridgeClient);
    }

    BridgeConfig config() {
        return config;
    }

    boolean ready() {
        return verticle.ready();
    }

    /** The shipped post-update hold, found from the working directory up, applied as written. */
    static void installHoldPolicy(KubernetesClient client) {
        Path relative = Path.of("deploy", "admission", "v1", "post-update-hold-policy.yaml");
        Path policy = null;
        for (Path dir = Path.of("").toAbsolutePath(); dir != null && policy == null; dir = dir.getParent()) {
            policy = Files.exists(dir.resolve(relative)) ? dir.resolve(relative) : null;
        }
        if (policy == null) {
            throw new IllegalStateException(
                    relative + " not found from " + Path.of("").toAbsolutePath());
        }
        try (InputStream in = Files.newInputStream(policy)) {
            client.load(in).create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The namespace of gate pods, and {@code hooks} UpdateHooks on the worker pool for {@code stages}. */
    static void prepare(KubernetesClient client, List<String> hooks, List<UpdateHookSpec.StageName> stages) {
        if (client.namespaces().withName(NAMESPACE).get() == null) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(NAMESPACE)
                            .endMetadata()
                            .build())
                    .create();
        }
        for (String name : hooks) {
            UpdateHook hook = new UpdateHook();
            hook.getMetadata().setName(name);
            UpdateHookSpec spec = new UpdateHookSpec();
            spec.setStages(stages);
            spec.setPools(List.of(POOL));
            spec.setTimeoutSeconds(1800);
            hook.setSpec(spec);
            client.resources(UpdateHook.class).resource(hook).create();
        }
    }

    /** A rendered config of the worker pool, which gate requests need before they are published. */
    static void renderedConfig(KubernetesClient client, String name) {
        GenericKubernetesResource mc = MachineConfigs.of(
                name,
                POOL,
                Map.of(
                        "kernelType",
                        "realtime",
                        "osImageURL",
                        "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:bench"));
        Mco.machineConfigs(client).resource(mc).create();
    }

    static boolean poolPaused(KubernetesClient client) {
        GenericKubernetesResource pool = Mco.pools(client).withName(POOL).get();
        return pool != null && Boolean.TRUE.equals(pool.get("spec", "paused"));
    }

    static List<String> hookNames(int hooks) {
        return IntStream.range(0, hooks)
                .mapToObj(i -> String.format("bench-hook-%02d", i))
                .toList();
    }

    /** Polls {@code condition} (the harness has no test framework to wait with). */
    static void waitFor(Duration limit, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for " + what, e);
            }
        }
        throw new IllegalStateException("timed out after " + limit + " waiting for " + what);
    }

    @Override
    public void close() {
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            // the next measurement starts on fresh topics either way
        }
        client.close();
    }
}
