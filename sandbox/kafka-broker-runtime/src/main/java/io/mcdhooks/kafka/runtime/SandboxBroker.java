package io.mcdhooks.kafka.runtime;

import java.io.IOException;
import java.io.InputStream;
import kafka.Kafka;
import kafka.tools.StorageTool;

/**
 * Entry point of the forked sandbox broker: formats the KRaft log directory, then runs Kafka.
 *
 * <p>The parent JVM keeps this process's standard input open. When the parent goes away for any
 * reason, SIGKILL included, the pipe closes and the broker exits: a test run or a local run never
 * leaves a broker behind.
 *
 * <p>Arguments: {@code <server.properties> <cluster-id>}.
 */
public final class SandboxBroker {

    private SandboxBroker() {}

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: SandboxBroker <server.properties> <cluster-id>");
            System.exit(2);
        }
        exitWhenParentGoes(System.in);
        int formatted = StorageTool.execute(
                new String[] {"format", "--ignore-formatted", "-t", args[1], "-c", args[0]}, System.out);
        if (formatted != 0) {
            System.err.println("formatting the KRaft log directory failed: " + formatted);
            System.exit(formatted);
        }
        Kafka.main(new String[] {args[0]});
    }

    private static void exitWhenParentGoes(InputStream parentPipe) {
        Thread watcher = new Thread(
                () -> {
                    try {
                        while (parentPipe.read() != -1) {
                            // the parent never writes; anything read is ignored
                        }
                    } catch (IOException e) {
                        // a broken pipe means the same as end of stream
                    }
                    // System.exit runs Kafka's shutdown hook, so the broker stops cleanly.
                    System.exit(0);
                },
                "parent-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }
}
