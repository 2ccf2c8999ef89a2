package io.mcdhooks.sandbox.local;

import io.mcdhooks.sandbox.registry.ForkedRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/** The post-check-fails scenario on 1 master and 3 workers, watched until the first updated node is held. */
record HeldRun(LocalSystem system, RunSummary summary) implements AutoCloseable {

    static HeldRun start() {
        Assumptions.assumeTrue(ForkedRegistry.installed(), ForkedRegistry.MISSING);
        LocalRunConfig config = LocalRunConfig.defaults(Scenario.POST_CHECK_FAILS)
                .withTopology(1, 3, List.of("zone-a"), 1)
                .withHttpPort(0);
        LocalSystem system = LocalSystem.start(config);
        try {
            RunSummary summary = new RunWatch(
                            system,
                            new TerminalView(
                                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false))
                    .run();
            return new HeldRun(system, summary);
        } catch (RuntimeException | Error e) {
            system.close();
            throw e;
        }
    }

    @Override
    public void close() {
        system.close();
    }
}
