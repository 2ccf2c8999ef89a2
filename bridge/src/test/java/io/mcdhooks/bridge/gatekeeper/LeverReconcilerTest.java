package io.mcdhooks.bridge.gatekeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.mcdhooks.bridge.MovingClock;
import io.mcdhooks.bridge.gate.AckedGates;
import io.mcdhooks.bridge.gate.GateObjects;
import io.mcdhooks.bridge.gate.Gatekeeper;
import io.mcdhooks.bridge.gate.PoolSchedules;
import io.mcdhooks.bridge.gate.PostUpdateHold;
import io.mcdhooks.bridge.gate.UpdateWindows;
import io.mcdhooks.bridge.mco.Views;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How often the reconciler plans a pool's pause, which scans every node of the pool. */
class LeverReconcilerTest {

    private static final int NODES = 1000;
    private static final BiPredicate<String, String> NO_STOPPED_ROLLBACK = (pool, target) -> false;

    private Vertx vertx;
    private ListedCluster cluster;
    private final List<Node> nodes = ListedCluster.workers(NODES);

    @BeforeEach
    void setUp() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void tearDown() {
        vertx.close().await();
    }

    @Test
    void aBurstOfNodeEventsPlansThePoolPauseOnceNotOncePerEvent() throws Exception {
        // Given a gatekeeper on a 1,000-node pool, planning levers (its informers filled)
        Context context = vertx.getOrCreateContext();
        LeverReconciler reconciler = reconciler(context);
        context.runOnContext(v -> reconciler.start());
        int before = scansAfterQueuedWork(context);

        // When every node changes in one burst of events on the event loop
        CompletableFuture<Void> burst = new CompletableFuture<>();
        context.runOnContext(v -> {
            nodes.forEach(reconciler::nodeChanged);
            burst.complete(null);
        });
        burst.get(30, TimeUnit.SECONDS);

        // Then the pool's pause is planned once, after the burst, not once per node
        assertThat(scansAfterQueuedWork(context)).isEqualTo(before + 1);

        // And a single later event is still planned on its own
        context.runOnContext(v -> reconciler.nodeChanged(nodes.get(0)));
        assertThat(scansAfterQueuedWork(context)).isEqualTo(before + 2);
    }

    @Test
    void poolStatusWritesPlanOnlyThePauseAndANewTargetPlansEveryNode() throws Exception {
        // Given a gatekeeper planning levers on a 1,000-node pool at rest on rendered-a
        Context context = vertx.getOrCreateContext();
        LeverReconciler reconciler = reconciler(context);
        context.runOnContext(v -> {
            reconciler.start();
            reconciler.poolChanged(pool("rendered-a", "rendered-a", NODES));
        });
        int before = scansAfterQueuedWork(context);

        // When the MCC writes the pool's status counts again and again, its target unchanged
        context.runOnContext(v -> {
            for (int i = 0; i < 100; i++) {
                reconciler.poolChanged(pool("rendered-a", "rendered-a", i));
            }
        });

        // Then only the pool's pause is planned, once: no node's levers read those counts
        assertThat(scansAfterQueuedWork(context)).isEqualTo(before + 1);

        // And a new target plans every node's levers, then the pause
        context.runOnContext(v -> reconciler.poolChanged(pool("rendered-b", "rendered-a", 0)));
        assertThat(scansAfterQueuedWork(context)).isEqualTo(before + 3);
    }

    @Test
    void aPoolIsPausedOutsideItsUpdateWindowsAndLetGoWhenTheNextOneOpens() throws Exception {
        // Given a worker pool that takes new nodes only on Thursday nights, and no hook at all
        GenericKubernetesResource pool = new GenericKubernetesResourceBuilder()
                .withApiVersion("machineconfiguration.openshift.io/v1")
                .withKind("MachineConfigPool")
                .withNewMetadata()
                .withName("worker")
                .addToAnnotations(UpdateWindows.WINDOWS, "Thu 23:00+4h UTC")
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("paused", false))
                .build();
        cluster = new ListedCluster(nodes, pool);
        MovingClock clock = new MovingClock(Instant.parse("2026-12-04T12:00:00Z"));
        Gatekeeper gatekeeper = new Gatekeeper("test", clock, d -> {});
        RecordingLevers levers = new RecordingLevers();
        Context context = vertx.getOrCreateContext();
        PoolSchedules schedules = new PoolSchedules();
        LeverReconciler reconciler = reconciler(gatekeeper, levers, context, schedules, NO_STOPPED_ROLLBACK, clock);

        // When the gatekeeper starts on Friday at noon
        context.runOnContext(v -> {
            schedules.pool(Views.pool(pool), clock.instant());
            reconciler.poolChanged(pool);
            reconciler.start();
        });

        // Then the pool is paused: it takes no new node until the window opens
        await().atMost(Duration.ofSeconds(10)).until(() -> Optional.of(true).equals(levers.pools.get("worker")));

