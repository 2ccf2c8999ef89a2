package io.mcdhooks.bridge.rollback;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import java.util.Map;

/** MachineConfigs as an informer hands them over, for the rollback's tests. */
public final class MachineConfigObjects {

    public static final Map<String, String> WORKER = Map.of("machineconfiguration.openshift.io/role", "worker");

    private MachineConfigObjects() {}

    /** A worker MachineConfig {@code name} with {@code annotations} and {@code spec}. */
    public static GenericKubernetesResource mc(String name, Map<String, String> annotations, Map<String, Object> spec) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("machineconfiguration.openshift.io/v1")
                .withKind("MachineConfig")
                .withNewMetadata()
                .withName(name)
                .withAnnotations(annotations)
                .withLabels(WORKER)
                .endMetadata()
                .addToAdditionalProperties("spec", spec)
                .build();
    }
}
