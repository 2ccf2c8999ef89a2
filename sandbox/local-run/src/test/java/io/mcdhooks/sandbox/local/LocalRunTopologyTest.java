package io.mcdhooks.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --topology}: a single-node cluster rolls out its master pool; anything else is refused by name. */
class LocalRunTopologyTest {

    @Test
    void singleNodeIsOneMasterAndNoWorkerRolledOutInPoolMaster() {
        LocalRunConfig config =
                parse("--topology", "single-node", "--workers", "4").config();

        assertThat(config.singleNode()).isTrue();
        assertThat(config.masters()).isEqualTo(1);
        assertThat(config.workers()).isZero();
        assertThat(config.pool()).isEqualTo("master");
    }

    @Test
    void theDefaultIsHighlyAvailableWithTheWorkerPool() {
        LocalRunConfig config = parse().config();

        assertThat(config.singleNode()).isFalse();
        assertThat(config.pool()).isEqualTo("worker");
    }

    @Test
    void anUnknownTopologyIsRefusedByName() {
        assertThatThrownBy(() -> parse("--topology", "compact").config())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--topology 'compact'");
    }

    private static LocalRun parse(String... args) {
        LocalRun run = new LocalRun();
        new CommandLine(run).parseArgs(args);
        return run;
    }
}
