package io.mcdhooks.bridge.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.mcdhooks.bridge.mco.McoApi;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/** Informers on the MCO's custom resources, which the bridge reads as generic resources. */
public final class McoInformers {

    /** {@code operator.openshift.io/v1 MachineConfiguration}: the cluster's node disruption policy. */
    public static final ResourceDefinitionContext MACHINE_CONFIGURATIONS = new ResourceDefinitionContext.Builder()
            .withGroup(McoApi.OPERATOR_GROUP)
            .withVersion("v1")
            .withKind(McoApi.MACHINE_CONFIGURATION_KIND)
            .withPlural("machineconfigurations")
            .withNamespaced(false)
            .build();

    private McoInformers() {}

    public static ResourceDefinitionContext context(String kind, String version) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(McoApi.GROUP)
                .withVersion(version)
                .withKind(kind)
                .withPlural(kind.toLowerCase(Locale.ROOT) + "s")
                .withNamespaced(false)
                .build();
    }

    /** A not yet started informer on {@code kind}; start it with {@code start()}. */
    public static SharedIndexInformer<GenericKubernetesResource> informer(
            KubernetesClient client,
            String kind,
            String version,
            long resyncMillis,
            ResourceEventHandler<GenericKubernetesResource> handler) {
        SharedIndexInformer<GenericKubernetesResource> informer =
                client.genericKubernetesResources(context(kind, version)).runnableInformer(resyncMillis);
        informer.addEventHandler(handler);
        return informer;
    }

    /** A handler that reports adds and updates as one "now looks like this", and deletes apart. */
    public static <T> ResourceEventHandler<T> levelHandler(Consumer<T> upsert, BiConsumer<T, Boolean> delete) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                upsert.accept(obj);
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                upsert.accept(newObj);
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                delete.accept(obj, deletedFinalStateUnknown);
            }
        };
    }
}
