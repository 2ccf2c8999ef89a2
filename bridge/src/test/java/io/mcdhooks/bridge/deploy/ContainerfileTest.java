package io.mcdhooks.bridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Containerfiles, checked without a container engine: a Maven build stage, then a JRE 17
 * runtime image (UBI or Temurin) that runs the module's Main as a non-root user.
 */
class ContainerfileTest {

    /** image name in the manifests → module. */
    static final Map<String, String> MODULES =
            Map.of("mcdhooks-bridge", "bridge", "mcdhooks-hook-runner", "hook-runner");

    static Path containerfile(String image) {
        return Manifests.DEPLOY
                .resolve("images")
                .resolve(MODULES.getOrDefault(image, image))
                .resolve("Containerfile");
    }

    @ParameterizedTest
    @CsvSource({
        "bridge, io.mcdhooks.bridge.Main, bridge/src/main/java/io/mcdhooks/bridge/Main.java",
        "hook-runner, io.mcdhooks.hooks.runner.Main, hook-runner/src/main/java/io/mcdhooks/hooks/runner/Main.java"
    })
    void buildsWithMavenAndRunsMainOnAJre17AsNonRoot(String module, String mainClass, String mainSource) {
        String text = Manifests.read(containerfile(module));
        List<String> instructions = instructions(text);
        Map<String, String> args = new HashMap<>();
        List<String[]> stages = new ArrayList<>();
        for (String instruction : instructions) {
            String[] parts = instruction.split("\\s+", 2);
            switch (parts[0].toUpperCase()) {
                case "ARG" -> {
                    String[] kv = parts[1].split("=", 2);
                    args.put(kv[0], kv.length > 1 ? kv[1] : "");
                }
                case "FROM" -> {
                    Matcher m = Pattern.compile("(\\S+)(?:\\s+AS\\s+(\\S+))?", Pattern.CASE_INSENSITIVE)
                            .matcher(parts[1]);
                    assertThat(m.matches()).isTrue();
                    String image = m.group(1).startsWith("${")
                            ? args.get(m.group(1).substring(2, m.group(1).length() - 1))
                            : m.group(1);
                    stages.add(new String[] {image, m.group(2)});
                }
                default -> {}
            }
        }
        assertThat(stages).as("multi-stage").hasSize(2);
        assertThat(stages)
                .extracting(stage -> stage[0])
                .as("every base pinned to an exact release (x.y or x.y.z) or a digest, never latest")
                .allSatisfy(image -> assertThat(image).matches(".*(:[^:/]*\\d+\\.\\d+[^:/]*|@sha256:[0-9a-f]{64})$"))
                .allSatisfy(image -> assertThat(image).doesNotContain(":latest"));
        String build = stages.get(0)[0];
        String runtime = stages.get(1)[0];
        assertThat(build).as("a Maven build stage on Java 17").contains("maven").contains("17");
        assertThat(runtime)
                .as("a JRE 17 runtime, UBI or Temurin")
                .matches(".*(ubi\\d*/openjdk-17-runtime|eclipse-temurin:17[^ ]*jre).*");

        String run = instructions.stream()
                .filter(i -> i.toUpperCase().startsWith("RUN "))
                .findFirst()
                .orElseThrow();
        assertThat(run).contains("mvn ").contains("-pl " + module).contains("-am");
        assertThat(instructions)
                .filteredOn(i -> i.toUpperCase().startsWith("COPY --FROM="))
                .allSatisfy(i -> assertThat(i).contains("--from=" + stages.get(0)[1]));

        String user = instructions.stream()
                .filter(i -> i.toUpperCase().startsWith("USER "))
                .reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError(module + ": no USER"));
        String uid = user.substring(5).trim().split(":")[0];
        assertThat(uid)
                .as("non-root, numeric so runAsNonRoot can check it")
                .matches("\\d+")
                .isNotEqualTo("0");

        String entrypoint = instructions.get(instructions.size() - 1);
        assertThat(entrypoint).startsWith("ENTRYPOINT [\"java\"").endsWith("\"" + mainClass + "\"]");
        assertThat(Path.of("..").resolve(mainSource)).exists();
    }

    /** Instructions with continuation lines joined and comments dropped. */
    static List<String> instructions(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.lines().toList()) {
            String trimmed = line.trim();
            if (trimmed.startsWith("#") || trimmed.isEmpty()) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                current.append(trimmed, 0, trimmed.length() - 1).append(' ');
            } else {
                current.append(trimmed);
                out.add(current.toString());
                current.setLength(0);
            }
        }
        return out;
    }
}
