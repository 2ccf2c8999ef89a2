package io.mcdhooks.hooks.examples;

import io.mcdhooks.hooks.api.CheckContext;
import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.api.Hook;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.WebClient;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Scenario 1 offline ({@code MCDHOOKS_KMOD_SOURCE=catalog}): hold an update until out-of-tree kernel
 * modules are built for the target kernel, as a hand-kept catalog says. Answers pool-pre-update and
 * pre-update gates; reads the {@link ModuleCatalog} afresh for every check, from a file or an
 * http(s) URL, so a FAIL turns into a PASS once the build lands. The registry-reading kmod hook is
 * {@code kmod.RegistryKernelModuleHook}.
 */
public final class KernelModuleReadinessHook implements Hook {

    private final GateSelector selector;
    private final String catalog;
    private final List<String> modules;
    private final Duration recheckAfter;
    private final WebClient client;

    public KernelModuleReadinessHook(
            Vertx vertx, GateSelector selector, String catalog, List<String> modules, Duration recheckAfter) {
        this.selector = selector;
        this.catalog = catalog;
        this.modules = List.copyOf(modules);
        this.recheckAfter = recheckAfter;
        this.client = catalog.startsWith("http://") || catalog.startsWith("https://") ? WebClient.create(vertx) : null;
    }

    /** The stages this scenario is about. */
    public static GateSelector defaultSelector() {
        return GateSelector.stages(Stage.POOL_PRE_UPDATE, Stage.PRE_UPDATE);
    }

    @Override
    public GateSelector selector() {
        return selector;
    }

    @Override
    public CompletionStage<CheckResult> check(GateRequest request, CheckContext context) {
        return readCatalog(context.vertx())
                .compose(bytes -> context.vertx().executeBlocking(() -> ModuleCatalog.parse(bytes.getBytes()), false))
                .map(catalog -> catalog.assess(request, modules, recheckAfter))
                .toCompletionStage();
    }

    private Future<Buffer> readCatalog(Vertx vertx) {
        if (client == null) {
            return vertx.fileSystem().readFile(catalog);
        }
        return client.getAbs(URI.create(catalog).toString())
                .send()
                .compose(response -> response.statusCode() == 200
                        ? Future.succeededFuture(response.body())
                        : Future.failedFuture("module catalog " + catalog + " answered HTTP " + response.statusCode()));
    }
}
