package io.mcdhooks.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.schemas.kafka.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Nothing in the README or docs/ names a variable, topic, key or command-line flag that the code
 * lacks: every such name written there must appear in the code's own sources.
 */
class DocumentedNamesTest {

    private static final Path REPO = DocBlocks.REPO;
    private static final List<String> SOURCES = List.of(
            "schemas/src/main",
            "bridge/src/main",
            "hook-runner/src/main",
            "sandbox/local-run/src/main",
            "bridge/mcdhooks",
            "run-local");

    private static String docs;
    private static String code;

    @BeforeAll
    static void read() {
        docs = DocBlocks.documents().stream().map(DocumentedNamesTest::text).collect(Collectors.joining("\n"));
        StringBuilder all = new StringBuilder();
        for (String source : SOURCES) {
            try (Stream<Path> files = Files.walk(REPO.resolve(source))) {
                files.filter(Files::isRegularFile)
                        .forEach(f -> all.append(text(f)).append('\n'));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        code = all.toString();
    }

    @Test
    void everyDocumentedVariableIsReadByTheCode() {
        Set<String> documented = find("\\b(MCDHOOKS_[A-Z0-9_]*[A-Z0-9])\\b");
        assertThat(documented).isNotEmpty();
        // The runner's settings are read by their name after the prefix (HookRunnerConfig: "CONCURRENCY").
        assertThat(documented)
                .filteredOn(name -> !code.contains("\"" + name + "\"")
                        && !code.contains("\"" + name.substring("MCDHOOKS_".length()) + "\""))
                .as("variables the code never reads")
                .isEmpty();
    }

    @Test
    void everyDocumentedTopicIsOneOfTheCodesTopics() {
        Set<String> topics = Set.of(
                Topics.LIFECYCLE,
                Topics.GATE_REQUESTS,
                Topics.VERDICTS,
                Topics.GATE_DECISIONS,
                Topics.DEAD_LETTER,
                Topics.CONFIG_SNAPSHOTS);
        Set<String> documented = find("\\b(mcdhooks\\.[a-z-]+\\.v\\d+)\\b");
        assertThat(documented).containsAll(topics);
        assertThat(topics).containsAll(documented);
    }

    @Test
    void everyDocumentedKeyOfOursIsUsedByTheCode() {
        Set<String> documented = find("\\b(mcdhooks\\.io/[a-z][a-z-]*[a-z])\\b");
        assertThat(documented).isNotEmpty();
        // Labels on the example hooks' pods are the manifests' own.
        String manifests = text(REPO.resolve("deploy/base/hooks/kmod-check.yaml"))
                + text(REPO.resolve("deploy/base/hooks/node-selfcheck.yaml"));
        assertThat(documented)
                .filteredOn(key -> !code.contains(key) && !manifests.contains(key))
                .as("keys neither the code nor the manifests use")
                .isEmpty();
    }

    @Test
    void everyFlagOfOurCommandsIsAnOptionOfThem() {
        Matcher commands =
                Pattern.compile("(?:\\./run-local|bridge/mcdhooks)\\b[^`\\n]*").matcher(docs);
        Set<String> flags = new TreeSet<>();
        while (commands.find()) {
            Matcher flag = Pattern.compile("(?<=\\s)--[a-z][a-z-]*").matcher(commands.group());
            while (flag.find()) {
                flags.add(flag.group());
            }
        }
        assertThat(flags).contains("--scenario", "--bootstrap-servers", "--gate");
        // picocli's standard help option
        flags.remove("--help");
        assertThat(flags)
                .filteredOn(flag -> !code.contains("\"" + flag + "\""))
                .as("flags no command declares")
                .isEmpty();
    }

    private static Set<String> find(String regex) {
        Set<String> found = new TreeSet<>();
        Matcher m = Pattern.compile(regex).matcher(docs);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    private static String text(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
