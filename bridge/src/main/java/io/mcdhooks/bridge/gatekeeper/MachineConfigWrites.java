package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.mcdhooks.bridge.kube.McoInformers;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.rollback.ConfigSnapshot;
import io.mcdhooks.bridge.rollback.SourceConfig;
import io.mcdhooks.schemas.GateDecision.RollbackStep;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Writes a rollback's MachineConfigs back as the snapshot of the config it goes back to has them.
 * Every write leaves the object as the snapshot says whatever it was before, so a rollback
 * carried out again after a restart (its APPLIED decision not on Kafka yet) writes the same.
 * Needs the bridge's write access to MachineConfigs, which only {@code deploy/rollback/} grants.
 */
final class MachineConfigWrites implements PoolRollbacks.Writes {

    private final KubernetesClient client;
    private final WorkerExecutor worker;

    MachineConfigWrites(KubernetesClient client, WorkerExecutor worker) {
        this.client = client;
        this.worker = worker;
    }

    /** Makes {@code steps}, in order, on the worker pool; fails on the first write refused. */
    @Override
    public Future<Void> write(List<RollbackStep> steps, ConfigSnapshot previous) {
        return worker.executeBlocking(
                () -> {
                    for (RollbackStep step : steps) {
                        write(step, previous);
                    }
                    return null;
                },
                true);
    }

    private void write(RollbackStep step, ConfigSnapshot previous) {
        Resource<GenericKubernetesResource> mc = client.genericKubernetesResources(
                        McoInformers.context(McoApi.CONFIG_KIND, "v1"))
                .withName(step.machineConfig());
        switch (step.action()) {
            case DELETE -> mc.delete();
            case RESTORE, RECREATE -> {
                SourceConfig was = previous.source(step.machineConfig())
                        .orElseThrow(() -> new IllegalStateException(
                                "the snapshot of " + previous.renderedConfig() + " has no " + step.machineConfig()));
                if (mc.get() == null) {
                    mc.create(asItWas(was));
                } else {
                    mc.edit(now -> {
                        now.getMetadata().setLabels(new LinkedHashMap<>(was.labels()));
                        now.getAdditionalProperties().put("spec", was.spec());
                        return now;
                    });
                }
            }
        }
    }

    private static GenericKubernetesResource asItWas(SourceConfig was) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(McoApi.V1)
                .withKind(McoApi.CONFIG_KIND)
                .withNewMetadata()
                .withName(was.name())
                .withLabels(new LinkedHashMap<>(was.labels()))
                .endMetadata()
                .addToAdditionalProperties("spec", was.spec())
                .build();
    }
}
