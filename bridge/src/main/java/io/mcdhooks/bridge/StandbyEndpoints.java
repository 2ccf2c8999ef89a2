package io.mcdhooks.bridge;

import io.mcdhooks.bridge.metrics.BridgeMetrics;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;

/**
 * What a replica that does not lead serves on {@code MCDHOOKS_HTTP_PORT}, so that one liveness
 * probe fits both roles: {@code /healthz} (alive), {@code /readyz} (a standby is ready to take
 * over) and {@code /metrics}. Closed just before the replica starts to lead, when the bridge's own
 * endpoints take the port.
 */
final class StandbyEndpoints {

    private StandbyEndpoints() {}

    static Future<HttpServer> start(Vertx vertx, String host, int port, BridgeMetrics metrics) {
        return vertx.createHttpServer()
                .requestHandler(request -> {
                    switch (request.path()) {
                        case "/healthz" -> request.response().end("ok: standby");
                        case "/readyz" ->
                            request.response()
                                    .putHeader("content-type", "application/json")
                                    .end(new JsonObject().put("role", "standby").encode());
                        case "/metrics" ->
                            request.response()
                                    .putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8")
                                    .end(metrics.scrape());
                        default -> request.response().setStatusCode(404).end("standby: the leader serves this\n");
                    }
                })
                .listen(port, host);
    }
}
