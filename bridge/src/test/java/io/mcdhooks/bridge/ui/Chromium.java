package io.mcdhooks.bridge.ui;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's headless Chromium, as the status page's tests run it: the DOM after the page's scripts
 * ran (over a virtual-time budget, so polling pages settle without waiting in real time), or a
 * screenshot of it.
 */
public final class Chromium {

    public static final Path BINARY = Path.of("/usr/bin/chromium");
    public static final String MISSING =
            "skipped: /usr/bin/chromium is not installed (Debian: apt-get install -y chromium)";

    private Chromium() {}

    public static boolean available() {
        return Files.isExecutable(BINARY);
    }

    /** The page's DOM once its scripts ran. */
    public static String dumpDom(URI page, Path profile) throws IOException, InterruptedException {
        List<String> command = command(profile);
        command.add("--dump-dom");
        command.add(page.toString());
        Process chromium = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        byte[] dom = chromium.getInputStream().readAllBytes();
        if (!chromium.waitFor(60, TimeUnit.SECONDS)) {
            chromium.destroyForcibly();
            throw new IllegalStateException("chromium did not finish within 60 s");
        }
        return new String(dom, StandardCharsets.UTF_8);
    }

    /** A PNG of the page's first {@code width} × {@code height} pixels, written to {@code png}. */
    public static Path screenshot(URI page, Path profile, Path png, int width, int height)
            throws IOException, InterruptedException {
        Files.createDirectories(png.toAbsolutePath().getParent());
        Files.deleteIfExists(png);
        List<String> command = command(profile);
        command.add("--hide-scrollbars");
        command.add("--window-size=" + width + "," + height);
        command.add("--screenshot=" + png.toAbsolutePath());
        command.add(page.toString());
        Process chromium = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!chromium.waitFor(60, TimeUnit.SECONDS)) {
            chromium.destroyForcibly();
            throw new IllegalStateException("chromium did not finish within 60 s");
        }
        return png;
    }

    private static List<String> command(Path profile) {
        return new ArrayList<>(List.of(
                BINARY.toString(),
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
                "--virtual-time-budget=5000"));
    }
}
