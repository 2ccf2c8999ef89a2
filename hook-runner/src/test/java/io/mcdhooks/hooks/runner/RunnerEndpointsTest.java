package io.mcdhooks.hooks.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class RunnerEndpointsTest {

    @Test
    void servesHealthReadinessAndTheRunnersMetrics() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            RunnerGauges gauges = new RunnerGauges();
            gauges.running(3);
            RunnerEndpoints.bind(registry, "kmod-check", gauges);
            boolean[] ready = {false};
            HttpServer server = RunnerEndpoints.serve(vertx, "127.0.0.1", 0, registry, () -> ready[0])
                    .await();

            assertThat(get(server, "/healthz").statusCode()).isEqualTo(200);
            assertThat(get(server, "/readyz").statusCode()).isEqualTo(503);
            ready[0] = true;
            assertThat(get(server, "/readyz").statusCode()).isEqualTo(200);
            HttpResponse<String> metrics = get(server, "/metrics");
            assertThat(metrics.headers().firstValue("content-type"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
            assertThat(metrics.body())
                    .contains("mcdhooks_runner_checks_running{hook=\"kmod-check\"} 3.0")
                    .contains("mcdhooks_runner_final_verdicts_total{hook=\"kmod-check\"} 0.0");
        } finally {
            vertx.close().await();
        }
    }

    private static HttpResponse<String> get(HttpServer server, String path) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }
}
