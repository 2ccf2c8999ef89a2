package io.mcdhooks.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;

/** Checks a scrape against the Prometheus text exposition format, line by line. */
final class PrometheusText {

    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final String LABEL = "[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\"";
    private static final String VALUE = "(?:[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?|NaN|[-+]Inf)";
    private static final Pattern SAMPLE = Pattern.compile(
            "^" + NAME + "(?:\\{(?:" + LABEL + "(?:," + LABEL + ")*,?)?\\})? " + VALUE + "(?: -?\\d+)?$");
    private static final Pattern HELP = Pattern.compile("^# HELP " + NAME + " .*$");
    private static final Pattern TYPE =
            Pattern.compile("^# TYPE " + NAME + " (counter|gauge|histogram|summary|untyped)$");

    private PrometheusText() {}

    static void assertValid(String scrape) {
        assertThat(scrape).isNotBlank();
        for (String line : scrape.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            assertThat(SAMPLE.matcher(line).matches()
                            || HELP.matcher(line).matches()
                            || TYPE.matcher(line).matches())
                    .as("a Prometheus text line: %s", line)
                    .isTrue();
        }
    }
}
