package io.mcdhooks.sandbox.faults;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.Leadership;
import io.mcdhooks.bridge.TestEnvironment;
import io.mcdhooks.bridge.gate.GateObjects;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.sandbox.faults.History.HookPolicy;
import io.mcdhooks.sandbox.faults.History.Produced;
import io.mcdhooks.sandbox.faults.Invariants.Violation;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.MachineConfigs;
import io.mcdhooks.sandbox.mco.MaxUnavailable;
import io.mcdhooks.sandbox.mco.McoSimulator;
import io.mcdhooks.sandbox.mco.SimulatorConfig;
import io.mcdhooks.sandbox.mco.Topology;
import io.mcdhooks.schemas.Stage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One simulated rollout under faults: an in-memory cluster with the simulated MCO, the bridge
 * (one or two replicas) and a real hook runner as child JVMs, a misbehaving hook and a silent one,
 * and a seeded plan of faults. When the plan is done every fault is lifted, the run waits for the
 * rollout to finish, and the invariants are checked on what the recorder saw.
 */
final class FaultRun {

    private static final Logger LOG = LoggerFactory.getLogger(FaultRun.class);
    static final String CLUSTER = "faults";
    static final String POOL = "worker";
    private static final String NAMESPACE = Children.NAMESPACE;
    private static final String EXEC_HOOK = "exec-check";
    private static final String SILENT_HOOK = "silent";
    /** Simulated seconds per real second: the MCD's one-hour drain limit lasts 72 s. */
    private static final double TIME_SCALE = 50;
    /** The post-update hold as shipped, applied as written. */
    private static final Path HOLD_POLICY =
            Path.of("..", "..", "deploy", "admission", "v1", "post-update-hold-policy.yaml");
    /** What the bridge logs once it has read back, started its informers and acts. */
    private static final String BRIDGE_UP = "bridge watching cluster";

    /** What to inject. */
    enum Fault {
        /** SIGKILL the leading bridge (the gatekeeper) and start it again at once. */
        GATEKEEPER_KILL,
        /** SIGKILL the leading bridge and keep it down 2–6 s while the MCO goes on. */
        BRIDGE_OUTAGE,
        /** Stop the broker for 2–5 s. */
        BROKER_RESTART,
        /** SIGKILL the hook runner (its checks take a second) and start it again within a second. */
        RUNNER_KILL,
        /**
         * With two replicas: SIGKILL the lease holder and start a replacement with a new identity at
         * once; after the lease expires the standby and the replacement race for it.
         */
        LEADER_KILL,
        /**
         * With two replicas: the lease holder's renewals fail for 20 s while it runs: it must stop
         * acting (it exits) before anyone else may take the lease; it comes back as a standby.
         */
        LEASE_LOSS
    }

    /**
     * @param faults    faults to inject, in a seeded random order, one every 0.5–6 s (two in three
     *                  counted from when the gatekeeper acts again)
     * @param apiFaults whether the bridge's API writes meet conflicts, errors and slow answers meanwhile
     * @param holdPolicy whether the shipped admission policy holds updated nodes (else the
     *                  gatekeeper falls back to batch pacing)
     */
    record Spec(
            String name,
            long seed,
            int workers,
            int maxUnavailable,
            int replicas,
            Map<Fault, Integer> faults,
            boolean apiFaults,
            boolean holdPolicy) {}

    record Result(
            Spec spec,
            Map<String, Long> injected,
            List<Violation> violations,
            Duration duration,
            int mostUnavailable,
            int verdicts,
            int decisions,
            int bridgeStarts,
            String logs) {}

    private final KafkaBroker broker;
    private final Spec spec;
    private final Path dir;
    private final Random random;
    private final Map<String, Long> injected = new TreeMap<>();
    private final ApiFaults api;
    private String clusterUrl;
    private String bridgeToken;
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(4, r -> {
        Thread t = new Thread(r, "faults");
        t.setDaemon(true);
        return t;
    });

