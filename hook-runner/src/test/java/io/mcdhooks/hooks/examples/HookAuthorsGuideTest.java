package io.mcdhooks.hooks.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.http.HttpHook;
import io.mcdhooks.hooks.http.StructuredCloudEvent;
import io.mcdhooks.hooks.testing.Requests;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.codec.MessageCodec;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The guide's examples are the files the tests run: every block after an {@code <!-- example: path -->}
 * marker must equal that file, and every example file must be in the guide. The other blocks are
 * checked against the code that sends, reads or declares what they show. The runner command is run
 * as written by {@code DocumentedExamplesIT} (module sandbox/local-run).
 */
class HookAuthorsGuideTest {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path GUIDE = REPO.resolve("docs/hook-authors-guide.md");
    private static final Pattern EXAMPLE =
            Pattern.compile("<!-- example: (\\S+) -->\\R```[a-z]*\\R(.*?)```", Pattern.DOTALL);
    private static final Pattern BLOCK = Pattern.compile("```([a-z]*)\\R(.*?)```", Pattern.DOTALL);

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
            assertThat(examples.filter(Files::isRegularFile)
                            .map(p -> REPO.relativize(p).toString()))
                    .allSatisfy(path -> assertThat(included).contains(path));
        }
    }

    @Test
    void theStructuredRequestExampleHasExactlyTheAttributesTheHttpHookSends() throws IOException {
        String example = block("json", "{\"specversion\"");
        Set<String> documented = new TreeSet<>(Pattern.compile("\"([a-z]+)\":")
                .matcher(example)
                .results()
                .map(m -> m.group(1))
                .toList());

        byte[] sent = StructuredCloudEvent.of(
                Requests.preUpdate("node-1", Duration.ofMinutes(5)),
                new MessageCodec(),
                URI.create("/hooks/kmod-check"),
                OffsetDateTime.now());
        Set<String> attributes = new TreeSet<>();
        for (Iterator<String> names =
                        MessageCodec.newObjectMapper().readTree(sent).fieldNames();
                names.hasNext(); ) {
            attributes.add(names.next());
        }
        assertThat(documented).isEqualTo(attributes);
    }

    @Test
    void theVerdictReplyExampleReadsAsTheGuideSays() throws IOException {
        CheckResult result = HttpHook.resultOf(block("json", "{\"outcome\"").getBytes(StandardCharsets.UTF_8));

        assertThat(result.outcome()).isEqualTo(Outcome.FAIL);
        assertThat(result.reason()).isEqualTo("ModulesNotBuilt");
        assertThat(result.retryAfter()).isEqualTo(Duration.ofSeconds(300));
    }

    @Test
    void theHookInterfaceShownIsTheOneInTheSdk() throws IOException {
        String source =
                normalize(Files.readString(REPO.resolve("hook-runner/src/main/java/io/mcdhooks/hooks/api/Hook.java")));
        for (String line : block("java", "public interface Hook {").lines().toList()) {
            String code = normalize(line.replaceAll("//.*$", ""));
            if (!code.isEmpty()) {
                assertThat(source).as("Hook.java").contains(code);
            }
        }
    }

    /** The one block of that language that starts with {@code start}. */
    private static String block(String language, String start) throws IOException {
        List<String> found = BLOCK.matcher(Files.readString(GUIDE))
                .results()
                .filter(m -> m.group(1).equals(language) && m.group(2).startsWith(start))
                .map(m -> m.group(2))
                .toList();
        assertThat(found)
                .as("%s blocks starting with %s in the guide", language, start)
                .hasSize(1);
        return found.get(0);
    }

    private static String normalize(String code) {
        return code.replaceAll("\\s+", " ").trim();
    }
}
