package io.mcdhooks.hooks.exec;

import io.mcdhooks.schemas.GateRequest;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The key facts of a request as environment variables for a command. Every variable is always
 * set; a fact the request does not carry (the node of a pool-wide gate) is the empty string.
 */
public final class RequestEnvironment {

    private RequestEnvironment() {}

    public static Map<String, String> of(GateRequest request, String hook) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("MCDHOOKS_HOOK", hook);
        env.put("MCDHOOKS_GATE_ID", request.gateId());
        env.put("MCDHOOKS_ATTEMPT", Integer.toString(request.attempt()));
        env.put("MCDHOOKS_STAGE", request.stage().wire());
        env.put("MCDHOOKS_CLUSTER", request.cluster());
        env.put("MCDHOOKS_POOL", request.pool().name());
        env.put("MCDHOOKS_NODE", request.node() == null ? "" : request.node().name());
        env.put("MCDHOOKS_CURRENT_CONFIG", orEmpty(request.currentConfig()));
        env.put("MCDHOOKS_TARGET_CONFIG", request.targetConfig());
        env.put("MCDHOOKS_OS_IMAGE_URL", orEmpty(request.target().osImageURL()));
        env.put("MCDHOOKS_KERNEL_TYPE", orEmpty(request.target().kernelType()));
        env.put("MCDHOOKS_EXTENSIONS", String.join(",", request.target().extensions()));
        env.put("MCDHOOKS_REQUESTED_AT", request.requestedAt().toString());
        env.put("MCDHOOKS_DEADLINE", request.deadline().toString());
        env.put(
                "MCDHOOKS_DISRUPTION",
                request.disruption() == null ? "" : request.disruption().kind());
        env.put("MCDHOOKS_LATE", Boolean.toString(request.lateGate()));
        return env;
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}
