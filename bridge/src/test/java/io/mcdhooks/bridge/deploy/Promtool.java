package io.mcdhooks.bridge.deploy;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Prometheus's own {@code promtool} (Debian package {@code prometheus}), run on files a test writes. */
final class Promtool {

    static final Path BINARY = Path.of("/usr/bin/promtool");
    static final Path RULES = Manifests.DEPLOY.resolve("monitoring").resolve("prometheus-rules.yaml");

    /** What promtool said and how it ended. */
    record Result(int exit, String output) {}

    private Promtool() {}

    /** Skips the calling test, saying why, where promtool is not installed. */
    static void assumeInstalled() {
        assumeTrue(
                Files.isExecutable(BINARY),
                "skipped: " + BINARY
                        + " is not installed (Debian: apt-get install --no-install-recommends prometheus)");
    }

    static Result run(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(BINARY.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("promtool did not finish within 60 s");
        }
        return new Result(p.exitValue(), output);
    }

    /** The shipped PrometheusRule's spec as a Prometheus rules file: what the operator hands Prometheus. */
    static JsonNode shippedRuleGroups() {
        List<Manifests.Document> documents = Manifests.documents(RULES);
        ObjectNode file = JsonNodeFactory.instance.objectNode();
        file.set("groups", documents.get(0).tree().path("spec").path("groups"));
        return file;
    }

    /** Writes {@code tree} as YAML to {@code dir/name}. */
    static Path write(Path dir, String name, JsonNode tree) throws IOException {
        Path file = dir.resolve(name);
        Manifests.YAML.writeValue(file.toFile(), tree);
        return file;
    }
}
