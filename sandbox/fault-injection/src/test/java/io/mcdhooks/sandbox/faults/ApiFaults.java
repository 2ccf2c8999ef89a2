package io.mcdhooks.sandbox.faults;

import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.mcdhooks.sandbox.mco.RequestInterceptor;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

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
    private volatile String leaseBlockedFor;
    private volatile long leaseBlockedUntil;
    private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
    private final List<History.Write> writes = new CopyOnWriteArrayList<>();

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

    /** Refuses {@code identity}'s lease renewals with 503 for {@code duration}: it loses the lease while alive. */
    void blockLease(String identity, Duration duration) {
        leaseBlockedUntil = System.nanoTime() + duration.toNanos();
        leaseBlockedFor = identity;
    }

    /** Injected faults by kind: {@code api-409}, {@code api-5xx}, {@code api-slow}; and {@code api-writes} seen. */
    Map<String, Long> counts() {
        Map<String, Long> copy = new TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    /** Every write of a bridge replica (not to its Lease) that was served, faults on or off. */
    List<History.Write> writes() {
        return List.copyOf(writes);
    }

    @Override
    public MockResponse intercept(RecordedRequest request, Supplier<MockResponse> proceed) {
        String method = request.getMethod();
        boolean write =
                "PATCH".equals(method) || "PUT".equals(method) || "POST".equals(method) || "DELETE".equals(method);
        String agent = request.getHeader("User-Agent");
        String blocked = leaseBlockedFor;
        if (blocked != null
                && write
                && request.getPath().contains("/leases/")
                && agent != null
                && agent.equals(BRIDGE_USER_AGENT + "/" + blocked)
                && System.nanoTime() < leaseBlockedUntil) {
            count("api-lease-503");
            return status(503, "ServiceUnavailable", "injected fault");
        }
        boolean bridge = agent != null && agent.startsWith(BRIDGE_USER_AGENT + "/");
        if (!active || !write || !bridge || request.getPath().contains("/leases")) {
            // The lease is faulted only on purpose (blockLease): losing it makes the bridge exit.
            return served(request, bridge && write, agent, proceed);
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
            return status(
                    409, "Conflict", "the object has been modified; please apply your changes to the latest version");
        }
        if (dice < conflicts + errors) {
            boolean unavailable = dice < conflicts + errors / 2;
            count("api-5xx");
            return status(
                    unavailable ? 503 : 500, unavailable ? "ServiceUnavailable" : "InternalError", "injected fault");
        }
        MockResponse response = served(request, true, agent, proceed);
        if (dice < conflicts + errors + slow) {
            count("api-slow");
            response.setBodyDelay(Duration.ofMillis(delay));
        }
        return response;
    }

    private MockResponse served(
            RecordedRequest request, boolean bridgeWrite, String agent, Supplier<MockResponse> proceed) {
        Instant at = Instant.now();
        MockResponse response = proceed.get();
        if (bridgeWrite && !request.getPath().contains("/leases") && response.code() < 400) {
            writes.add(new History.Write(
                    at,
                    agent.substring(BRIDGE_USER_AGENT.length() + 1),
                    request.getMethod(),
                    request.getPath(),
                    request.getBody() == null
                            ? null
                            : new String(request.getBody().getBytes(), StandardCharsets.UTF_8)));
        }
        return response;
    }

    private void count(String kind) {
        counts.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    private static MockResponse status(int code, String reason, String message) {
        return new MockResponse()
                .setResponseCode(code)
                .setHeader("Content-Type", "application/json")
                .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                        + "\"message\":\"" + message + "\",\"reason\":\"" + reason + "\",\"code\":" + code + "}");
    }
}
