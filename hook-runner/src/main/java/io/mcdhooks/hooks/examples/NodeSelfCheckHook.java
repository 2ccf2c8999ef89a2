package io.mcdhooks.hooks.examples;

import io.mcdhooks.hooks.api.CheckContext;
import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.api.Hook;
import io.mcdhooks.hooks.exec.CommandResult;
import io.mcdhooks.hooks.exec.GroupCommand;
import io.mcdhooks.hooks.exec.RequestEnvironment;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * Scenario 2: after a node rebooted into its new config, check the node itself before it is
 * re-admitted. Runs node-local (one runner per node) and either runs a health command (exit 0 is
 * healthy) or probes an HTTP endpoint (2xx is healthy). Anything else FAILs the gate; it can be
 * checked again after {@code recheckAfter}, as services may still be settling after the reboot.
 */
public final class NodeSelfCheckHook implements Hook {

    public static final String HEALTHY = "NodeHealthy";
    public static final String UNHEALTHY = "NodeUnhealthy";

    private final String name;
    private final GateSelector selector;
    private final String command;
    private final URI url;
    private final Duration recheckAfter;
    private final WebClient client;
    private final MessageCodec codec = new MessageCodec();

    /** Exactly one of {@code command} and {@code url}. */
    public NodeSelfCheckHook(
            Vertx vertx, String name, GateSelector selector, String command, URI url, Duration recheckAfter) {
        if ((command == null) == (url == null)) {
            throw new IllegalArgumentException("give exactly one of a command and a URL");
        }
        this.name = name;
        this.selector = selector;
        this.command = command;
        this.url = url;
        this.recheckAfter = recheckAfter;
        this.client = url == null ? null : WebClient.create(vertx);
    }

    public static GateSelector defaultSelector() {
        return GateSelector.stages(Stage.POST_UPDATE);
    }

    @Override
    public GateSelector selector() {
        return selector;
    }

    @Override
    public CompletionStage<CheckResult> check(GateRequest request, CheckContext context) {
        if (command != null) {
            byte[] json = codec.encode(request);
            return context.blocking(
                            () -> GroupCommand.run(command, RequestEnvironment.of(request, name), json, context))
                    .thenApply(this::fromCommand);
        }
        return client.getAbs(url.toString())
                .send()
                .map(this::fromProbe)
                .otherwise(e -> unhealthy("probe " + url + " failed: " + e.getMessage()))
                .toCompletionStage();
    }

    private CheckResult fromCommand(CommandResult result) {
        return result.exitCode() == 0
                ? CheckResult.pass(HEALTHY, result.lastLine())
                : unhealthy("health command exited " + result.exitCode() + ": " + result.lastLine());
    }

    private CheckResult fromProbe(HttpResponse<Buffer> response) {
        String body =
                response.bodyAsString() == null ? "" : response.bodyAsString().strip();
        return response.statusCode() / 100 == 2
                ? CheckResult.pass(HEALTHY, "probe " + url + ": " + body)
                : unhealthy("probe " + url + " answered HTTP " + response.statusCode() + ": " + body);
    }

    private CheckResult unhealthy(String message) {
        return recheckAfter == null
                ? CheckResult.fail(UNHEALTHY, message)
                : CheckResult.failAndRecheck(UNHEALTHY, message, recheckAfter);
    }
}
