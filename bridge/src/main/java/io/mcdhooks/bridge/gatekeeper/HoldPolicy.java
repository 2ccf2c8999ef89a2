package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.bridge.gate.PostUpdateHold;
import io.mcdhooks.bridge.kube.McoInformers;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which {@link PostUpdateHold} this cluster allows: read at start and followed. Single-node when
 * the {@code Infrastructure cluster}'s {@code status.controlPlaneTopology} is {@code SingleReplica}
 * (read once: it never changes); otherwise enforced by kube-apiserver while the
 * ValidatingAdmissionPolicy {@value #NAME} (as shipped in deploy/) and a binding of it that denies
 * exist, watched as {@code admissionregistration.k8s.io/v1}, else v1beta1 (OpenShift 4.16). A
 * policy or binding deleted while the gatekeeper runs turns the pools to batch pacing at once.
 */
public final class HoldPolicy {

    /** The name of the shipped policy and of its binding. */
    public static final String NAME = "mcdhooks-post-update-hold";
    /** Members may uncordon a held node and remove its marker as the gatekeeper does. */
    public static final String BREAK_GLASS_GROUP = "mcdhooks:break-glass";

    private static final Logger LOG = LoggerFactory.getLogger(HoldPolicy.class);
    private static final String GROUP = "admissionregistration.k8s.io";
    private static final long RESYNC_MILLIS = Duration.ofMinutes(5).toMillis();

    private final KubernetesClient client;
    private final WorkerExecutor worker;
    private final Context context;
    private final Set<String> policies = new HashSet<>();
    private final Set<String> bindings = new HashSet<>();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private boolean singleNode;
    private PostUpdateHold mode = PostUpdateHold.BATCH_PACING;
    /** Set once started: changes seen while the informers sync are the start's own reading. */
    private BiConsumer<PostUpdateHold, PostUpdateHold> changed;

    HoldPolicy(KubernetesClient client, WorkerExecutor worker, Context context) {
        this.client = client;
        this.worker = worker;
        this.context = context;
    }

    /** The hold now; confined to the gatekeeper's event loop. */
    public PostUpdateHold mode() {
        return mode;
    }

    /** Reads the topology and starts following the policy; {@code changed} hears each change of mode after that. */
    Future<Void> start(BiConsumer<PostUpdateHold, PostUpdateHold> onChange) {
        return worker.executeBlocking(this::readTopology, false)
                .compose(single -> {
                    singleNode = single;
                    return worker.executeBlocking(this::servedVersion, false);
                })
                .compose(version -> {
                    if (version == null) {
                        LOG.atWarn()
                                .log("ValidatingAdmissionPolicy is not served: post-update holds fall back to"
                                        + " batch pacing");
                        return Future.succeededFuture();
                    }
                    return Future.all(
                                    watch(
                                            version,
                                            "ValidatingAdmissionPolicy",
                                            "validatingadmissionpolicies",
                                            policies),
                                    watch(
                                            version,
                                            "ValidatingAdmissionPolicyBinding",
                                            "validatingadmissionpolicybindings",
                                            bindings))
                            .mapEmpty();
                })
                .map(v -> {
                    mode = PostUpdateHold.of(singleNode, bound());
                    changed = onChange;
                    LOG.atInfo().addKeyValue("mode", mode.label()).log("post-update holds: {}", mode.description());
                    return null;
                });
    }

    void stop() {
        informers.forEach(SharedIndexInformer::stop);
    }

    private boolean bound() {
        return policies.contains(NAME) && !bindings.isEmpty();
    }

    private Future<Void> watch(String version, String kind, String plural, Set<String> names) {
        ResourceDefinitionContext definition = new ResourceDefinitionContext.Builder()
                .withGroup(GROUP)
                .withVersion(version)
                .withKind(kind)
                .withPlural(plural)
                .withNamespaced(false)
                .build();
        SharedIndexInformer<GenericKubernetesResource> informer =
                client.genericKubernetesResources(definition).runnableInformer(RESYNC_MILLIS);
        informer.addEventHandler(McoInformers.levelHandler(
                o -> context.runOnContext(v -> seen(names, o, counts(kind, o))),
                (o, unknown) -> context.runOnContext(v -> seen(names, o, false))));
        informers.add(informer);
        return Future.fromCompletionStage(informer.start(), context).mapEmpty();
    }

    /** The policy by its name; a binding if it binds that policy with Deny. */
    @SuppressWarnings("unchecked")
    private static boolean counts(String kind, GenericKubernetesResource object) {
        if (kind.equals("ValidatingAdmissionPolicy")) {
            return NAME.equals(object.getMetadata().getName());
        }
        if (!(object.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec)) {
            return false;
        }
        Object actions = spec.get("validationActions");
        return NAME.equals(spec.get("policyName")) && actions instanceof List<?> list && list.contains("Deny");
    }

    private void seen(Set<String> names, GenericKubernetesResource object, boolean counts) {
        if (counts) {
            names.add(object.getMetadata().getName());
        } else {
            names.remove(object.getMetadata().getName());
        }
        PostUpdateHold now = PostUpdateHold.of(singleNode, bound());
        if (changed != null && now != mode) {
            PostUpdateHold before = mode;
            mode = now;
            LOG.atWarn()
                    .addKeyValue("mode", now.label())
                    .log("post-update holds changed from {}: {}", before.label(), now.description());
            changed.accept(before, now);
        }
    }

    /** Whether the cluster is single-node; a cluster without the Infrastructure API (plain Kubernetes) is not. */
    @SuppressWarnings("unchecked")
    private Boolean readTopology() {
        try {
            GenericKubernetesResource infrastructure = client.genericKubernetesResources(
                            "config.openshift.io/v1", "Infrastructure")
                    .withName("cluster")
                    .get();
            if (infrastructure == null
                    || !(infrastructure.getAdditionalProperties().get("status") instanceof Map<?, ?> status)) {
                return false;
            }
            return "SingleReplica".equals(status.get("controlPlaneTopology"));
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                LOG.atWarn().setCause(e).log("cannot read the Infrastructure: taken as not single-node");
            }
            return false;
        }
    }

    /** v1 where served, else v1beta1, else {@code null}. */
    private String servedVersion() {
        for (String version : List.of("v1", "v1beta1")) {
            try {
                client.genericKubernetesResources(GROUP + "/" + version, "ValidatingAdmissionPolicy")
                        .list();
                return version;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 404) {
                    // Not allowed to look (RBAC not updated): the gatekeeper must not assume the hold.
                    LOG.atWarn().setCause(e).log("cannot list ValidatingAdmissionPolicies");
                    return null;
                }
            }
        }
        return null;
    }
}
