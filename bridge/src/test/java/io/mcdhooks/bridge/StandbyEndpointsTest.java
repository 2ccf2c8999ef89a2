package io.mcdhooks.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.bridge.metrics.BridgeMetrics;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StandbyEndpointsTest {

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aStandbyIsAliveReadyToTakeOverAndScrapable() throws Exception {
        HttpServer server = StandbyEndpoints.start(vertx, "127.0.0.1", 0, BridgeMetrics.create())
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        HttpClient http = HttpClient.newHttpClient();

        HttpResponse<String> health = get(http, server, "/healthz");
        HttpResponse<String> ready = get(http, server, "/readyz");
        HttpResponse<String> metrics = get(http, server, "/metrics");
        HttpResponse<String> status = get(http, server, "/api/status");

        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).isEqualTo("{\"role\":\"standby\"}");
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("# TYPE");
        assertThat(status.statusCode()).isEqualTo(404);
    }

    private static HttpResponse<String> get(HttpClient http, HttpServer server, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
