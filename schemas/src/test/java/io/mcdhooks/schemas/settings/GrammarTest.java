package io.mcdhooks.schemas.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GrammarTest {

    @Test
    void aBooleanIsTrueOrFalse() {
        assertThat(Grammar.BOOLEAN.parse("true")).isTrue();
        assertThat(Grammar.BOOLEAN.parse("false")).isFalse();
        assertThat(Grammar.BOOLEAN.accepted()).isEqualTo("true or false");
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "no", "TRUE", "False", "1", "0", "on", "off", "t"})
    void aBooleanIsNothingElse(String text) {
        assertThatThrownBy(() -> Grammar.BOOLEAN.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aDurationIsAWholeNumberAndOneUnitFromMillisecondsToDays() {
        assertThat(Grammar.parseDuration("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(Grammar.parseDuration("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Grammar.parseDuration("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(Grammar.parseDuration("48h")).isEqualTo(Duration.ofHours(48));
        assertThat(Grammar.parseDuration("2d")).isEqualTo(Duration.ofDays(2));
        assertThat(Grammar.parseDuration("0s")).isZero();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"30", "PT30M", "P2D", "5 m", "1.5h", "-1s", "30S", "5M", "1h30m", "m", "10000000000s", "1w"})
    void aDurationIsNothingElse(String text) {
        assertThatThrownBy(() -> Grammar.parseDuration(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aDurationGrammarRefusesDurationsBelowItsLeastAndSaysSo() {
        Grammar<Duration> positive = Grammar.duration(Duration.ofMillis(1));

        assertThat(positive.parse("1ms")).isEqualTo(Duration.ofMillis(1));
        assertThatThrownBy(() -> positive.parse("0s")).hasMessageContaining("shorter than 1ms");
        assertThat(positive.accepted()).isEqualTo(Grammar.DURATION_FORMS + ", at least 1ms");
        assertThat(Grammar.duration(Duration.ZERO).accepted()).isEqualTo(Grammar.DURATION_FORMS);
    }

    @Test
    void aBoundedDurationGrammarRefusesDurationsOutsideItsRangeAndSaysWhatItTakes() {
        Grammar<Duration> bounded = Grammar.duration(Duration.ofSeconds(1), Duration.ofMinutes(9));

        assertThat(bounded.parse("9m")).isEqualTo(Duration.ofMinutes(9));
        assertThat(bounded.parse("1s")).isEqualTo(Duration.ofSeconds(1));
        assertThatThrownBy(() -> bounded.parse("10m")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> bounded.parse("500ms")).isInstanceOf(IllegalArgumentException.class);
        assertThat(bounded.accepted()).isEqualTo(Grammar.DURATION_FORMS + ", from 1s to 9m");
    }

    @Property
    void everyDurationItWritesItReadsBack(
            @ForAll @LongRange(min = 0, max = 999_999_999L) long amount, @ForAll Unit unit) {
        Duration duration = unit.of(amount);

        assertThat(Grammar.parseDuration(Grammar.format(duration))).isEqualTo(duration);
    }

    enum Unit {
        MS,
        S,
        M,
        H,
        D;

        Duration of(long amount) {
            return Grammar.parseDuration(amount + name().toLowerCase(Locale.ROOT));
        }
    }

    @Test
    void writesADurationInTheLargestExactUnit() {
        assertThat(Grammar.format(Duration.ofHours(48))).isEqualTo("2d");
        assertThat(Grammar.format(Duration.ofMinutes(90))).isEqualTo("90m");
        assertThat(Grammar.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Grammar.format(Duration.ZERO)).isEqualTo("0ms");
    }

    @Test
    void aWholeNumberIsWithinItsRange() {
        Grammar<Integer> port = Grammar.integer(0, 65535);

        assertThat(port.parse("0")).isZero();
        assertThat(port.parse("65535")).isEqualTo(65535);
        assertThat(port.accepted()).isEqualTo("a whole number from 0 to 65535");
        assertThatThrownBy(() -> port.parse("65536")).hasMessage("out of range");
        assertThatThrownBy(() -> port.parse("-1")).hasMessage("out of range");
        for (String text : List.of("8080.0", "+80", "0x50", "eighty", "99999999999", "8 080")) {
            assertThatThrownBy(() -> port.parse(text)).as(text).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aChoiceIsOneOfItsWordsExactly() {
        Grammar<String> kind = Grammar.oneOf("exec", "http");
        Grammar<Integer> mapped = Grammar.oneOf(Map.of("one", 1));

        assertThat(kind.parse("exec")).isEqualTo("exec");
        assertThat(mapped.parse("one")).isEqualTo(1);
        assertThat(kind.accepted()).isEqualTo("one of exec, http");
        assertThatThrownBy(() -> kind.parse("Exec")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aListIsCommaSeparatedItemsEachOfTheItemGrammarNoneEmpty() {
        Grammar<List<Integer>> list = Grammar.listOf(Grammar.integer(1, 9));

        assertThat(list.parse("1, 2 ,3")).containsExactly(1, 2, 3);
        assertThat(list.accepted()).isEqualTo("a comma-separated list, each item a whole number from 1 to 9");
        assertThatThrownBy(() -> list.parse("1,,2")).hasMessage("an empty item");
        assertThatThrownBy(() -> list.parse("1,")).hasMessage("an empty item");
        assertThatThrownBy(() -> list.parse("1,12")).hasMessage("item '12'").hasRootCauseMessage("out of range");
    }

    @Test
    void aSetHoldsNoItemTwice() {
        Grammar<Set<String>> set = Grammar.setOf(Grammar.oneOf("a", "b"));

        assertThat(set.parse("a,b")).containsExactlyInAnyOrder("a", "b");
        assertThatThrownBy(() -> set.parse("a,a")).hasMessage("an item given twice");
    }

    @Test
    void textMatchesItsPatternEntirely() {
        Grammar<String> name = Grammar.matching(Pattern.compile("[a-z]+"), "lowercase letters");

        assertThat(name.parse("abc")).isEqualTo("abc");
        assertThatThrownBy(() -> name.parse("abc1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFileMustBeThereAndReadable(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("ca.pem"), "x");

        assertThat(Grammar.readableFile().parse(file.toString())).isEqualTo(file);
        assertThatThrownBy(
                        () -> Grammar.readableFile().parse(dir.resolve("absent").toString()))
                .hasMessage("no readable file there");
        assertThatThrownBy(() -> Grammar.readableFile().parse(dir.toString())).hasMessage("no readable file there");
    }

    @Test
    void aUrlIsAbsoluteHttpOrHttpsWithAHost() {
        assertThat(Grammar.httpUrl().parse("https://catalog.example/kmods.json"))
                .isEqualTo(URI.create("https://catalog.example/kmods.json"));
        for (String text : List.of("ftp://x/y", "/local/path", "http://", "https//x", "http://a b")) {
            assertThatThrownBy(() -> Grammar.httpUrl().parse(text))
                    .as(text)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
