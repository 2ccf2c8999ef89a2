package io.mcdhooks.sandbox.faults;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Entry point of every child JVM the suite starts: runs another class's {@code main} and halts
 * as soon as the parent goes away. The parent keeps this process's standard input open; when it
 * dies for any reason the pipe closes, so a failed or killed test run never leaves a bridge or a
 * hook runner behind (the same trick as the sandbox broker).
 *
 * <p>Arguments: {@code <main class> [its arguments...]}.
 */
public final class ChildMain {

    private ChildMain() {}

    public static void main(String[] args) throws Exception {
        exitWhenParentGoes(System.in);
        Class.forName(args[0]).getMethod("main", String[].class).invoke(null, (Object)
                Arrays.copyOfRange(args, 1, args.length));
    }

    private static void exitWhenParentGoes(InputStream parentPipe) {
        Thread watcher = new Thread(
                () -> {
                    try {
                        while (parentPipe.read() != -1) {
                            // the parent never writes
                        }
                    } catch (IOException e) {
                        // a broken pipe means the same as end of stream
                    }
                    // halt, not exit: like SIGKILL, nothing gets a chance to tidy up (or to hang doing so)
                    Runtime.getRuntime().halt(137);
                },
                "parent-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }
}
