package io.mcdhooks.hooks.testing;

import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** What the kmod hook's tests give it: KMM Modules and gate requests for an OS image. */
public final class Kmod {

    private Kmod() {}

    /** A KMM Module whose one mapping ({@code ^.+$}) names {@code image}, a template such as {@code r/x:${KERNEL_FULL_VERSION}}. */
    public static String module(String namespace, String name, String image) {
        return """
                apiVersion: kmm.sigs.x-k8s.io/v1beta1
                kind: Module
                metadata: {name: %s, namespace: %s}
                spec:
                  moduleLoader:
                    container:
                      kernelMappings:
                        - regexp: '^.+$'
                          containerImage: %s
                """.formatted(name, namespace, image);
    }

    /**
     * A gate for {@code osImage}: the pool {@code worker}'s pool-pre-update gate when {@code node} is
     * null, else the node's pre-update gate, the node labelled with {@code arch}.
     */
    public static GateRequest gate(String osImage, String kernelType, String node, String arch) {
        Instant now = Instant.now();
        Stage stage = node == null ? Stage.POOL_PRE_UPDATE : Stage.PRE_UPDATE;
        String target = "rendered-worker-" + UUID.randomUUID().toString().substring(0, 8);
        return new GateRequest(
                Requests.CLUSTER,
                GateId.of(Requests.CLUSTER, stage, node == null ? "worker" : node, target),
                1,
                stage,
                new GateRequest.PoolFacts("worker", "1", 3),
                node == null ? null : new GateRequest.NodeFacts(node, "zone-a", Map.of("kubernetes.io/arch", arch)),
                "rendered-worker-old",
                target,
                new GateRequest.TargetFacts(osImage, kernelType, List.of(), List.of(), null),
                now,
                now.plus(Duration.ofMinutes(10)));
    }
}
