package io.mcdhooks.bridge.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** How commands that judge lag sample it: how many samples, how far apart. */
final class Sampling {

    @Option(
            names = "--samples",
            defaultValue = "3",
            description = "Lag samples to judge by (default: ${DEFAULT-VALUE}).")
    int samples;

    @Option(
            names = "--every",
            defaultValue = "2s",
            converter = Cli.DurationConverter.class,
            description = "Time between lag samples (default: ${DEFAULT-VALUE}).")
    Duration every;
}
