package io.mcdhooks.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mcdhooks.bridge.ui.Chromium;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bridge's status page rendered by a real browser (Debian's headless Chromium) while the
 * post-check-fails scenario holds a node: pools, nodes, the held gate and its blocking hook, and
 * the timeline of the rollout with the held node's bar and hook. The screenshot lands in
 * {@code target/timeline.png} (the one in {@code docs/images/} is such a screenshot).
 */
class StatusPageChromiumIT {

    private static HeldRun run;
    private static String held;

    @BeforeAll
    static void holdANode() {
        assumeTrue(Chromium.available(), Chromium.MISSING);
        run = HeldRun.start();
        assertThat(run.summary().ending()).isEqualTo(RunSummary.Ending.HELD);
        held = run.summary().heldNodes().get(0);
    }

    @AfterAll
    static void close() {
        if (run != null) {
            run.close();
        }
    }

    @Test
    void theStatusPageShowsPoolsNodesAndTheHeldGateWithItsBlockingHook(@TempDir Path profile) throws Exception {
        // Given a node held by its post-update gate; When Chromium loads the page and runs its script
        String html = Chromium.dumpDom(run.system().statusUri(), profile);

        // Then the rendered tables show the pools, every node, and the held gate with its blocking hook
        assertThat(html).contains("<td>worker</td>").contains("<td>master</td>");
        assertThat(html).contains("worker-0").contains("worker-1").contains("worker-2");
        assertThat(html).containsPattern("<td>" + held + "</td>.*Held by post-update gate");
        assertThat(html).contains("BLOCKED").contains("node-selfcheck").contains("NodeUnhealthy");
        assertThat(html).contains("kmod-check").contains("ModulesReady");
        assertThat(html).contains("<div id=\"error\"></div>");
    }

    @Test
    void theTimelineShowsTheHeldNodesBarItsVerdictsAndItsBlockingHook(@TempDir Path profile) throws Exception {
        // Given the same held run; When Chromium renders the page, and takes a picture of it
        String html = Chromium.dumpDom(run.system().statusUri(), profile);
        Path png = Chromium.screenshot(run.system().statusUri(), profile, Path.of("target", "timeline.png"), 1400, 480);

        // Then every node has a row under its pool, the pool's own gate's verdict on the pool's row,
        // the held node with its hold as a bar, its failed verdict as a mark and the hook that holds it
        assertThat(html).containsPattern("<g class=\"tl-pool\" data-pool=\"master\">");
        assertThat(html)
                .containsPattern("<g class=\"tl-pool\" data-pool=\"worker\">((?!</g>).)*"
                        + "class=\"tl-mark outcome-PASS\" data-hook=\"kmod-check\"");
        String row = "<g class=\"tl-row held\" data-node=\"" + held + "\" data-phase=\"HELD_POST_UPDATE\">((?!</g>).)*";
        assertThat(html)
                .containsPattern(row + "class=\"tl-span phase-POST_UPDATE_CHECK\"")
                .containsPattern(row + "class=\"tl-span phase-HELD_POST_UPDATE\"")
                .containsPattern(row + "class=\"tl-mark outcome-FAIL\" data-hook=\"node-selfcheck\"")
                .containsPattern(row + ">held by node-selfcheck FAIL NodeUnhealthy<");
        assertThat(html).containsPattern("data-node=\"worker-\\d\" data-phase=\"WAITING\"");
        assertThat(Files.size(png)).isGreaterThan(10_000);
    }
}
