package io.mcdhooks.hooks.testing;

import io.mcdhooks.schemas.GateId;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** GateRequests for tests, each with its own gate id. */
public final class Requests {

    public static final String CLUSTER = "test-cluster";
    public static final String OS_IMAGE = "quay.io/example/rhcos@sha256:aaaa";

    private Requests() {}

    public static GateRequest preUpdate(String node, Duration deadlineIn) {
        return request(Stage.PRE_UPDATE, "worker", node, deadlineIn);
    }

    public static GateRequest poolPreUpdate(String pool, Duration deadlineIn) {
        return request(Stage.POOL_PRE_UPDATE, pool, null, deadlineIn);
    }

    public static GateRequest postUpdate(String node, Duration deadlineIn) {
        return request(Stage.POST_UPDATE, "worker", node, deadlineIn);
    }

    public static GateRequest request(Stage stage, String pool, String node, Duration deadlineIn) {
        Instant now = Instant.now();
        String target = "rendered-" + pool + "-" + UUID.randomUUID().toString().substring(0, 8);
        return new GateRequest(
                CLUSTER,
                GateId.of(CLUSTER, stage, node == null ? pool : node, target),
                1,
                stage,
                new GateRequest.PoolFacts(pool, "1", 3),
                node == null ? null : new GateRequest.NodeFacts(node, "zone-a", Map.of("role", "worker")),
                "rendered-" + pool + "-old",
                target,
                new GateRequest.TargetFacts(OS_IMAGE, "default", List.of("usbguard"), List.of(), null),
                now,
                now.plus(deadlineIn));
    }
}
