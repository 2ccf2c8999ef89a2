package io.mcdhooks.hooks.runner;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.util.function.BooleanSupplier;

/**
 * A runner's HTTP endpoints: {@code /healthz}, {@code /readyz} (ready once the runner consumes)
 * and {@code /metrics} in Prometheus text format, with the runner's gauges under
 * {@code mcdhooks_runner_*} tagged by hook, beside Vert.x's own metrics.
 */
public final class RunnerEndpoints {

    private RunnerEndpoints() {}

    /** Registers the runner's meters in {@code registry}. */
    public static void bind(PrometheusMeterRegistry registry, String hook, RunnerGauges gauges) {
        Gauge.builder("mcdhooks.runner.checks.running", gauges, RunnerGauges::running)
                .description("Checks running now")
                .tag("hook", hook)
                .register(registry);
        Gauge.builder("mcdhooks.runner.gates.open", gauges, RunnerGauges::open)
                .description("Gates held: queued, running or waiting for a re-check")
                .tag("hook", hook)
                .register(registry);
        FunctionCounter.builder("mcdhooks.runner.consumer.pauses", gauges, RunnerGauges::pauses)
                .description("Times the consumer paused at the open-gate limit")
                .tag("hook", hook)
                .register(registry);
        FunctionCounter.builder("mcdhooks.runner.final.verdicts", gauges, RunnerGauges::finalVerdicts)
                .description("PASS or FAIL verdicts acknowledged by the broker")
                .tag("hook", hook)
                .register(registry);
    }

    /** Serves the endpoints on {@code host}:{@code port} (0: any free port). */
    public static Future<HttpServer> serve(
            Vertx vertx, String host, int port, PrometheusMeterRegistry registry, BooleanSupplier ready) {
        return vertx.createHttpServer()
                .requestHandler(request -> {
                    switch (request.path()) {
                        case "/healthz" -> request.response().end("ok");
                        case "/readyz" ->
                            request.response()
                                    .setStatusCode(ready.getAsBoolean() ? 200 : 503)
                                    .end(ready.getAsBoolean() ? "ready" : "not ready");
                        case "/metrics" ->
                            request.response()
                                    .putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8")
                                    .end(registry.scrape());
                        default -> request.response().setStatusCode(404).end();
                    }
                })
                .listen(port, host);
    }
}
