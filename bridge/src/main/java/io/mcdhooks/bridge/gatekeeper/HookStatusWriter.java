package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.mcdhooks.bridge.gate.Gate;
import io.mcdhooks.bridge.gate.HookStatuses;
import io.mcdhooks.bridge.gate.PostUpdateHold;
import io.mcdhooks.bridge.gate.RegisteredHook;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookStatus;
import io.mcdhooks.bridge.lag.LagStatus;
import io.mcdhooks.schemas.Stage;
import io.vertx.core.WorkerExecutor;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each hook's {@code UpdateHook} status: the open gates that wait on it, its latest
 * verdicts, its lag state ({@link HookStatuses}), and why its last edit was refused. It writes
 * only what changed since it last wrote, since every write comes back as an update of the hook.
 * Confined to the gatekeeper's event loop; writes on its worker pool.
 */
final class HookStatusWriter {

    private static final Logger LOG = LoggerFactory.getLogger(HookStatusWriter.class);

    private final KubernetesClient client;
    private final WorkerExecutor worker;
    private final Map<String, UpdateHookStatus> written = new HashMap<>();
    /** Per hook, why its current version was refused, as written. */
    private final Map<String, String> invalid = new HashMap<>();

    HookStatusWriter(KubernetesClient client, WorkerExecutor worker) {
        this.client = client;
        this.worker = worker;
    }

    /** Writes each hook's status as the gates show it now, where it changed. */
    void writeAll(
            Collection<RegisteredHook> hooks, Collection<Gate> gates, Map<String, LagStatus> lag, PostUpdateHold hold) {
        for (RegisteredHook hook : hooks) {
            String name = hook.name();
            UpdateHookStatus status = HookStatuses.of(
                    name, gates, lag.get(name), hook.stages().contains(Stage.POST_UPDATE) ? hold : null);
            status.setInvalid(invalid.get(name));
            if (HookStatuses.same(status, written.get(name))) {
                continue;
            }
            written.put(name, status);
            write(name, h -> status, () -> written.remove(name));
        }
    }

    /** Says in the hook's status why its spec was refused; once per message, since writing it is a change too. */
    void invalid(String hook, String why) {
        if (why.equals(invalid.put(hook, why))) {
            return;
        }
        write(
                hook,
                h -> {
                    UpdateHookStatus status = h.getStatus() == null ? new UpdateHookStatus() : h.getStatus();
                    status.setInvalid(why);
                    return status;
                },
                () -> invalid.remove(hook));
    }

    /** The hook's spec was read fine: the next status written clears a complaint. */
    void valid(String hook) {
        if (invalid.remove(hook) != null) {
            written.remove(hook);
        }
    }

    /** The hook is gone. */
    void forget(String hook) {
        invalid.remove(hook);
        written.remove(hook);
    }

    private void write(String hook, Function<UpdateHook, UpdateHookStatus> status, Runnable failed) {
        worker.executeBlocking(
                        () -> {
                            client.resources(UpdateHook.class).withName(hook).editStatus(h -> {
                                h.setStatus(status.apply(h));
                                return h;
                            });
                            return null;
                        },
                        false)
                .onFailure(e -> {
                    failed.run();
                    LOG.atDebug().addKeyValue("hook", hook).log("status not written: {}", e.toString());
                });
    }
}
