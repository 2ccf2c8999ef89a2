package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.bridge.gate.Gatekeeper;
import io.mcdhooks.bridge.gate.OverrideRequest;
import io.mcdhooks.bridge.kube.McoInformers;
import io.mcdhooks.bridge.overrides.GateOverride;
import io.mcdhooks.bridge.overrides.GateOverrideSpec;
import io.mcdhooks.bridge.overrides.GateOverrideStatus;
import io.mcdhooks.bridge.overrides.GateOverrideStatus.Phase;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Operators' overrides, from the {@code GateOverride} objects in the gatekeeper's namespace. Each
 * is judged once: only while the admission policy {@value GateOverride#POLICY} is in force (it is
 * what makes {@code spec.requestedBy} the API server's word rather than the requester's), and only
 * for an open gate of this cluster (or, to stop or resume a rollback, a gate whose failure started
 * one); then its status says Applied or Refused and why. The decision
 * it makes goes to Kafka, naming who asked, before any lever moves (the {@link DecisionSink}).
 * Confined to the gatekeeper's event loop; reads and writes on its worker pool.
 */
final class GateOverrides {

    private static final Logger LOG = LoggerFactory.getLogger(GateOverrides.class);
    private static final long RESYNC_MILLIS = Duration.ofMinutes(5).toMillis();

    private final KubernetesClient client;
    private final WorkerExecutor worker;
    private final Context context;
    private final String namespace;
    private final Gatekeeper gatekeeper;
    /** Judges a stop or resume of a rollback ({@link PoolRollbacks#onOverride}). */
    private final Function<OverrideRequest, OverrideRequest.Outcome> rollbacks;

    private final Clock clock;
    /** Uids judged by this process: an object comes back (its status write, a resync) before its status shows. */
    private final Set<String> judged = new HashSet<>();

    private SharedIndexInformer<GateOverride> informer;

    GateOverrides(
            KubernetesClient client,
            WorkerExecutor worker,
            Context context,
            String namespace,
            Gatekeeper gatekeeper,
            Function<OverrideRequest, OverrideRequest.Outcome> rollbacks,
            Clock clock) {
        this.client = client;
        this.worker = worker;
        this.context = context;
        this.namespace = namespace;
        this.gatekeeper = gatekeeper;
        this.rollbacks = rollbacks;
        this.clock = clock;
    }

    /** Watches the overrides; call once the gates are rebuilt, or every override would name an unknown gate. */
    Future<Void> start() {
        informer = client.resources(GateOverride.class).inNamespace(namespace).runnableInformer(RESYNC_MILLIS);
        informer.addEventHandler(
                McoInformers.levelHandler(o -> context.runOnContext(v -> seen(o)), (o, unknown) -> {}));
        return Future.fromCompletionStage(informer.start(), context);
    }

    void stop() {
        if (informer != null) {
            informer.stop();
        }
    }

    private void seen(GateOverride override) {
        GateOverrideStatus status = override.getStatus();
        String uid = override.getMetadata().getUid();
        if ((status != null && status.getPhase() != null) || !judged.add(uid)) {
            return;
        }
        worker.executeBlocking(this::policyInForce, false).onComplete(checked -> {
            String refusal = checked.succeeded()
                    ? checked.result()
                    : "cannot read the admission policy " + GateOverride.POLICY + ": " + checked.cause();
            judge(override, refusal);
        });
    }

    private void judge(GateOverride override, String refusal) {
        String name = override.getMetadata().getName();
        GateOverrideStatus status;
        if (refusal != null) {
            status = refused(refusal);
        } else {
            try {
                GateOverrideSpec spec = override.getSpec();
                OverrideRequest request = OverrideRequest.of(
                        spec.getGate(),
                        spec.getAction() == null ? null : spec.getAction().name(),
                        spec.getRequestedBy(),
                        spec.getReason());
                OverrideRequest.Outcome outcome =
                        request.action().onRollback() ? rollbacks.apply(request) : gatekeeper.onOverride(request);
                String text = request.describe() + ": " + outcome.text();
                status = outcome.applied() ? stamped(Phase.Applied, text) : refused(text);
            } catch (IllegalArgumentException e) {
                status = refused(e.getMessage());
            }
        }
        if (status.getPhase() == Phase.Refused) {
            LOG.atWarn()
                    .addKeyValue("override", namespace + "/" + name)
                    .log("override refused: {}", status.getMessage());
        }
        write(name, status);
    }

    /**
     * Why overrides cannot be trusted now, or {@code null} if the policy and a binding that denies
     * are in place. Without them {@code spec.requestedBy} is whatever the requester wrote.
     */
    private String policyInForce() {
        for (String version : List.of("v1", "v1beta1")) {
            GenericKubernetesResource binding = admission(version, "validatingadmissionpolicybindings");
            if (binding != null) {
                Object spec = binding.getAdditionalProperties().get("spec");
                Map<?, ?> fields = spec instanceof Map<?, ?> m ? m : Map.of();
                boolean policy = admission(version, "validatingadmissionpolicies") != null;
                boolean bound = GateOverride.POLICY.equals(fields.get("policyName"));
                boolean denies = fields.get("validationActions") instanceof List<?> actions && actions.contains("Deny");
                if (policy && bound && denies) {
                    return null;
                }
            }
        }
        return "the admission policy " + GateOverride.POLICY + " and a binding of it with validationActions"
                + " [Deny] must be installed: without them the API server does not vouch for requestedBy";
    }

    /** The policy or binding named {@value GateOverride#POLICY} in {@code version}; {@code null} if absent or not served. */
    private GenericKubernetesResource admission(String version, String plural) {
        var kind = new ResourceDefinitionContext.Builder()
                .withGroup("admissionregistration.k8s.io")
                .withVersion(version)
                .withPlural(plural)
                .withNamespaced(false)
                .build();
        return client.genericKubernetesResources(kind)
                .withName(GateOverride.POLICY)
                .get();
    }

    private GateOverrideStatus refused(String why) {
        return stamped(Phase.Refused, why);
    }

    private GateOverrideStatus stamped(Phase phase, String message) {
        return new GateOverrideStatus(phase, message, clock.instant().toString());
    }

    private void write(String name, GateOverrideStatus status) {
        worker.executeBlocking(
                        () -> {
                            client.resources(GateOverride.class)
                                    .inNamespace(namespace)
                                    .withName(name)
                                    .editStatus(o -> {
                                        o.setStatus(status);
                                        return o;
                                    });
                            return null;
                        },
                        false)
                .onFailure(e -> LOG.atWarn()
                        .addKeyValue("override", namespace + "/" + name)
                        .setCause(e)
                        .log("could not write the override's status ({})", status.getPhase()));
    }
}
