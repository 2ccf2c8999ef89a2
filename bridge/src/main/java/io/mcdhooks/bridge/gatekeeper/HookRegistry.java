package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.bridge.gate.Gatekeeper;
import io.mcdhooks.bridge.gate.RegisteredHook;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookParser;
import io.mcdhooks.bridge.kube.McoInformers;
import io.mcdhooks.schemas.sign.VerdictSignatures;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hooks the gates wait on, from the cluster's {@code UpdateHook}s: each valid one registered
 * with the {@link Gatekeeper}; an edit that breaks one refused in its status, its last valid
 * version staying in force; and for a hook that signs its verdicts, its public keys from the
 * Secret it names. Confined to the gatekeeper's event loop; reads Secrets on its worker pool.
 */
final class HookRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(HookRegistry.class);
    private static final long RESYNC_MILLIS = Duration.ofMinutes(5).toMillis();

    private final KubernetesClient client;
    private final WorkerExecutor worker;
    private final Context context;
    private final String namespace;
    private final Gatekeeper gatekeeper;
    private final HookStatusWriter statuses;
    private final Runnable changed;
    private final Map<String, Map<String, PublicKey>> keys = new HashMap<>();
    private SharedIndexInformer<UpdateHook> informer;

    /** @param changed runs when what a hook gates changed: every lever may need planning again */
    HookRegistry(
            KubernetesClient client,
            WorkerExecutor worker,
            Context context,
            String namespace,
            Gatekeeper gatekeeper,
            HookStatusWriter statuses,
            Runnable changed) {
        this.client = client;
        this.worker = worker;
        this.context = context;
        this.namespace = namespace;
        this.gatekeeper = gatekeeper;
        this.statuses = statuses;
        this.changed = changed;
    }

    /** Watches UpdateHooks; completes once the informer has synced. */
    Future<Void> start() {
        informer = client.resources(UpdateHook.class).runnableInformer(RESYNC_MILLIS);
        informer.addEventHandler(McoInformers.levelHandler(
                h -> context.runOnContext(v -> onHook(h)),
                (h, unknown) ->
                        context.runOnContext(v -> onDeleted(h.getMetadata().getName()))));
        return Future.fromCompletionStage(informer.start(), context);
    }

    void stop() {
        if (informer != null) {
            informer.stop();
        }
    }

    /**
     * A signed hook's public keys by key id. Until they are read, and if they cannot be, it has
     * none and every verdict of it is refused: a gate waiting on it stays closed.
     */
    Map<String, PublicKey> keys(String hook) {
        return keys.getOrDefault(hook, Map.of());
    }

    private void onHook(UpdateHook hook) {
        String name = hook.getMetadata().getName();
        boolean gatesChanged;
        try {
            RegisteredHook registered = UpdateHookParser.parse(hook);
            gatesChanged = gatekeeper.putHook(registered);
            if (registered.signed()) {
                loadKeys(name, hook.getSpec().getSignature().getPublicKeysSecret());
            } else {
                keys.remove(name);
            }
            statuses.valid(name);
        } catch (IllegalArgumentException e) {
            // An edit that breaks a hook must not let gates open without it: the last valid
            // version stays in force, and the hook's status says what is wrong.
            boolean kept = gatekeeper.hooks().stream().anyMatch(h -> h.name().equals(name));
            LOG.atWarn()
                    .addKeyValue("hook", name)
                    .log(
                            "ignoring this version of the hook{}: {}",
                            kept ? " (its last valid version stays in force)" : "",
                            e.getMessage());
            statuses.invalid(name, e.getMessage());
            gatesChanged = false;
        }
        // Every status the gatekeeper writes comes back as an update of the hook; only a change of
        // what the hook gates can move a lever, so only that plans every node again.
        if (gatesChanged) {
            changed.run();
        }
    }

    private void onDeleted(String name) {
        // Its keys stay: a gate that snapshotted it still waits on it, and must still verify it.
        gatekeeper.removeHook(name);
        statuses.forget(name);
        changed.run();
    }

    private void loadKeys(String hook, String secretName) {
        keys.put(hook, Map.of());
        worker.executeBlocking(() -> read(secretName), false).onComplete(result -> {
            if (result.succeeded() && !result.result().isEmpty()) {
                keys.put(hook, result.result());
            } else {
                LOG.atWarn()
                        .addKeyValue("hook", hook)
                        .setCause(result.cause())
                        .log("no usable public keys in Secret {}/{}: its verdicts are refused", namespace, secretName);
            }
        });
    }

    private Map<String, PublicKey> read(String secretName) {
        Secret secret =
                client.secrets().inNamespace(namespace).withName(secretName).get();
        Map<String, PublicKey> found = new HashMap<>();
        if (secret != null && secret.getData() != null) {
            secret.getData()
                    .forEach((kid, b64) -> found.put(
                            kid,
                            VerdictSignatures.publicKey(
                                    new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8))));
        }
        return Map.copyOf(found);
    }
}
