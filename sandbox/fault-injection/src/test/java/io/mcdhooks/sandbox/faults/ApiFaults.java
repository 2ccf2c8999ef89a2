package io.mcdhooks.sandbox.faults;

import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.mcdhooks.sandbox.mco.RequestInterceptor;

/**
 * API-server faults on the bridge's writes: of its PATCH, PUT, POST and DELETE requests (told
 * apart by their User-Agent) a fraction is refused with 409 Conflict, a fraction with 500 or 503,
 * and a fraction is served but answered slowly. Everyone else's requests (the simulated MCO, the
 * recorder) pass untouched.
 */
final class ApiFaults implements RequestInterceptor {

    static final String BRIDGE_USER_AGENT = "mcdhooks-bridge-under-test";

    private final Random random;
    private final double conflicts;
    private final double errors;
    private final double slow;
    private final Duration slowest;
    private volatile boolean active;
    private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

    ApiFaults(long seed, double conflicts, double errors, double slow, Duration slowest) {
        this.random = new Random(seed);
        this.conflicts = conflicts;
        this.errors = errors;
        this.slow = slow;
        this.slowest = slowest;
    }

    void active(boolean on) {
        active = on;
    }

    /** Injected faults by kind: {@code api-409}, {@code api-5xx}, {@code api-slow}; and {@code api-writes} seen. */
    Map<String, Long> counts() {
        Map<String, Long> copy = new java.util.TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    @Override
    public MockResponse intercept(RecordedRequest request, Supplier<MockResponse> proceed) {
        String method = request.getMethod();
        boolean write = "PATCH".equals(method) || "PUT".equals(method) || "POST".equals(method)
                || "DELETE".equals(method);
        String agent = request.getHeader("User-Agent");
        if (!active || !write || agent == null || !agent.startsWith(BRIDGE_USER_AGENT)
                || request.getPath().contains("/leases/")) {
            // The lease is left alone: losing it makes the bridge exit, which the kill faults cover.
            return proceed.get();
        }
        count("api-writes");
        double dice;
        long delay;
        synchronized (random) {
            dice = random.nextDouble();
            delay = 1 + (long) (random.nextDouble() * slowest.toMillis());
        }
        if (dice < conflicts) {
            count("api-409");
            return status(409, "Conflict", "the object has been modified; please apply your changes to the latest version");
        }
        if (dice < conflicts + errors) {
            boolean unavailable = dice < conflicts + errors / 2;
            count("api-5xx");
            return status(unavailable ? 503 : 500, unavailable ? "ServiceUnavailable" : "InternalError",
                    "injected fault");
        }
        MockResponse response = proceed.get();
        if (dice < conflicts + errors + slow) {
            count("api-slow");
            response.setBodyDelay(Duration.ofMillis(delay));
        }
        return response;
    }

    private void count(String kind) {
        counts.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    private static MockResponse status(int code, String reason, String message) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                        + "\"message\":\"" + message + "\",\"reason\":\"" + reason + "\",\"code\":" + code + "}");
    }
}