        // And on Thursday at 23:30 a tick lets it go (the gatekeeper has no other say over it)
        clock.set(Instant.parse("2026-12-10T23:30:00Z"));
        context.runOnContext(v -> {
            schedules.tick(clock.instant());
            reconciler.tick();
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> Optional.empty().equals(levers.pools.get("worker")));

        // And when the window ends the pool is paused again
        clock.set(Instant.parse("2026-12-11T03:00:00Z"));
        context.runOnContext(v -> {
            schedules.tick(clock.instant());
            reconciler.tick();
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> Optional.of(true).equals(levers.pools.get("worker")));
    }

    @Test
    void aPoolTheGatekeeperPausedStaysPausedWhileACordonOfOneOfItsNodesIsOnItsWay() throws Exception {
        // Given a worker pool the gatekeeper paused and now has no reason to hold
        GenericKubernetesResource pool = new GenericKubernetesResourceBuilder()
                .withApiVersion("machineconfiguration.openshift.io/v1")
                .withKind("MachineConfigPool")
                .withNewMetadata()
                .withName("worker")
                .addToAnnotations(GateObjects.PAUSED_BY, GateObjects.GATEKEEPER)
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("paused", true))
                .build();
        cluster = new ListedCluster(nodes, pool);
        Gatekeeper gatekeeper = new Gatekeeper("test", Clock.systemUTC(), d -> {});
        RecordingLevers levers = new RecordingLevers();
        Context context = vertx.getOrCreateContext();
        LeverReconciler reconciler =
                reconciler(gatekeeper, levers, context, new PoolSchedules(), NO_STOPPED_ROLLBACK, Clock.systemUTC());

        // When a write that cordons one of its nodes is still on its way (planned before a release:
        // landing after the unpause, it would put the pool over its budget once the MCC took another)
        levers.cordoning.add(nodes.get(0).getMetadata().getName());
        context.runOnContext(v -> reconciler.start());

        // Then the pool stays paused
        await().atMost(Duration.ofSeconds(10)).until(() -> Optional.of(true).equals(levers.pools.get("worker")));

        // And once it has landed, the node's event lets the pool go
        levers.cordoning.clear();
        context.runOnContext(v -> reconciler.nodeChanged(nodes.get(0)));
        await().atMost(Duration.ofSeconds(10)).until(() -> Optional.empty().equals(levers.pools.get("worker")));
    }

    @Test
    void aStoppedRollbackHoldsItsPoolPausedUntilThePoolTargetsAnotherConfig() throws Exception {
        // Given a worker pool going back to rendered-a, and no hook at all
        cluster = new ListedCluster(nodes, pool("rendered-a", "rendered-a", 10));
        Gatekeeper gatekeeper = new Gatekeeper("test", Clock.systemUTC(), d -> {});
        RecordingLevers levers = new RecordingLevers();
        Context context = vertx.getOrCreateContext();
        // When an operator stopped the rollback from rendered-b to rendered-a
        LeverReconciler reconciler = reconciler(
                gatekeeper,
                levers,
                context,
                new PoolSchedules(),
                (pool, target) -> pool.equals("worker")
                        && List.of("rendered-a", "rendered-b").contains(target),
                Clock.systemUTC());
        context.runOnContext(v -> reconciler.start());

        // Then the pool is paused where it is
        await().atMost(Duration.ofSeconds(10)).until(() -> Optional.of(true).equals(levers.pools.get("worker")));

        // And once an administrator fixes the change forward (a new target), the stop holds nothing
        GenericKubernetesResource fixed = pool("rendered-c", "rendered-a", 0);
        cluster.pool(fixed);
        context.runOnContext(v -> reconciler.poolChanged(fixed));
        await().atMost(Duration.ofSeconds(10)).until(() -> Optional.empty().equals(levers.pools.get("worker")));
    }

    private static GenericKubernetesResource pool(String target, String current, int updated) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("machineconfiguration.openshift.io/v1")
                .withKind("MachineConfigPool")
                .withNewMetadata()
                .withName("worker")
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("paused", false, "configuration", Map.of("name", target)))
                .addToAdditionalProperties(
                        "status",
                        Map.of(
                                "configuration",
                                Map.of("name", current),
                                "updatedMachineCount",
                                updated,
                                "machineCount",
                                NODES))
                .build();
    }

    /** Scans counted once everything queued on the event loop before this call has run. */
    private int scansAfterQueuedWork(Context context) throws Exception {
        CompletableFuture<Integer> count = new CompletableFuture<>();
        context.runOnContext(v -> context.runOnContext(w -> count.complete(cluster.scans.get())));
        return count.get(30, TimeUnit.SECONDS);
    }

    private LeverReconciler reconciler(Context context) {
        GenericKubernetesResource pool = new GenericKubernetesResourceBuilder()
                .withApiVersion("machineconfiguration.openshift.io/v1")
                .withKind("MachineConfigPool")
                .withNewMetadata()
                .withName("worker")
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("paused", false))
                .build();
        cluster = new ListedCluster(nodes, pool);
        Gatekeeper gatekeeper = new Gatekeeper("test", Clock.systemUTC(), d -> {});
        return reconciler(
                gatekeeper,
                new RecordingLevers(),
                context,
                new PoolSchedules(),
                NO_STOPPED_ROLLBACK,
                Clock.systemUTC());
    }

    private LeverReconciler reconciler(
            Gatekeeper gatekeeper,
            RecordingLevers levers,
            Context context,
            PoolSchedules schedules,
            BiPredicate<String, String> stoppedRollback,
            Clock clock) {
        return new LeverReconciler(
                "test",
                cluster,
                gatekeeper,
                new AckedGates(gatekeeper),
                levers,
                context,
                () -> PostUpdateHold.ADMISSION,
                schedules,
                Duration.ofMinutes(1),
                (node, gate) -> {},
                stoppedRollback,
                clock);
    }
}
