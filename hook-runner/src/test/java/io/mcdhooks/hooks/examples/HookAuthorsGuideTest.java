package io.mcdhooks.hooks.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The guide's examples are the files the tests run: every block after an {@code <!-- example: path -->}
 * marker must equal that file, and every example file must be in the guide.
 */
class HookAuthorsGuideTest {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path GUIDE = REPO.resolve("docs/hook-authors-guide.md");
    private static final Pattern EXAMPLE = Pattern.compile(
            "<!-- example: (\\S+) -->\\R```[a-z]*\\R(.*?)```", Pattern.DOTALL);

    @Test
    void everyExampleInTheGuideIsVerbatimTheFileTheTestsRun() throws IOException {
        List<String> included = new ArrayList<>();
        Matcher m = EXAMPLE.matcher(Files.readString(GUIDE));
        while (m.find()) {
            Path file = REPO.resolve(m.group(1));
            assertThat(file).as("example file of the guide").isRegularFile();
            assertThat(m.group(2)).as("the guide's copy of %s", m.group(1)).isEqualTo(Files.readString(file));
            included.add(m.group(1));
        }

        assertThat(included).contains("hook-runner/src/main/java/io/mcdhooks/hooks/examples/ChangeFreezeHook.java");
        try (Stream<Path> examples = Files.walk(REPO.resolve("hook-runner/examples"))) {
            assertThat(examples.filter(Files::isRegularFile).map(p -> REPO.relativize(p).toString()))
                    .allSatisfy(path -> assertThat(included).contains(path));
        }
    }
}
