package io.mcdhooks.sandbox.local;

import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.api.Hook;
import io.mcdhooks.hooks.examples.NodeSelfCheckHook;
import io.mcdhooks.hooks.exec.ExecHook;
import io.mcdhooks.hooks.kmod.RegistryKernelModuleHook;
import io.mcdhooks.hooks.runner.HookRunnerConfig;
import io.mcdhooks.hooks.runner.HookRunnerVerticle;
import io.mcdhooks.schemas.GateDecision.FailurePolicy;
import io.mcdhooks.schemas.Stage;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The example hooks of the local run, each in a real hook runner (in this JVM, on their own
 * Vert.x instance, talking only to Kafka), and the UpdateHook resources that register them.
 *
 * <ul>
 * <li>{@value #KMOD}: the kmod hook on {@code pool-pre-update}, reading the OS image and the module
 *     images from the run's registry ({@link LocalRegistry}).
 * <li>{@value #SELFCHECK}: the self-check example on {@code post-update}, running a shell command
 *     with the request in {@code MCDHOOKS_*} variables; in post-check-fails the first node that
 *     asks fails (a marker file remembers which).
 * <li>{@value #CMDB} (hook-down only): an exec hook on {@code pre-update} whose runner is stopped
 *     once registered, so its gates time out.
 * <li>{@value #KEY_AUDIT} (ssh-key only): an exec hook on {@code pre-update} that passes each node
 *     after a moment, naming the change's class from the request ({@code MCDHOOKS_DISRUPTION}).
 * </ul>
 */
final class LocalHooks implements AutoCloseable {

    static final String KMOD = "kmod-check";
    static final String SELFCHECK = "node-selfcheck";
    static final String CMDB = "cmdb-sync";
    static final String KEY_AUDIT = "key-audit";
    static final int CMDB_TIMEOUT_SECONDS = 3;
    /** maintenance: how long node-selfcheck must keep passing (under the MCD's 10 min uncordon limit at 100x). */
    static final String SOAK = "3s";

    private final Scenario scenario;
    private final String pool;
    private final Path dir;
    private final LocalRegistry registry;
    private final Map<String, String> kafkaEnv;
    private final Vertx vertx = Vertx.vertx();
    private final Map<String, String> deployments = new LinkedHashMap<>();

    /**
     * @param kafkaEnv {@code KAFKA_*} variables for the runners (bootstrap servers at least)
     */
    LocalHooks(Scenario scenario, String pool, Path dir, LocalRegistry registry, Map<String, String> kafkaEnv) {
        this.scenario = scenario;
        this.pool = pool;
        this.dir = dir;
        this.registry = registry;
        this.kafkaEnv = Map.copyOf(kafkaEnv);
    }

    /**
     * The self-check's command: healthy; in post-check-fails unhealthy on the first node that asks;
     * in rollback unhealthy on the realtime kernel.
     */
    String selfCheckCommand() {
        String healthy = "echo \"$MCDHOOKS_NODE healthy: kubelet, CRI-O and network checks passed\"";
        if (scenario == Scenario.ROLLBACK) {
            return "if [ \"$MCDHOOKS_KERNEL_TYPE\" = realtime ]; then "
                    + "echo \"$MCDHOOKS_NODE: the NIC driver does not load on the realtime kernel (simulated fault)\";"
                    + " exit 1; fi; " + healthy;
        }
        if (scenario != Scenario.POST_CHECK_FAILS) {
            return healthy;
        }
        String marker = dir.resolve("failing-node").toString();
        String lock = dir.resolve("failing-node.lock").toString();
        return "if mkdir '" + lock + "' 2>/dev/null; then printf '%s' \"$MCDHOOKS_NODE\" > '" + marker + ".tmp' && mv '"
                + marker + ".tmp' '" + marker + "'; fi; "
                + "while [ ! -f '" + marker + "' ]; do sleep 0.1; done; "
                + "if [ \"$(cat '" + marker + "')\" = \"$MCDHOOKS_NODE\" ]; then "
                + "echo \"$MCDHOOKS_NODE: kubelet health probe failed after reboot (simulated fault)\"; exit 1; fi; "
                + healthy;
    }

    /** Starts every runner of the scenario; returns once all consume. */
    void start() {
        deploy(
                KMOD,
                RegistryKernelModuleHook.create(
                        GateSelector.stages(Stage.POOL_PRE_UPDATE), registry.settings(Duration.ofSeconds(2))));
        deploy(
                SELFCHECK,
                new NodeSelfCheckHook(
                        vertx, SELFCHECK, GateSelector.stages(Stage.POST_UPDATE), selfCheckCommand(), null, null),
                scenario == Scenario.MAINTENANCE
                        ? Map.of(
                                "MCDHOOKS_SOAK",
                                SOAK,
                                "MCDHOOKS_SOAK_INTERVAL",
                                "1s",
                                "MCDHOOKS_HEARTBEAT_INTERVAL",
                                "1s")
                        : Map.of());
        if (scenario == Scenario.SSH_KEY) {
            deploy(
                    KEY_AUDIT,
                    new ExecHook(
                            KEY_AUDIT,
                            GateSelector.stages(Stage.PRE_UPDATE),
                            "sleep 1; echo \"$MCDHOOKS_NODE: the new key is on the allowed list (change: $MCDHOOKS_DISRUPTION)\"",
                            null));
        }
        if (scenario == Scenario.HOOK_DOWN) {
            deploy(
                    CMDB,
                    new ExecHook(
                            CMDB,
                            GateSelector.stages(Stage.PRE_UPDATE),
                            "echo \"recorded $MCDHOOKS_NODE in the CMDB\"",
                            null));
        }
    }

    /** Stops one hook's runner, as if its service went down: it consumes no more. */
    void stop(String hook) {
        String id = deployments.remove(hook);
        if (id != null) {
            await(vertx.undeploy(id).toCompletionStage().toCompletableFuture());
        }
    }

    /** The UpdateHook resources that register the scenario's hooks. */
    List<UpdateHook> registrations(FailurePolicy hookDownPolicy) {
        List<UpdateHook> hooks = new ArrayList<>();
        hooks.add(updateHook(KMOD, UpdateHookSpec.StageName.POOL_PRE_UPDATE, 600, UpdateHookSpec.FailurePolicy.Fail));
        hooks.add(updateHook(SELFCHECK, UpdateHookSpec.StageName.POST_UPDATE, 120, UpdateHookSpec.FailurePolicy.Fail));
        if (scenario == Scenario.SSH_KEY) {
            hooks.add(
                    updateHook(KEY_AUDIT, UpdateHookSpec.StageName.PRE_UPDATE, 60, UpdateHookSpec.FailurePolicy.Fail));
        }
        if (scenario == Scenario.HOOK_DOWN) {
            hooks.add(updateHook(
                    CMDB,
                    UpdateHookSpec.StageName.PRE_UPDATE,
                    CMDB_TIMEOUT_SECONDS,
                    hookDownPolicy == FailurePolicy.Fail
                            ? UpdateHookSpec.FailurePolicy.Fail
                            : UpdateHookSpec.FailurePolicy.Ignore));
        }
        return hooks;
    }

    private UpdateHook updateHook(
            String name, UpdateHookSpec.StageName stage, int timeoutSeconds, UpdateHookSpec.FailurePolicy policy) {
        UpdateHook hook = new UpdateHook();
        hook.getMetadata().setName(name);
        UpdateHookSpec spec = new UpdateHookSpec();
        spec.setStages(List.of(stage));
        spec.setPools(List.of(pool));
        spec.setTimeoutSeconds(timeoutSeconds);
        spec.setFailurePolicy(policy);
        if (scenario == Scenario.ROLLBACK && name.equals(SELFCHECK)) {
            spec.setPostUpdateFailureAction(UpdateHookSpec.PostUpdateFailureAction.RollbackPool);
        }
        hook.setSpec(spec);
        return hook;
    }

    private void deploy(String name, Hook hook) {
        deploy(name, hook, Map.of());
    }

    /** @param settings runner settings of this hook alone, e.g. its soak */
    private void deploy(String name, Hook hook, Map<String, String> settings) {
        Map<String, String> env = new HashMap<>(kafkaEnv);
        env.put("MCDHOOKS_HOOK_NAME", name);
        env.put("MCDHOOKS_CHECK_TIMEOUT", "30s");
        env.put("MCDHOOKS_HEARTBEAT_INTERVAL", "5s");
        env.put("MCDHOOKS_RETRY_BACKOFF", "1s");
        env.put("MCDHOOKS_RETRY_BACKOFF_MAX", "5s");
        env.put("MCDHOOKS_SHUTDOWN_TIMEOUT", "3s");
        env.putAll(settings);
        HookRunnerConfig config = HookRunnerConfig.fromEnvironment(env);
        String id = await(vertx.deployVerticle(new HookRunnerVerticle(hook, config))
                .toCompletionStage()
                .toCompletableFuture());
        deployments.put(name, id);
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (Exception e) {
            throw new IllegalStateException("hook runner: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
        } catch (Exception e) {
            // best effort: the runners hold no state that outlives them
        }
    }
}
