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

    public static final Setting<String> LIFECYCLE =
            topic("MCDHOOKS_LIFECYCLE_TOPIC", Topics.LIFECYCLE, "MCDHOOKS_TOPIC_LIFECYCLE");
    public static final Setting<String> GATE_REQUESTS =
            topic("MCDHOOKS_GATE_REQUESTS_TOPIC", Topics.GATE_REQUESTS, "MCDHOOKS_TOPIC_GATE_REQUESTS");
    public static final Setting<String> VERDICTS =
            topic("MCDHOOKS_VERDICTS_TOPIC", Topics.VERDICTS, "MCDHOOKS_TOPIC_VERDICTS");
    public static final Setting<String> GATE_DECISIONS =
            topic("MCDHOOKS_GATE_DECISIONS_TOPIC", Topics.GATE_DECISIONS, "MCDHOOKS_TOPIC_GATE_DECISIONS");
    public static final Setting<String> DEAD_LETTER =
            topic("MCDHOOKS_DEAD_LETTER_TOPIC", Topics.DEAD_LETTER, "MCDHOOKS_TOPIC_DEAD_LETTER");

    public static final Setting<String> CONFIG_SNAPSHOTS =
            Setting.of("MCDHOOKS_CONFIG_SNAPSHOTS_TOPIC", TOPIC_NAME).orElse(Topics.CONFIG_SNAPSHOTS);

    private TopicSettings() {}

    private static Setting<String> topic(String name, String fallback, String formerName) {
        return Setting.of(name, TOPIC_NAME).orElse(fallback).formerly(formerName);
    }
}
