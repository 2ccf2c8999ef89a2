package io.mcdhooks.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bridge's status page rendered by a real browser (Debian's headless Chromium) while the
 * post-check-fails scenario holds a node: pools, nodes, the held gate and its blocking hook.
 */
class StatusPageChromiumIT {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @Test
    void theStatusPageShowsPoolsNodesAndTheHeldGateWithItsBlockingHook(@TempDir Path profile) throws Exception {
        assumeTrue(
                Files.isExecutable(CHROMIUM),
                "skipped: /usr/bin/chromium is not installed (Debian: apt-get install -y chromium)");
        try (HeldRun run = HeldRun.start()) {
            // Given a node held by its post-update gate
            LocalSystem system = run.system();
            RunSummary summary = run.summary();
            assertThat(summary.ending()).isEqualTo(RunSummary.Ending.HELD);
            String held = summary.heldNodes().get(0);

            // When Chromium loads the page and runs its script
            Process chromium = new ProcessBuilder(
                            CHROMIUM.toString(),
                            "--headless",
                            "--no-sandbox",
                            "--disable-gpu",
                            "--disable-quic",
                            "--no-first-run",
                            "--disable-background-networking",
                            "--disable-component-update",
                            "--disable-sync",
                            "--disable-dev-shm-usage",
                            "--user-data-dir=" + profile,
                            "--virtual-time-budget=5000",
                            "--dump-dom",
                            system.statusUri().toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            byte[] dom = chromium.getInputStream().readAllBytes();
            assertThat(chromium.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String html = new String(dom, StandardCharsets.UTF_8);

            // Then the rendered tables show the pools, every node, and the held gate with its blocking hook
            assertThat(html).contains("<td>worker</td>").contains("<td>master</td>");
            assertThat(html).contains("worker-0").contains("worker-1").contains("worker-2");
            assertThat(html).containsPattern("<td>" + held + "</td>.*Held by post-update gate");
            assertThat(html).contains("BLOCKED").contains("node-selfcheck").contains("NodeUnhealthy");
            assertThat(html).contains("kmod-check").contains("ModulesReady");
            assertThat(html).contains("<div id=\"error\"></div>");
        }
    }
}
