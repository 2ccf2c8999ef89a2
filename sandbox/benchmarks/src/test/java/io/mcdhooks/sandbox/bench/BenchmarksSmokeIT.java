package io.mcdhooks.sandbox.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The whole harness at toy sizes: every row of the table comes out with figures that can be
 * numbers at all. Nothing about their size is asserted; that is what the full run is for.
 */
class BenchmarksSmokeIT {

    private static final List<String> ROWS = List.of(
            "1", "2", "2a", "3", "4", "4a", "4b", "4c", "4d", "4e", "5", "5a", "5b", "6", "6a", "6b", "6c", "6d", "6e",
            "6f", "6g", "6h", "6i", "6j", "6k", "6l", "6m");

    @Test
    void producesEveryRowOfTheTableWithSaneFigures() throws Exception {
        Path out = Path.of("target", "smoke-benchmarks.md");

        // 300 gates: fewer and the heap per gate drowns in the noise of a garbage-collected heap.
        Report report = BenchMain.run(
                "--nodes=300",
                "--hooks=2",
                "--samples=10",
                "--floor-samples=50",
                "--concurrency=2",
                "--shots=1",
                "--rollout-nodes=3",
                "--rollout-scale=300",
                "--out=" + out);

        assertThat(report.rows()).extracting(Row::number).containsExactlyElementsOf(ROWS);
        for (Row row : report.rows()) {
            assertThat(row.numbers())
                    .as("figures of row %s", row.number())
                    .isNotEmpty()
                    .allSatisfy(n -> assertThat(n).isFinite());
            if (row.number().equals("6b") || row.number().equals("6l")) {
                // Added time is a difference of two rollouts: at toy sizes it may come out below zero.
                assertThat(row.value()).isGreaterThan(-100.0);
            } else if (List.of("6g", "6h", "6i", "6j", "6m").contains(row.number())) {
                // Two steps seen in the same watch event took 0 ms.
                assertThat(row.numbers()).allSatisfy(n -> assertThat(n).isNotNegative());
            } else {
                assertThat(row.numbers())
                        .as("figures of row %s", row.number())
                        .allSatisfy(n -> assertThat(n).isPositive());
            }
        }
        assertThat(Files.readString(out))
                .contains("| 1 | floor: Kafka round trip")
                .contains("| 6b | added rollout time")
                .contains("cores");
    }
}