    FaultRun(KafkaBroker broker, Spec spec, Path logRoot) {
        this.broker = broker;
        this.spec = spec;
        this.random = new Random(spec.seed());
        this.api = new ApiFaults(spec.seed(), 0.20, 0.10, 0.20, Duration.ofMillis(800));
        // A replayed seed writes to the same directory: what an earlier run left there (the hook's
        // passes file above all) would be read as this run's.
        this.dir = FaultCluster.cleanDirectory(logRoot.resolve(spec.name() + "-" + spec.seed()));
    }

    Result run() throws IOException {
        Instant begin = Instant.now();
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String requests = "gates-" + suffix;
        String verdicts = "verdicts-" + suffix;
        String decisions = "decisions-" + suffix;
        List<ChildJvm> bridges = new ArrayList<>();
        ChildJvm runner = null;
        ChaosHook chaos = null;
        Recorder recorder = null;
        McoSimulator mco = null;
        try (InMemoryCluster cluster = InMemoryCluster.start()) {
            KubernetesClient client = cluster.client();
            clusterUrl = cluster.url();
            // The bridges' service-account token, as their pods would mount it
            bridgeToken = cluster.tokenFor(TestEnvironment.bridgeIdentity(NAMESPACE));
            Topology.builder()
                    .workers(spec.workers())
                    .zones("zone-a", "zone-b")
                    .maxUnavailable(POOL, MaxUnavailable.of(spec.maxUnavailable()))
                    .workloadPodsPerNode(1)
                    .daemonSetPodsPerNode(1)
                    .build()
                    .apply(client);
            FaultCluster.namespace(client);
            if (spec.holdPolicy()) {
                try (var in = Files.newInputStream(HOLD_POLICY)) {
                    client.load(in).create();
                }
            }
            Set<String> workers = client.nodes().list().getItems().stream()
                    .filter(n -> n.getMetadata().getLabels().containsKey("node-role.kubernetes.io/worker"))
                    .map(n -> n.getMetadata().getName())
                    .collect(Collectors.toCollection(HashSet::new));
            List<HookPolicy> policies = registerHooks(client);
            List<TopicPartition> partitions = createTopics(
                    List.of("lifecycle-" + suffix, requests, verdicts, decisions, "dead-letter-" + suffix),
                    List.of(requests, verdicts, decisions));
            recorder = new Recorder(cluster.newClient(), NAMESPACE, broker.bootstrapServers(), partitions);
            cluster.interceptRequests(api);
            mco = McoSimulator.start(
                    client, SimulatorConfig.defaults().withTimeScale(TIME_SCALE).withSeed(spec.seed()));

            Path passes = dir.resolve("exec-check.passes");
            runner = runner(requests, verdicts, "dead-letter-" + suffix, passes);
            runner.start();
            chaos = new ChaosHook(
                    broker.bootstrapServers(),
                    requests,
                    verdicts,
                    Set.of(Stage.POOL_PRE_UPDATE, Stage.POST_UPDATE),
                    spec.seed());
            for (int i = 0; i < spec.replicas(); i++) {
                bridges.add(bridge("bridge-" + (char) ('a' + i), suffix));
            }
            bridges.forEach(ChildJvm::start);
            List<ChildJvm> supervised = new ArrayList<>(bridges);
            supervised.add(runner);
            scheduler.scheduleWithFixedDelay(
                    () -> supervised.forEach(ChildJvm::restartIfExited), 300, 300, TimeUnit.MILLISECONDS);

            // Pools with pre-update hooks are paused at rest by the gatekeeper: roll out once it holds the pool.
            await("the gatekeeper to hold the pool at rest")
                    .atMost(Duration.ofSeconds(90))
                    .until(() -> Boolean.TRUE.equals(pool(client).get("spec", "paused")));
            String before = target(client);
            mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-realtime", POOL, "realtime"));
            await("the new config to be rendered")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> !before.equals(target(client)));
            String target = target(client);
            LOG.info("run {} seed {}: rolling out {} to {} workers", spec.name(), spec.seed(), target, workers.size());

            api.active(spec.apiFaults());
            inject(bridges, runner, client).join();
            api.active(false);
            LOG.info("run {}: faults done, waiting for the rollout to finish", spec.name());

            // Everything is back: the rollout must now finish and every node be released.
            boolean finished = awaitQuietly(Duration.ofSeconds(180), () -> finished(client, workers, target));
            Map<TopicPartition, Long> ends = endOffsets(partitions);
            Recorder rec = recorder;
            awaitQuietly(Duration.ofSeconds(30), () -> rec.caughtUp(ends));
            Set<String> gatePods =
                    client.pods().inNamespace(NAMESPACE).withLabel(GateObjects.GATE_LABEL).list().getItems().stream()
                            .map(p -> p.getMetadata().getName())
                            .collect(Collectors.toSet());
            List<Produced> produced = new ArrayList<>(chaos.produced());
            produced.addAll(runnerPasses(passes));
            History history = new History(
                    CLUSTER,
                    POOL,
                    spec.maxUnavailable(),
                    target,
                    workers,
                    policies,
                    recorder.nodes(),
                    recorder.pools(),
                    recorder.kafka(),
                    produced,
                    gatePods,
                    recorder.leases(),
                    api.writes());
            List<Violation> violations = new ArrayList<>(Invariants.all(history));
            if (recorder.undecodable() != null) {
                violations.add(new Violation("undecodable-record", recorder.undecodable()));
            }
            if (!violations.isEmpty()) {
                // What the recorder saw, for whoever reads the failure
                writeLines(
                        dir.resolve("violations.txt"),
                        violations.stream().map(Violation::toString).toList());
                writeLines(
                        dir.resolve("nodes.txt"),
                        history.nodes().stream().map(Object::toString).toList());
                writeLines(
                        dir.resolve("kafka.txt"),
                        history.kafka().stream().map(Object::toString).toList());
            }
            if (!finished) {
                LOG.warn("run {}: the rollout did not finish in time", spec.name());
            }
            api.counts().forEach((k, v) -> {
                if (!k.equals("api-writes")) {
                    injected.put(k, v);
                }
            });
            injected.put("chaos-verdicts", (long) chaos.sent());
            int starts = bridges.stream().mapToInt(ChildJvm::starts).sum();
            long verdictCount = history.kafka().stream()
                    .filter(e -> e.topic().equals(verdicts))
                    .count();
            long decisionCount = history.kafka().stream()
                    .filter(e -> e.topic().equals(decisions))
                    .count();
            return new Result(
                    spec,
                    Map.copyOf(injected),
                    violations,
                    Duration.between(begin, Instant.now()),
                    Invariants.mostUnavailable(history),
                    (int) verdictCount,
                    (int) decisionCount,
                    starts,
                    dir.toString());
        } finally {
            scheduler.shutdownNow();
            bridges.forEach(ChildJvm::close);
            if (runner != null) {
                runner.close();
            }
            if (chaos != null) {
                chaos.close();
            }
            if (recorder != null) {
                recorder.close();
            }
            if (mco != null) {
                mco.close();
            }
            if (!broker.isRunning()) {
                broker.start();
            }
        }
    }

    /** Runs the plan: each fault after a random pause, outages restored before the next fault. */
    private CompletableFuture<Void> inject(List<ChildJvm> bridges, ChildJvm runner, KubernetesClient client) {
        List<Fault> plan = new ArrayList<>();
        spec.faults().forEach((fault, n) -> plan.addAll(Collections.nCopies(n, fault)));
        plan.sort(Comparator.comparing(Enum::name));
        Collections.shuffle(plan, random);
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (Fault fault : plan) {
            // Two faults in three come once the gatekeeper acts again: back-to-back kills during
            // start-up would otherwise keep it away longer than the MCD's drain limit (its hour,
            // 36 s here), after which the MCD degrades the node, a documented limit and no finding.
            boolean whenActing = random.nextInt(3) != 0;
            int pause = 500 + random.nextInt(5500);
            chain = chain.thenCompose(
                            x -> whenActing ? acting(bridges, client) : CompletableFuture.completedFuture(null))
                    .thenCompose(x -> after(pause, () -> {}))
                    .thenCompose(x -> inject(fault, bridges, runner, client));
        }
        return chain;
    }

    /** Completes once the leading bridge acts (or after 30 s). */
    private CompletableFuture<Void> acting(List<ChildJvm> bridges, KubernetesClient client) {
        return CompletableFuture.runAsync(
                () -> awaitQuietly(
                        Duration.ofSeconds(30), () -> leader(bridges, client).loggedSinceStart(BRIDGE_UP)),
                scheduler);
    }

    private CompletableFuture<Void> inject(
            Fault fault, List<ChildJvm> bridges, ChildJvm runner, KubernetesClient client) {
        count(fault.name().toLowerCase().replace('_', '-'));
        switch (fault) {
            case GATEKEEPER_KILL -> {
                ChildJvm leader = leader(bridges, client);
                // Kills land anywhere: while starting, reading back, or acting; count the last kind.
                if (leader.loggedSinceStart(BRIDGE_UP)) {
                    count("gatekeeper-kill-while-acting");
                }
                leader.kill();
                leader.start();
                return CompletableFuture.completedFuture(null);
            }
            case LEADER_KILL -> {
                ChildJvm leader = leader(bridges, client);
                String killed = leader.name();
                leader.replace(killed + "-r");
                return awaitNewLeader(client, killed, bridges);
            }
            case LEASE_LOSS -> {
                ChildJvm leader = leader(bridges, client);
                String lost = leader.name();
                api.blockLease(lost, Duration.ofSeconds(20));
                return awaitNewLeader(client, lost, bridges);
            }
            case BRIDGE_OUTAGE -> {
                ChildJvm leader = leader(bridges, client);
                leader.holdDown(true);
                leader.kill();
                int down = 2000 + random.nextInt(4000);
                return after(down, () -> {
                    leader.holdDown(false);
                    leader.start();
                });
            }
            case BROKER_RESTART -> {
                broker.stop();
                return after(2000 + random.nextInt(3000), broker::start);
            }
            case RUNNER_KILL -> {
                runner.holdDown(true);
                runner.kill();
                return after(random.nextInt(1000), () -> {
                    runner.holdDown(false);
                    runner.start();
                });
            }
            default -> throw new IllegalArgumentException(fault.name());
        }
    }

    /** Completes once a replica other than {@code previous} holds the lease (at most a minute). */
    private CompletableFuture<Void> awaitNewLeader(KubernetesClient client, String previous, List<ChildJvm> bridges) {
        return CompletableFuture.runAsync(
                () -> await("a new leader after " + previous)
                        .atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(250))
                        .until(() -> {
                            String holder = holder(client);
                            return holder != null
                                    && !holder.equals(previous)
                                    && bridges.stream().anyMatch(b -> b.name().equals(holder));
                        }),
                scheduler);
    }

    private static String holder(KubernetesClient client) {
        Lease lease = client.leases()
                .inNamespace(NAMESPACE)
                .withName(Leadership.LEASE)
                .get();
        return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }

    /** The replica holding the lease, or the first one while nobody does. */
    private ChildJvm leader(List<ChildJvm> bridges, KubernetesClient client) {
        String holder = holder(client);
        return bridges.stream().filter(b -> b.name().equals(holder)).findFirst().orElse(bridges.get(0));
    }

    private CompletableFuture<Void> after(long millis, Runnable action) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        scheduler.schedule(
                () -> {
                    try {
                        action.run();
                        done.complete(null);
                    } catch (RuntimeException e) {
                        done.completeExceptionally(e);
                    }
                },
                millis,
                TimeUnit.MILLISECONDS);
        return done;
    }

    private void count(String kind) {
        synchronized (injected) {
            injected.merge(kind, 1L, Long::sum);
        }
    }

    private ChildJvm bridge(String identity, String suffix) {
        return Children.bridge(
                broker.bootstrapServers(), CLUSTER, clusterUrl, bridgeToken, identity, suffix, dir, Map.of());
    }

    private ChildJvm runner(String requests, String verdicts, String deadLetter, Path passes) {
        // A check takes a second, so a kill often lands mid-check; a finished check leaves a line.
        return Children.runner(
                broker.bootstrapServers(),
                EXEC_HOOK,
                "pre-update,post-update",
                "sleep 1; echo \"$MCDHOOKS_HOOK $MCDHOOKS_GATE_ID $MCDHOOKS_ATTEMPT\" >> " + passes,
                requests,
                verdicts,
                deadLetter,
                dir);
    }

    private static void writeLines(Path file, List<String> lines) {
        try {
            Files.write(file, lines);
        } catch (IOException e) {
            LOG.warn("cannot write {}", file, e);
        }
    }

    private static List<Produced> runnerPasses(Path passes) {
        if (!Files.exists(passes)) {
            return List.of();
        }
        try {
            return Files.readAllLines(passes).stream()
                    .map(l -> l.split(" "))
                    .filter(p -> p.length == 3)
                    .map(p -> new Produced(null, p[0], p[1], Integer.parseInt(p[2]), "PASS"))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<HookPolicy> registerHooks(KubernetesClient client) {
        register(
                client,
                ChaosHook.NAME,
                List.of(UpdateHookSpec.StageName.POOL_PRE_UPDATE, UpdateHookSpec.StageName.POST_UPDATE),
                600,
                UpdateHookSpec.FailurePolicy.Fail);
        register(
                client,
                EXEC_HOOK,
                List.of(UpdateHookSpec.StageName.PRE_UPDATE, UpdateHookSpec.StageName.POST_UPDATE),
                600,
                UpdateHookSpec.FailurePolicy.Fail);
        // Never answers: its slot times out after 2 s and its policy lets the gate go on, recorded.
        register(
                client,
                SILENT_HOOK,
                List.of(UpdateHookSpec.StageName.PRE_UPDATE),
                2,
                UpdateHookSpec.FailurePolicy.Ignore);
        return List.of(
                new HookPolicy(ChaosHook.NAME, Set.of(Stage.POOL_PRE_UPDATE, Stage.POST_UPDATE), true, false),
                new HookPolicy(EXEC_HOOK, Set.of(Stage.PRE_UPDATE, Stage.POST_UPDATE), true, false),
                new HookPolicy(SILENT_HOOK, Set.of(Stage.PRE_UPDATE), true, true));
    }

    private static void register(
            KubernetesClient client,
            String name,
            List<UpdateHookSpec.StageName> stages,
            int timeoutSeconds,
            UpdateHookSpec.FailurePolicy policy) {
        UpdateHook hook = new UpdateHook();
        hook.getMetadata().setName(name);
        UpdateHookSpec spec = new UpdateHookSpec();
        spec.setStages(stages);
        spec.setPools(List.of(POOL));
        spec.setTimeoutSeconds(timeoutSeconds);
        spec.setFailurePolicy(policy);
        hook.setSpec(spec);
        client.resources(UpdateHook.class).resource(hook).create();
    }

    /** Creates the run's topics ({@link FaultCluster#createTopics}); the partitions of {@code recorded}. */
    private List<TopicPartition> createTopics(List<String> all, List<String> recorded) {
        FaultCluster.createTopics(broker.bootstrapServers(), all);
        List<TopicPartition> partitions = new ArrayList<>();
        recorded.forEach(t -> {
            for (int p = 0; p < 3; p++) {
                partitions.add(new TopicPartition(t, p));
            }
        });
        return partitions;
    }

    private Map<TopicPartition, Long> endOffsets(List<TopicPartition> partitions) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            return consumer.endOffsets(partitions, Duration.ofSeconds(30));
        }
    }

    private static boolean finished(KubernetesClient client, Set<String> workers, String target) {
        return FaultCluster.allOn(client, workers, target)
                && target.equals(pool(client).get("status", "configuration", "name"))
                && client.pods()
                        .inNamespace(NAMESPACE)
                        .withLabel(GateObjects.GATE_LABEL)
                        .list()
                        .getItems()
                        .isEmpty();
    }

    private static boolean awaitQuietly(Duration limit, Callable<Boolean> condition) {
        try {
            await().atMost(limit).pollInterval(Duration.ofMillis(250)).until(condition);
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }

    private static GenericKubernetesResource pool(KubernetesClient client) {
        return FaultCluster.pool(client, POOL);
    }

    private static String target(KubernetesClient client) {
        return FaultCluster.target(client, POOL);
    }
}
