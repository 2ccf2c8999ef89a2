package io.mcdhooks.schemas.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsTest {

    private static final Setting<Boolean> ENFORCE =
            Setting.of("MCDHOOKS_ENFORCE", Grammar.BOOLEAN).orElse("true");
    private static final Setting<Duration> TIMEOUT = Setting.of(
                    "MCDHOOKS_TIMEOUT", Grammar.duration(Duration.ofMillis(1)))
            .orElse("30m");
    private static final Setting<String> NAME = Setting.of("MCDHOOKS_NAME", Grammar.text("a name"));
    private static final Setting<String> TOPIC = Setting.of("MCDHOOKS_VERDICTS_TOPIC", Grammar.text("a topic"))
            .orElse("verdicts")
            .formerly("MCDHOOKS_TOPIC_VERDICTS");
    private static final Setting<String> PASSWORD =
            Setting.of("MCDHOOKS_STORE_PASSWORD", Grammar.oneOf("letmein", "hunter2"));
    private static final List<Setting<?>> CATALOGUE = List.of(ENFORCE, TIMEOUT, NAME, TOPIC, PASSWORD);

    @Test
    void givesTheValueGivenElseTheDefaultElseNothing() {
        // Given one setting given, one with a default, one without
        Settings settings = Settings.of(Map.of("MCDHOOKS_TIMEOUT", " 5m ", "HOME", "/root"), CATALOGUE);

        // Then
        assertThat(settings.get(TIMEOUT)).isEqualTo(Duration.ofMinutes(5));
        assertThat(settings.get(ENFORCE)).isTrue();
        assertThat(settings.get(NAME)).isNull();
    }

    @Test
    void takesABlankValueForUnset() {
        Settings settings = Settings.of(Map.of("MCDHOOKS_ENFORCE", "  ", "MCDHOOKS_NAME", ""), CATALOGUE);

        assertThat(settings.get(ENFORCE)).isTrue();
        assertThatThrownBy(() -> settings.require(NAME))
                .isInstanceOf(ConfigException.class)
                .hasMessage("MCDHOOKS_NAME is required: expected a name");
    }

    @Test
    void refusesAValueOutsideItsGrammarNamingTheVariableTheValueAndWhatIsAccepted() {
        Settings settings = Settings.of(Map.of("MCDHOOKS_ENFORCE", "yes", "MCDHOOKS_TIMEOUT", "0s"), CATALOGUE);

        assertThatThrownBy(() -> settings.get(ENFORCE))
                .isInstanceOf(ConfigException.class)
                .hasMessage("MCDHOOKS_ENFORCE='yes' is invalid: expected true or false");
        assertThatThrownBy(() -> settings.get(TIMEOUT))
                .hasMessage("MCDHOOKS_TIMEOUT='0s' is invalid (shorter than 1ms): expected " + Grammar.DURATION_FORMS
                        + ", at least 1ms")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void neverShowsASecretValueNotEvenWhenRefusingIt() {
        Settings refused = Settings.of(Map.of("MCDHOOKS_STORE_PASSWORD", "swordfish"), CATALOGUE);
        Settings accepted = Settings.of(Map.of("MCDHOOKS_STORE_PASSWORD", "hunter2"), CATALOGUE);

        assertThatThrownBy(() -> refused.get(PASSWORD))
                .hasMessage("MCDHOOKS_STORE_PASSWORD=****** is invalid: expected one of letmein, hunter2")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("swordfish"));
        assertThat(accepted.get(PASSWORD)).isEqualTo("hunter2");
        assertThat(accepted.effective()).containsEntry("MCDHOOKS_STORE_PASSWORD", "******");
        assertThat(accepted.toString()).doesNotContain("hunter2");
    }

    @Test
    void recordsTheEffectiveConfigurationInTheCataloguesOrder() {
        Settings settings = Settings.of(Map.of("MCDHOOKS_TIMEOUT", "5m"), CATALOGUE);

        settings.get(TIMEOUT);
        settings.get(ENFORCE);
        settings.get(NAME);

        assertThat(settings.effective())
                .containsExactly(
                        entry("MCDHOOKS_ENFORCE", "true (default)"),
                        entry("MCDHOOKS_TIMEOUT", "5m"),
                        entry("MCDHOOKS_NAME", "(unset)"));
        assertThat(settings.toString())
                .isEqualTo("MCDHOOKS_ENFORCE=true (default), MCDHOOKS_TIMEOUT=5m, MCDHOOKS_NAME=(unset)");
    }

    @Test
    void readsAFormerNameWithAWarningThatNamesTheNewOne() {
        Settings settings = Settings.of(Map.of("MCDHOOKS_TOPIC_VERDICTS", "v2"), CATALOGUE);

        assertThat(settings.get(TOPIC)).isEqualTo("v2");
        assertThat(settings.warnings())
                .containsExactly("MCDHOOKS_TOPIC_VERDICTS is deprecated: use MCDHOOKS_VERDICTS_TOPIC");
        assertThat(settings.effective()).containsEntry("MCDHOOKS_VERDICTS_TOPIC", "v2 (as MCDHOOKS_TOPIC_VERDICTS)");
    }

    @Test
    void warnsWhenAFormerNameRepeatsTheNewOne() {
        Settings settings =
                Settings.of(Map.of("MCDHOOKS_TOPIC_VERDICTS", "v2", "MCDHOOKS_VERDICTS_TOPIC", "v2"), CATALOGUE);

        assertThat(settings.get(TOPIC)).isEqualTo("v2");
        assertThat(settings.warnings())
                .containsExactly("MCDHOOKS_TOPIC_VERDICTS is deprecated and repeats MCDHOOKS_VERDICTS_TOPIC: remove"
                        + " MCDHOOKS_TOPIC_VERDICTS");
    }

    @Test
    void refusesAFormerAndANewNameThatDisagree() {
        Map<String, String> env = Map.of("MCDHOOKS_TOPIC_VERDICTS", "old", "MCDHOOKS_VERDICTS_TOPIC", "new");

        assertThatThrownBy(() -> Settings.of(env, CATALOGUE))
                .isInstanceOf(ConfigException.class)
                .hasMessage("MCDHOOKS_VERDICTS_TOPIC='new' and MCDHOOKS_TOPIC_VERDICTS='old' name the same setting"
                        + " with different values: set only MCDHOOKS_VERDICTS_TOPIC");
    }

    @Test
    void warnsOfUnknownVariablesNamingTheNearestSetting() {
        Settings settings = Settings.of(
                Map.of("MCDHOOKS_ENFROCE", "false", "MCDHOOKS_SOMETHING_ELSE_ENTIRELY", "1", "OTHER_ENFORCE", "x"),
                CATALOGUE);

        assertThat(settings.warnings())
                .containsExactly(
                        "MCDHOOKS_ENFROCE is not a setting of this process and is ignored; did you mean MCDHOOKS_ENFORCE?",
                        "MCDHOOKS_SOMETHING_ELSE_ENTIRELY is not a setting of this process and is ignored");
    }

    @Test
    void warnsOfSettingsGivenThatTheConfigurationNeverRead() {
        Settings settings = Settings.of(Map.of("MCDHOOKS_NAME", "x", "MCDHOOKS_TIMEOUT", "1s"), CATALOGUE);

        settings.get(TIMEOUT);

        assertThat(settings.warnings()).containsExactly("MCDHOOKS_NAME is set but not used by this configuration");
    }

    @Test
    void readsOnlySettingsOfItsCatalogue() {
        Settings settings = Settings.of(Map.of(), List.of(ENFORCE));

        assertThatThrownBy(() -> settings.get(TIMEOUT)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> Settings.of(Map.of(), List.of(ENFORCE, ENFORCE)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesADefaultItsOwnGrammarRefuses() {
        assertThatThrownBy(() -> Setting.of("MCDHOOKS_FLAG", Grammar.BOOLEAN).orElse("yes"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Setting.of("mcdhooks_flag", Grammar.BOOLEAN))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
