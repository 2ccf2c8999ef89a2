package io.mcdhooks.sandbox.local;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Reads the bridge's status snapshot ({@code /api/status}): the terminal view and the summary
 * show exactly what the web page shows, built on the bridge's event loop from its informer caches
 * and the gatekeeper's gates.
 */
final class StatusClient {

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final URI uri;

    StatusClient(URI base) {
        this.uri = base.resolve("/api/status");
    }

    JsonObject fetch() {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(uri)
                            .timeout(Duration.ofSeconds(5))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(uri + " answered HTTP " + response.statusCode());
            }
            return new JsonObject(response.body());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + uri + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
