package io.mcdhooks.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mcdhooks.sandbox.registry.ForkedRegistry;
import io.mcdhooks.schemas.settings.Grammar;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The maintenance scenario on 1 master and 2 workers: a freeze, a pause after each node and a
 * soak before each node's pass, as the plain view shows them. A class of its own so that it runs
 * beside the other local-run tests.
 */
class MaintenanceRunIT {

    @BeforeAll
    static void needsTheRegistry() {
        assumeTrue(ForkedRegistry.installed(), ForkedRegistry.MISSING);
    }

    @Test
    void maintenanceWaitsOutTheFreezePausesAfterEachNodeAndSoaksEachBeforeItsPass() {
        LocalRunIT.run(Scenario.MAINTENANCE, 1, 2, r -> {
            RunSummary summary = r.summary();
            String output = r.output();
            assertThat(summary.ending()).isEqualTo(RunSummary.Ending.COMPLETED);
            assertThat(summary.updated()).isEqualTo(2);
            assertThat(output)
                    .contains("pool worker: frozen, waiting for ")
                    .contains(Grammar.format(LocalSystem.PAUSE) + " pause after each batch, pausing until ")
                    .contains("node-selfcheck PENDING Soaking");
            // No node moved before the freeze ended, nor within the pause after the first
            double rolledOut = at(output, "rolled out MachineConfig");
            List<Double> moved = all(output, "node worker-\\d: (Preparing|Draining)");
            double firstDone = at(output, "node worker-\\d: Done");
            double secondMoved =
                    moved.stream().filter(t -> t > firstDone).findFirst().orElseThrow();
            // The freeze ends on a whole second after the rollout: up to 1 s less than FREEZE
            assertThat(moved.get(0) - rolledOut).isGreaterThanOrEqualTo(LocalSystem.FREEZE.toSeconds() - 1.0);
            // Both are seen at the view's polls, each up to a poll (longer on a loaded machine)
            // late; without the pause the next node would move within a poll of the first's Done
            assertThat(secondMoved - firstDone).isGreaterThanOrEqualTo(LocalSystem.PAUSE.toSeconds() - 1.5);
        });
    }

    /** When the plain view printed the first line matching {@code regex}, in seconds from the start. */
    private static double at(String output, String regex) {
        return all(output, regex).get(0);
    }

    private static List<Double> all(String output, String regex) {
        return Pattern.compile("^\\+\\s*(\\d+\\.\\d)s .*" + regex, Pattern.MULTILINE)
                .matcher(output)
                .results()
                .map(m -> Double.parseDouble(m.group(1)))
                .toList();
    }
}
