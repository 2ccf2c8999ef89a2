package io.mcdhooks.hooks.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mcdhooks.hooks.api.CheckContext;
import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.api.Hook;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.CompletionStage;

/**
 * A hook behind a URL: POSTs each GateRequest as a structured-mode CloudEvent and reads the verdict
 * from a 2xx response body: {@code {"outcome":"PASS"|"FAIL","reason":"...","message":"...",
 * "retryAfterSeconds":n}} (a full Verdict is fine too; other fields are ignored). Any other status,
 * a connection error, an unreadable body or one larger than {@value #MAX_RESPONSE_BYTES} bytes is
 * a transient error, retried with back-off. Only {@code https://} URLs: the request names the
 * cluster, its nodes and configs, and the answer decides a gate.
 */
public final class HttpHook implements Hook {

    /** A verdict is a few hundred bytes; anything near this is not one. */
    public static final int MAX_RESPONSE_BYTES = 64 * 1024;

    private static final ObjectMapper MAPPER = MessageCodec.newObjectMapper();

    private final GateSelector selector;
    private final URI url;
    private final URI source;
    private final Duration timeout;
    private final WebClient client;
    private final MessageCodec codec = new MessageCodec();

    /** @param caFile PEM CA bundle that signs the server's certificate; {@code null}: the JVM's trust store */
    public HttpHook(Vertx vertx, String hookName, GateSelector selector, URI url, Path caFile, Duration timeout) {
        if (!"https".equals(url.getScheme())) {
            throw new IllegalArgumentException("a hook's URL must be https://, not " + url);
        }
        this.selector = selector;
        this.url = url;
        this.source = URI.create("/hooks/" + hookName);
        this.timeout = timeout;
        WebClientOptions options = new WebClientOptions().setVerifyHost(true);
        if (caFile != null) {
            options.setTrustOptions(new PemTrustOptions().addCertPath(caFile.toString()));
        }
        this.client = WebClient.create(vertx, options);
    }

    @Override
    public GateSelector selector() {
        return selector;
    }

    @Override
    public CompletionStage<CheckResult> check(GateRequest request, CheckContext context) {
        byte[] body = StructuredCloudEvent.of(request, codec, source, OffsetDateTime.now(ZoneOffset.UTC));
        return client.postAbs(url.toString())
                .putHeader("content-type", StructuredCloudEvent.CONTENT_TYPE)
                .timeout(timeout.toMillis())
                .as(LimitedBody.codec(MAX_RESPONSE_BYTES))
                .sendBuffer(Buffer.buffer(body))
                .compose(HttpHook::decide)
                .toCompletionStage();
    }

    static Future<CheckResult> decide(HttpResponse<Buffer> response) {
        if (response.statusCode() / 100 != 2) {
            return Future.failedFuture("HTTP " + response.statusCode() + " from the hook");
        }
        try {
            return Future.succeededFuture(resultOf(
                    response.body() == null ? new byte[0] : response.body().getBytes()));
        } catch (IllegalArgumentException e) {
            return Future.failedFuture(e.getMessage());
        }
    }

    /**
     * A {@code 2xx} response body as the runner reads it: {@code outcome} ({@code PASS} or
     * {@code FAIL}), optional {@code reason} and {@code message}, and on a FAIL an optional
     * {@code retryAfterSeconds} asking for a re-check. Other fields, as in a full Verdict, are ignored.
     */
    public static CheckResult resultOf(byte[] body) {
        try {
            JsonNode json = MAPPER.readTree(body);
            Outcome outcome = Outcome.valueOf(json.path("outcome").asText());
            String reason = json.path("reason").asText(null);
            String message = json.path("message").asText(null);
            JsonNode retry = json.path("retryAfterSeconds");
            Duration retryAfter = outcome == Outcome.FAIL && retry.canConvertToInt() && retry.asInt() > 0
                    ? Duration.ofSeconds(retry.asInt())
                    : null;
            return new CheckResult(outcome, reason, message, retryAfter);
        } catch (IOException | IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("unreadable verdict from the hook: " + e.getMessage(), e);
        }
    }
}
