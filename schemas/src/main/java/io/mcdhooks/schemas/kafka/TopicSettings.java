package io.mcdhooks.schemas.kafka;

import io.mcdhooks.schemas.settings.Grammar;
import io.mcdhooks.schemas.settings.Setting;
import java.util.regex.Pattern;

/**
 * The variables that point a process at other topics than the {@link Topics} defaults, named
 * {@code MCDHOOKS_<TOPIC>_TOPIC} in every process. The bridge's former {@code MCDHOOKS_TOPIC_<TOPIC>}
 * names are still read, with a warning.
 */
public final class TopicSettings {

    /** A legal Kafka topic name. */
    public static final Grammar<String> TOPIC_NAME = Grammar.matching(
            Pattern.compile("[a-zA-Z0-9._-]{1,249}"), "a Kafka topic name: 1 to 249 of a-z, A-Z, 0-9, '.', '_', '-'");

    public static final Setting<String> LIFECYCLE = Setting.of("MCDHOOKS_LIFECYCLE_TOPIC", TOPIC_NAME)
            .orElse(Topics.LIFECYCLE)
            .formerly("MCDHOOKS_TOPIC_LIFECYCLE");
    public static final Setting<String> GATE_REQUESTS = Setting.of("MCDHOOKS_GATE_REQUESTS_TOPIC", TOPIC_NAME)
            .orElse(Topics.GATE_REQUESTS)
            .formerly("MCDHOOKS_TOPIC_GATE_REQUESTS");
    public static final Setting<String> VERDICTS = Setting.of("MCDHOOKS_VERDICTS_TOPIC", TOPIC_NAME)
            .orElse(Topics.VERDICTS)
            .formerly("MCDHOOKS_TOPIC_VERDICTS");
    public static final Setting<String> GATE_DECISIONS = Setting.of("MCDHOOKS_GATE_DECISIONS_TOPIC", TOPIC_NAME)
            .orElse(Topics.GATE_DECISIONS)
            .formerly("MCDHOOKS_TOPIC_GATE_DECISIONS");
    public static final Setting<String> DEAD_LETTER = Setting.of("MCDHOOKS_DEAD_LETTER_TOPIC", TOPIC_NAME)
            .orElse(Topics.DEAD_LETTER)
            .formerly("MCDHOOKS_TOPIC_DEAD_LETTER");

    private TopicSettings() {}
}
