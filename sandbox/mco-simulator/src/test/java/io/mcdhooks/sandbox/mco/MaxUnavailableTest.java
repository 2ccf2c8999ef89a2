package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MaxUnavailableTest {

    @ParameterizedTest(name = "{0} of {1} nodes allows {2}")
    @CsvSource({
        "1, 10, 1",
        "3, 10, 3",
        "0, 10, 1",
        "10%, 10, 1",
        "10%, 5000, 500",
        "15%, 10, 1",
        "25%, 10, 2",
        "5%, 10, 1",
        "0%, 10, 1",
        "100%, 7, 7",
        "33%, 100, 33",
        "'2', 10, 2"
    })
    void resolvesIntOrPercentRoundingDownButNeverBelowOne(String raw, int nodes, int expected) {
        assertThat(MaxUnavailable.parse(raw).resolve(nodes)).isEqualTo(expected);
    }

    @Test
    void defaultsToOneWhenAbsent() {
        assertThat(MaxUnavailable.parse(null).resolve(100)).isEqualTo(1);
    }

    @Test
    void acceptsIntegersAsStoredByTheApiServer() {
        assertThat(MaxUnavailable.parse(4)).isEqualTo(MaxUnavailable.of(4));
        assertThat(MaxUnavailable.percent(10).toFieldValue()).isEqualTo("10%");
        assertThat(MaxUnavailable.of(2).toFieldValue()).isEqualTo(2);
    }

    @Test
    void rejectsGarbage() {
        assertThatThrownBy(() -> MaxUnavailable.parse("ten")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MaxUnavailable.parse("120%")).isInstanceOf(IllegalArgumentException.class);
    }
}
