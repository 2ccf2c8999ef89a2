package io.mcdhooks.hooks.examples;

import io.mcdhooks.hooks.api.CheckContext;
import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.api.Hook;
import io.mcdhooks.hooks.runner.Main;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/** Holds pool updates while a change-freeze file exists; the hook author's guide walks through it. */
public final class ChangeFreezeHook implements Hook {

    private final Path freezeFile;
    private final Duration recheckAfter;

    /** Run it: {@code FREEZE_FILE=/etc/freeze} plus the runner's {@code MCDHOOKS_*} and {@code KAFKA_*} variables. */
    public static void main(String[] args) {
        Path freezeFile = Path.of(System.getenv().getOrDefault("FREEZE_FILE", "/etc/mcdhooks/freeze"));
        Main.run(vertx -> new ChangeFreezeHook(freezeFile, Duration.ofMinutes(1)));
    }

    public ChangeFreezeHook(Path freezeFile, Duration recheckAfter) {
        this.freezeFile = freezeFile;
        this.recheckAfter = recheckAfter;
    }

    @Override
    public GateSelector selector() {
        return GateSelector.stages(Stage.POOL_PRE_UPDATE);
    }

    @Override
    public CompletionStage<CheckResult> check(GateRequest request, CheckContext context) {
        // Files.exists touches the disk: run it on a worker, never on the event loop.
        return context.blocking(() -> Files.exists(freezeFile))
                .thenApply(frozen -> frozen
                        ? CheckResult.failAndRecheck(
                                "ChangeFreeze", "change freeze: " + freezeFile + " exists", recheckAfter)
                        : CheckResult.pass(
                                "NoChangeFreeze",
                                "no change freeze for pool " + request.pool().name()));
    }
}
