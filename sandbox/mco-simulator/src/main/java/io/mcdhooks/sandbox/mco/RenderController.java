package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCC's render controller: for each pool, merges the MachineConfigs its
 * {@code machineConfigSelector} selects into a rendered MachineConfig and points the pool's
 * {@code spec.configuration} at it. Pause does not stop it (only the node controller honours
 * pause), exactly as in the MCO.
 */
final class RenderController {

    private static final Logger LOG = LoggerFactory.getLogger(RenderController.class);
    static final String CONTROLLER_VERSION = "mco-simulator";
    static final String GENERATED_BY = Mco.GROUP + "/generated-by-controller-version";

    private final SimContext sim;
    private final AtomicBoolean queued = new AtomicBoolean();

    RenderController(SimContext sim) {
        this.sim = sim;
    }

    void enqueue() {
        if (queued.compareAndSet(false, true)) {
            sim.clock.schedule("render", sim.timings.controllerDelay(), () -> {
                queued.set(false);
                syncAll();
            });
        }
    }

    private void syncAll() {
        if (!sim.mccRunning()) {
            return;
        }
        for (GenericKubernetesResource pool : sim.pools.getStore().list()) {
            sync(pool);
        }
    }

    private void sync(GenericKubernetesResource pool) {
        String poolName = pool.getMetadata().getName();
        Renderer.Rendered rendered = Renderer.render(
                poolName, sources(pool, sim.machineConfigs.getStore().list()));
        if (sim.machineConfigs.getStore().getByKey(rendered.name()) == null) {
            create(pool, rendered);
        }
        Map<String, Object> spec =
                NodeController.map(pool.getAdditionalProperties().get("spec"));
        Object current = NodeController.map(spec.get("configuration")).get("name");
        if (!rendered.name().equals(current)) {
            Mco.pools(sim.client)
                    .withName(poolName)
                    .patch(Mco.jsonPatch(), Mco.set("/spec/configuration", configuration(rendered)));
            LOG.atInfo()
                    .addKeyValue("pool", poolName)
                    .addKeyValue("config", rendered.name())
                    .log("Pool targets a new rendered config");
        }
    }

    /** The non-rendered MachineConfigs the pool selects. */
    static List<Renderer.Source> sources(GenericKubernetesResource pool, List<GenericKubernetesResource> configs) {
        Object raw =
                NodeController.map(pool.getAdditionalProperties().get("spec")).get("machineConfigSelector");
        LabelSelector selector = raw == null ? null : Mco.convert(raw, LabelSelector.class);
        var out = new ArrayList<Renderer.Source>();
        for (GenericKubernetesResource mc : configs) {
            Map<String, String> labels = mc.getMetadata().getLabels() == null
                    ? Map.of()
                    : mc.getMetadata().getLabels();
            if (!isRendered(mc) && DisruptionBudgets.selects(selector, labels)) {
                Map<String, String> annotations = mc.getMetadata().getAnnotations() == null
                        ? Map.of()
                        : mc.getMetadata().getAnnotations();
                String generatedBy = annotations.getOrDefault(GENERATED_BY, "");
                out.add(new Renderer.Source(
                        mc.getMetadata().getName(),
                        labels.get(Mco.ROLE_LABEL),
                        !generatedBy.isEmpty(),
                        NodeController.map(mc.getAdditionalProperties().get("spec"))));
            }
        }
        return out;
    }

    static boolean isRendered(GenericKubernetesResource mc) {
        return mc.getMetadata().getName().startsWith("rendered-");
    }

    static Map<String, Object> configuration(Renderer.Rendered rendered) {
        return Map.of(
                "name",
                rendered.name(),
                "source",
                rendered.sources().stream()
                        .map(s -> Map.of("apiVersion", Mco.API_VERSION, "kind", "MachineConfig", "name", s))
                        .toList());
    }

    /** The rendered MachineConfig object, owned by its pool. */
    static GenericKubernetesResource renderedObject(GenericKubernetesResource pool, Renderer.Rendered rendered) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(Mco.API_VERSION)
                .withKind("MachineConfig")
                .withNewMetadata()
                .withName(rendered.name())
                .addToAnnotations(GENERATED_BY, CONTROLLER_VERSION)
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion(Mco.API_VERSION)
                        .withKind("MachineConfigPool")
                        .withName(pool.getMetadata().getName())
                        .withUid(pool.getMetadata().getUid())
                        .withController(true)
                        .withBlockOwnerDeletion(true)
                        .build())
                .endMetadata()
                .addToAdditionalProperties("spec", rendered.spec())
                .build();
    }

    private void create(GenericKubernetesResource pool, Renderer.Rendered rendered) {
        try {
            Mco.machineConfigs(sim.client)
                    .resource(renderedObject(pool, rendered))
                    .create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
        }
    }
}
