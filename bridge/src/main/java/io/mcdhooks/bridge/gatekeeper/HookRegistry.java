package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.bridge.gate.Gatekeeper;
import io.mcdhooks.bridge.gate.RegisteredHook;
import io.mcdhooks.bridge.gate.VerificationKeys;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookParser;
import io.mcdhooks.bridge.kube.McoInformers;
import io.mcdhooks.schemas.Verdict;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
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
 * version staying in force. And the keys that verify signed hooks' verdicts, from the one Secret
 * {@value VerificationKeys#SECRET} in the bridge's namespace, watched by name: a change of it
 * replaces the keys at once (never an empty set while a read is under way), and nothing else
 * reloads them. Confined to the gatekeeper's event loop.
 */
final class HookRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(HookRegistry.class);
    private static final long RESYNC_MILLIS = Duration.ofMinutes(5).toMillis();

    private final KubernetesClient client;
    private final Context context;
    private final String namespace;
    private final Gatekeeper gatekeeper;
    private final HookStatusWriter statuses;
    private final Runnable changed;
    private Runnable keysChanged = () -> {};
    private VerificationKeys keys = VerificationKeys.NONE;
    private SharedIndexInformer<UpdateHook> informer;
    private SharedIndexInformer<Secret> keyInformer;

    /** @param changed runs when what a hook gates changed: every lever may need planning again */
    HookRegistry(
            KubernetesClient client,
            Context context,
            String namespace,
            Gatekeeper gatekeeper,
            HookStatusWriter statuses,
            Runnable changed) {
        this.client = client;
        this.context = context;
        this.namespace = namespace;
        this.gatekeeper = gatekeeper;
        this.statuses = statuses;
        this.changed = changed;
    }

    /** Runs, on the event loop, after every change of the keys: verdicts waiting for a key may now verify. */
    void onKeysChanged(Runnable listener) {
        this.keysChanged = listener;
    }

    /** Watches UpdateHooks and the keys Secret; completes once both have synced, so keys are known before any verdict is read. */
    Future<Void> start() {
        informer = client.resources(UpdateHook.class).runnableInformer(RESYNC_MILLIS);
        informer.addEventHandler(McoInformers.levelHandler(
                h -> context.runOnContext(v -> onHook(h)),
                (h, unknown) ->
                        context.runOnContext(v -> onDeleted(h.getMetadata().getName()))));
        keyInformer = client.secrets()
                .inNamespace(namespace)
                .withName(VerificationKeys.SECRET)
                .runnableInformer(RESYNC_MILLIS);
        keyInformer.addEventHandler(McoInformers.levelHandler(
                s -> context.runOnContext(v -> onKeys(s)), (s, unknown) -> context.runOnContext(v -> onKeysDeleted())));
        Future<Void> hooks = Future.fromCompletionStage(informer.start(), context);
        Future<Void> secret = Future.fromCompletionStage(keyInformer.start(), context);
        // The informer hands its first events on in its own time: take the synced Secret from its
        // store, so the keys are in before any verdict is read.
        return Future.all(hooks, secret).compose(v -> {
            Promise<Void> loaded = Promise.promise();
            context.runOnContext(x -> {
                keyInformer.getStore().list().forEach(this::onKeys);
                loaded.complete();
            });
            return loaded.future();
        });
    }

    void stop() {
        if (informer != null) {
            informer.stop();
        }
        if (keyInformer != null) {
            keyInformer.stop();
        }
    }

    /**
     * The keys that may sign {@code verdict}: its hook's, less those bound to other nodes. None
     * if the Secret has none for it: a gate waiting on it stays closed.
     */
    Map<String, PublicKey> keys(Verdict verdict) {
        return keys.forVerdict(verdict);
    }

    private void onKeys(Secret secret) {
        Map<String, String> entries = new HashMap<>();
        if (secret.getData() != null) {
            secret.getData().forEach((name, b64) -> entries.put(name, decode(b64)));
        }
        if (secret.getStringData() != null) {
            entries.putAll(secret.getStringData());
        }
        VerificationKeys.Loaded loaded = VerificationKeys.load(entries, keys);
        loaded.problems().forEach(p -> LOG.atWarn().log("Secret {}/{}: {}", namespace, VerificationKeys.SECRET, p));
        keys = loaded.keys();
        LOG.atInfo().addKeyValue("keys", keys.size()).log("verification keys loaded");
        keysChanged.run();
    }

    private void onKeysDeleted() {
        // Deleting the Secret revokes every key: signed hooks' verdicts are refused, their gates held.
        LOG.atWarn()
                .log("Secret {}/{} deleted: signed hooks' verdicts are refused", namespace, VerificationKeys.SECRET);
        keys = VerificationKeys.NONE;
        keysChanged.run();
    }

    private static String decode(String b64) {
        try {
            return new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    private void onHook(UpdateHook hook) {
        String name = hook.getMetadata().getName();
        boolean gatesChanged;
        try {
            RegisteredHook registered = UpdateHookParser.parse(hook);
            gatesChanged = gatekeeper.putHook(registered);
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
}
