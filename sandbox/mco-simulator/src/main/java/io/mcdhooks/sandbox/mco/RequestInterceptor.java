package io.mcdhooks.sandbox.mco;

import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.function.Supplier;

/**
 * Stands between the in-memory API server and its store, so a test can make some requests fail
 * (409, 5xx) or answer slowly, as a real API server under load does. See
 * {@link InMemoryCluster#interceptRequests(RequestInterceptor)}.
 */
@FunctionalInterface
public interface RequestInterceptor {

    /**
     * The response to {@code request}: {@code proceed.get()} serves it normally (and may be delayed
     * with {@link MockResponse#setBodyDelay}); anything else is returned without touching the store.
     */
    MockResponse intercept(RecordedRequest request, Supplier<MockResponse> proceed);
}
