package io.mcdhooks.sandbox.local;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.mcdhooks.bridge.BridgeConfig;
import io.mcdhooks.bridge.BridgeVerticle;
import io.mcdhooks.bridge.gate.Enforcement;
import io.mcdhooks.bridge.gate.PoolSchedules;
import io.mcdhooks.bridge.gate.UpdateWindows;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.sandbox.kafka.ForkedKafkaBroker;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.mco.Identity;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.MachineConfigs;
import io.mcdhooks.sandbox.mco.MaxUnavailable;
import io.mcdhooks.sandbox.mco.Mco;
import io.mcdhooks.sandbox.mco.McoSimulator;
import io.mcdhooks.sandbox.mco.SimulatorConfig;
import io.mcdhooks.sandbox.mco.Topology;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.settings.Grammar;
import io.mcdhooks.schemas.settings.Settings;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything of one local run, started in order and closed in reverse: the Kafka broker (forked
 * JVM) or a given Kafka, the in-memory cluster with the simulated MCO or a given cluster, the
 * bridge with its gatekeeper, and the example hooks in their runners. Close is idempotent and
 * safe from a shutdown hook.
 */
public final class LocalSystem implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalSystem.class);
    /** Files of deploy/admission/v1 (copied onto the classpath by the build), installed in the in-memory cluster. */
    private static final List<String> ADMISSION_POLICIES =
            List.of("gate-override-policy.yaml", "bridge-levers-policy.yaml", "post-update-hold-policy.yaml");

    static final String CLUSTER = "local";
    static final String NAMESPACE = "mcdhooks";
    static final String MACHINE_CONFIG = "99-worker-realtime";
    /** maintenance: how long the pool is frozen from the rollout on, and its pause after each node. */
    static final Duration FREEZE = Duration.ofSeconds(6);

    static final Duration PAUSE = Duration.ofSeconds(3);
    /** The ssh-key scenario's change: a key for user core, which the MCO applies without drain or reboot. */
    static final String SSH_MACHINE_CONFIG = "99-worker-ssh-demo";

    static final String SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMcdhooksLocalRunDemoKey demo@mcdhooks";

    private final LocalRunConfig config;
    private final List<String> notes = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "local-run-scenario");
        t.setDaemon(true);
        return t;
    });
    private final Instant startedAt = Instant.now();
    private Path dir;
    private KafkaBroker broker;
    private String bootstrapServers;
    private InMemoryCluster cluster;
    private KubernetesClient client;
    private KubernetesClient bridgeClient;
    private McoSimulator mco;
    private Vertx bridgeVertx;
    private BridgeVerticle bridge;
    private LocalRegistry registry;
    private LocalHooks hooks;
    private StatusClient status;
    private String initialTarget;
    private volatile Instant rolloutAt;
    private volatile Instant scenarioActionsDoneAt = Instant.EPOCH;
    private boolean closed;

    private LocalSystem(LocalRunConfig config) {
        this.config = config;
    }

    /** Starts everything the configuration asks for, registers the hooks, and (if asked) rolls out the change. */
    public static LocalSystem start(LocalRunConfig config) {
        LocalSystem system = new LocalSystem(config);
        try {
            system.startAll();
            return system;
        } catch (RuntimeException e) {
            system.close();
            throw e;
        }
    }

    private void startAll() {
        try {
            dir = Files.createTempDirectory("mcdhooks-local-");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a temporary directory", e);
        }
        // The broker (a forked JVM), the registry and the in-memory cluster start side by side.
        note("starting the registry (docker-registry) with the OS image and the kernel-module images");
        Path registryDir = dir;
        CompletableFuture<LocalRegistry> registryStart =
                CompletableFuture.supplyAsync(() -> LocalRegistry.start(registryDir));
        CompletableFuture<KafkaBroker> forked = null;
        if (config.embeddedKafka()) {
            note("starting the embedded Kafka broker (a forked JVM)");
            forked = CompletableFuture.supplyAsync(() -> ForkedKafkaBroker.start(Map.of()));
        }
        try {
            if (config.inMemoryCluster()) {
                cluster = InMemoryCluster.start();
                client = cluster.client();
                // The bridge acts as its own service account (deploy/base/bridge/rbac.yaml), as its token
                // would make it on a cluster; the run's own writes are the administrator's.
                bridgeClient = cluster.clientAs(Identity.serviceAccount(NAMESPACE, "mcdhooks-bridge"));
                Topology.builder()
                        .osImageUrl(LocalRegistry.OS_IMAGE)
                        .masters(config.masters())
                        .workers(config.workers())
                        .zones(config.zones().toArray(String[]::new))
                        .maxUnavailable(config.pool(), MaxUnavailable.of(config.maxUnavailable()))
                        .workloadPodsPerNode(1)
                        .daemonSetPodsPerNode(1)
                        .build()
                        .apply(client);
                installAdmissionPolicies(client);
                note("installed the admission policies of deploy/admission/v1, the post-update hold among them");
                mco = McoSimulator.start(client, SimulatorConfig.defaults().withTimeScale(config.timeScale()));
                note("in-memory cluster at " + cluster.url() + ": " + config.masters() + " masters, "
                        + config.workers() + " workers in " + config.zones() + ", worker maxUnavailable "
                        + config.maxUnavailable() + ", MCO simulated at " + (int) config.timeScale() + "x");
            } else {
                client = clientFor(config.kubeconfig());
                bridgeClient = clientFor(config.kubeconfig());
                note("cluster from " + config.kubeconfig() + " at " + client.getMasterUrl());
            }
        } finally {
            try {
                if (forked != null) {
                    broker = await(forked, "the embedded Kafka broker");
                }
            } finally {
                registry = await(registryStart, "the registry");
            }
        }
        note("registry at https://" + registry.host() + ": OS image " + LocalRegistry.OS_IMAGE + " (kernel "
                + LocalRegistry.KERNEL + ") through a mirror, modules " + LocalRegistry.MODULES + " for that kernel");
        if (config.scenario() != Scenario.KMOD_MISSING) {
            registry.pushModules(LocalRegistry.REALTIME_KERNEL);
            note("modules " + LocalRegistry.MODULES + " are built for the realtime kernel "
                    + LocalRegistry.REALTIME_KERNEL + " too");
        }
        bootstrapServers = broker != null ? broker.bootstrapServers() : config.bootstrapServers();
        note("Kafka at " + bootstrapServers);
        if (client.namespaces().withName(NAMESPACE).get() == null) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(NAMESPACE)
                            .endMetadata()
                            .build())
                    .create();
        }
        initialTarget = poolTarget();

        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("MCDHOOKS_CLUSTER", env.getOrDefault("MCDHOOKS_CLUSTER", CLUSTER));
        if (!env.containsKey("MCDHOOKS_STATE_KEY_FILE")) {
            env.put("MCDHOOKS_STATE_KEY_FILE", stateKeyFile().toString());
        }
        env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
        env.put("MCDHOOKS_HTTP_PORT", Integer.toString(config.httpPort()));
        // The status page is for this machine only.
        env.put("MCDHOOKS_HTTP_HOST", "127.0.0.1");
        env.put("MCDHOOKS_CREATE_TOPICS", "true");
        env.put("MCDHOOKS_TOPIC_PARTITIONS", "3");
        env.put("MCDHOOKS_NAMESPACE", NAMESPACE);
        env.put("MCDHOOKS_TICK", "200ms");
        // A demo shows a hook's lag turn within seconds, not within a production window.
        env.put("MCDHOOKS_LAG_INTERVAL", "1s");
        env.put("MCDHOOKS_LAG_WINDOW", "5");
        if (config.scenario() == Scenario.ROLLBACK) {
            // The in-memory cluster grants the bridge what deploy/rollback/ grants on a real one.
            env.put("MCDHOOKS_ROLLBACK", "true");
        }
        Settings bridgeSettings = Settings.of(env, BridgeConfig.SETTINGS);
        BridgeConfig bridgeConfig = BridgeConfig.from(bridgeSettings, KafkaSettings.fromEnvironment(env));
        // The bridge reads the caller's environment: a mistyped MCDHOOKS_* variable there is worth a note.
        bridgeSettings.warnings().forEach(warning -> note("bridge configuration: " + warning));
        LOG.info("bridge configuration: {}, Kafka client {}", bridgeSettings, bridgeConfig.kafka());
        bridgeVertx = Vertx.vertx();
        bridge = new BridgeVerticle(bridgeConfig, bridgeClient);
        await(bridgeVertx.deployVerticle(bridge).toCompletionStage().toCompletableFuture(), "bridge");
        status = new StatusClient(statusUri());
        note("bridge and gatekeeper up; status page at " + statusUri());

        Map<String, String> kafkaEnv = new HashMap<>();
        System.getenv().forEach((k, v) -> {
            if (k.startsWith("KAFKA_")) {
                kafkaEnv.put(k, v);
            }
        });
        kafkaEnv.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
        hooks = new LocalHooks(config.scenario(), config.pool(), dir, registry, kafkaEnv);
        hooks.start();
        for (UpdateHook hook : hooks.registrations(config.hookDownPolicy())) {
            client.resources(UpdateHook.class).resource(hook).createOr(NonDeletingOperation::update);
        }
        List<String> names = hooks.registrations(config.hookDownPolicy()).stream()
                .map(h -> h.getMetadata().getName())
                .toList();
        waitFor(Duration.ofSeconds(30), "the gatekeeper to know hooks " + names, () -> {
            List<String> known = status.fetch().getJsonArray("hooks").stream()
                    .map(h -> ((JsonObject) h).getString("name"))
                    .toList();
            return known.containsAll(names);
        });
        note("registered hooks " + names);
        if (config.scenario() == Scenario.HOOK_DOWN) {
            hooks.stop(LocalHooks.CMDB);
            note(LocalHooks.CMDB + " stopped: it consumes no more gate requests (timeout "
                    + LocalHooks.CMDB_TIMEOUT_SECONDS + " s, failurePolicy " + config.hookDownPolicy() + ")");
        }
        JsonObject hold = status.fetch().getJsonObject("postUpdateHold");
        if (hold != null) {
            note("post-update gates (" + hold.getString("mode") + "): " + hold.getString("enforced"));
        }
        if (config.rollOut()) {
            if (Enforcement.pauseHolds(config.pool())) {
                // Pools with pre-update hooks are paused at rest by the gatekeeper: roll out once it holds the pool.
                waitFor(
                        Duration.ofSeconds(30),
                        "the gatekeeper to pause pool " + config.pool(),
                        () -> Boolean.TRUE.equals(pool().get("spec", "paused")));
            } else {
                note("pool " + config.pool() + " is never paused for gates (a paused master pool with a pending"
                        + " update turns the machine-config ClusterOperator Degraded): its pool-pre-update gate and"
                        + " the pre-update gates of changes that do not drain are advisory");
            }
            rollOut();
        }
    }

    /** maintenance: the pool frozen for a few seconds from now, and a pause after each node. */
    private void schedulePool() {
        Instant until = Instant.now().plus(FREEZE).truncatedTo(ChronoUnit.SECONDS);
        Map<String, String> schedule =
                Map.of(UpdateWindows.FREEZE, "/" + until, PoolSchedules.PAUSE, Grammar.format(PAUSE));
        Mco.annotatePool(client, config.pool(), schedule);
        note("annotated pool " + config.pool() + ": " + UpdateWindows.FREEZE + "=/" + until + " (no update before),"
                + " " + PoolSchedules.PAUSE + "=" + Grammar.format(PAUSE) + " (after each node); "
                + LocalHooks.SELFCHECK + " soaks each updated node " + LocalHooks.SOAK);
    }

    private void rollOut() {
        if (config.scenario() == Scenario.MAINTENANCE) {
            schedulePool();
        }
        boolean sshKey = config.scenario() == Scenario.SSH_KEY;
        GenericKubernetesResource mc = sshKey
                ? MachineConfigs.sshKeys(SSH_MACHINE_CONFIG, config.pool(), List.of(SSH_KEY))
                : MachineConfigs.kernelType(MACHINE_CONFIG, config.pool(), "realtime");
        if (mco != null) {
            mco.applyMachineConfig(mc);
        } else {
            client.genericKubernetesResources(new ResourceDefinitionContext.Builder()
                            .withGroup("machineconfiguration.openshift.io")
                            .withVersion("v1")
                            .withKind("MachineConfig")
                            .withPlural("machineconfigs")
                            .withNamespaced(false)
                            .build())
                    .resource(mc)
                    .createOr(NonDeletingOperation::update);
        }
        rolloutAt = Instant.now();
        note(
                sshKey
                        ? "rolled out MachineConfig " + SSH_MACHINE_CONFIG + " (an SSH key for core: the MCO applies it"
                                + " without drain or reboot) to pool " + config.pool()
                                + "; its pre-update gates open now and hold"
                                + " the paused pool until each passes"
                        : "rolled out MachineConfig " + MACHINE_CONFIG + " (kernelType: realtime) to pool "
                                + config.pool());
        if (config.scenario() == Scenario.KMOD_MISSING) {
            scenarioActionsDoneAt = null;
            timer.schedule(
                    () -> {
                        List<String> pushed = registry.pushModules(LocalRegistry.REALTIME_KERNEL);
                        note("the module build landed: pushed " + String.join(", ", pushed) + " (kernel "
                                + LocalRegistry.REALTIME_KERNEL + ")");
                        scenarioActionsDoneAt = Instant.now();
                    },
                    config.kmodModulesAfter().toMillis(),
                    TimeUnit.MILLISECONDS);
        }
    }

    /** The status snapshot the bridge serves. */
    public JsonObject status() {
        return status.fetch();
    }

    public URI statusUri() {
        return URI.create("http://127.0.0.1:" + bridge.httpPort() + "/");
    }

    public KubernetesClient client() {
        return client;
    }

    /** The ValidatingAdmissionPolicies of deploy/admission/v1, enforced by the in-memory cluster as on a real one. */
    private static void installAdmissionPolicies(KubernetesClient client) {
        for (String file : ADMISSION_POLICIES) {
            try (InputStream in = LocalSystem.class.getResourceAsStream("/deploy/admission/v1/" + file)) {
                if (in == null) {
                    throw new IllegalStateException("deploy/admission/v1/" + file + " is not on the classpath");
                }
                client.load(in).create();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Writes a kubeconfig for the in-memory cluster, for tools run beside the local run. */
    public Path writeKubeconfig(Path path) {
        if (cluster == null) {
            throw new IllegalStateException("the run uses the cluster of " + config.kubeconfig());
        }
        return cluster.writeKubeconfig(path);
    }

    public LocalRunConfig config() {
        return config;
    }

    /** What the run did, in order, each with its offset from the start. */
    public List<String> notes() {
        return List.copyOf(notes);
    }

    public Instant startedAt() {
        return startedAt;
    }

    /** When the change was rolled out, or {@code null}. */
    public Instant rolloutAt() {
        return rolloutAt;
    }

    /** The worker pool's target before the rollout. */
    public String initialTarget() {
        return initialTarget;
    }

    /**
     * When the scenario did the last thing it does by itself (kmod-missing: the modules landed),
     * or {@code null} while it still has something to do.
     */
    public Instant scenarioActionsDoneAt() {
        return scenarioActionsDoneAt;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    void note(String text) {
        long millis = Duration.between(startedAt, Instant.now()).toMillis();
        notes.add(String.format("+%5.1fs %s", millis / 1000.0, text));
        LOG.info(text);
    }

    private String poolTarget() {
        GenericKubernetesResource pool = pool();
        return pool == null ? null : (String) pool.get("spec", "configuration", "name");
    }

    private GenericKubernetesResource pool() {
        return client.genericKubernetesResources(new ResourceDefinitionContext.Builder()
                        .withGroup("machineconfiguration.openshift.io")
                        .withVersion("v1")
                        .withKind("MachineConfigPool")
                        .withPlural("machineconfigpools")
                        .withNamespaced(false)
                        .build())
                .withName(config.pool())
                .get();
    }

    /** A state key of this run's alone: the bridge it starts trusts only what it sealed itself. */
    private static Path stateKeyFile() {
        try {
            Path file = Files.createTempFile("mcdhooks-local-state", ".key");
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            Files.write(file, key);
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a state key file", e);
        }
    }

    private static KubernetesClient clientFor(Path kubeconfig) {
        try {
            return new KubernetesClientBuilder()
                    .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig)))
                    .build();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read kubeconfig " + kubeconfig + ": " + e.getMessage(), e);
        }
    }

    /** Polls {@code condition} (production code: the run has no test framework to wait with). */
    private static void waitFor(Duration limit, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + limit.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for " + what, e);
            }
        }
        throw new IllegalStateException("timed out waiting for " + what, last);
    }

    private static <T> T await(CompletableFuture<T> future, String what) {
        try {
            return future.get(120, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted starting " + what, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start " + what + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<Runnable> steps = new ArrayList<>();
        steps.add(timer::shutdownNow);
        steps.add(() -> {
            if (hooks != null) {
                hooks.close();
            }
        });
        steps.add(() -> {
            if (bridgeVertx != null) {
                try {
                    bridgeVertx
                            .close()
                            .toCompletionStage()
                            .toCompletableFuture()
                            .get(15, TimeUnit.SECONDS);
                } catch (Exception e) {
                    LOG.atWarn().setCause(e).log("bridge did not stop cleanly");
                }
            }
        });
        steps.add(() -> {
            if (mco != null) {
                mco.close();
            }
        });
        steps.add(() -> {
            if (bridgeClient != null) {
                bridgeClient.close();
            }
            if (client != null && cluster == null) {
                client.close();
            }
        });
        steps.add(() -> {
            if (cluster != null) {
                cluster.close();
            }
        });
        steps.add(() -> {
            if (broker != null) {
                broker.close();
            }
        });
        steps.add(() -> {
            if (registry != null) {
                registry.close();
            }
        });
        steps.add(this::deleteDir);
        for (Runnable step : steps) {
            try {
                step.run();
            } catch (RuntimeException e) {
                LOG.atWarn().setCause(e).log("while stopping the local run");
            }
        }
    }

    private void deleteDir() {
        if (dir == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.atDebug().setCause(e).log("cannot delete {}", dir);
        }
    }
}
