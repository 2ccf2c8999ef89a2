package io.mcdhooks.schemas.settings;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the text of a setting becomes a value, and how to tell a person what is accepted. The same
 * grammars serve every process, so {@code 30s} or {@code true} mean one thing everywhere:
 *
 * <ul>
 *   <li>booleans: {@code true} or {@code false}, nothing else;
 *   <li>durations: a whole number and one unit, {@code ms}, {@code s}, {@code m}, {@code h} or
 *       {@code d} ({@code 250ms}, {@code 30s}, {@code 5m}, {@code 48h}, {@code 2d});
 *   <li>whole numbers in a range; one of a few words; comma-separated lists of any of these.
 * </ul>
 *
 * A parse function refuses a text by throwing {@link IllegalArgumentException}; its message, if
 * any, is a detail that the error adds to the grammar's {@link #accepted()} description.
 */
public final class Grammar<T> {

    /** The duration forms, for messages and help texts. */
    public static final String DURATION_FORMS = "a whole number and a unit ms, s, m, h or d (250ms, 30s, 5m, 48h, 2d)";

    public static final Grammar<Boolean> BOOLEAN = of("true or false", text -> switch (text) {
        case "true" -> true;
        case "false" -> false;
        default -> throw new IllegalArgumentException();
    });

    private static final Pattern DURATION = Pattern.compile("([0-9]{1,9})(ms|s|m|h|d)");
    private static final Pattern WHOLE_NUMBER = Pattern.compile("-?[0-9]{1,10}");
    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]{2,45}");
    private static final Pattern HOST_NAME = Pattern.compile(
            "(?=.{1,253}$)[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)*");

    private final String accepted;
    private final Function<String, T> parse;

    private Grammar(String accepted, Function<String, T> parse) {
        this.accepted = Objects.requireNonNull(accepted, "accepted");
        this.parse = Objects.requireNonNull(parse, "parse");
    }

    /** A grammar of its own: {@code parse} throws {@link IllegalArgumentException} to refuse. */
    public static <T> Grammar<T> of(String accepted, Function<String, T> parse) {
        return new Grammar<>(accepted, parse);
    }

    /** What this grammar accepts, as the end of "expected …". */
    public String accepted() {
        return accepted;
    }

    /** The value of {@code text} (already trimmed, never blank); throws {@link IllegalArgumentException}. */
    public T parse(String text) {
        return parse.apply(text);
    }

    /** Any text. */
    public static Grammar<String> text(String description) {
        return of(description, text -> text);
    }

    /** Text that matches {@code pattern} entirely. */
    public static Grammar<String> matching(Pattern pattern, String description) {
        return of(description, text -> {
            if (!pattern.matcher(text).matches()) {
                throw new IllegalArgumentException();
            }
            return text;
        });
    }

    /** Names left in templates and examples: a cluster so named shares it with every other that kept it. */
    private static final Set<String> PLACEHOLDER_CLUSTERS = Set.of(
            "my-cluster",
            "mycluster",
            "example",
            "example-cluster",
            "cluster",
            "default",
            "changeme",
            "change-me",
            "your-cluster",
            "placeholder",
            "todo",
            "xxx");

    /**
     * The name of a cluster, unique among the clusters sharing a Kafka: a lowercase DNS name of at
     * most 63 characters, not a placeholder such as {@code my-cluster}.
     */
    public static Grammar<String> clusterName() {
        Pattern dns = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?");
        return of("a lowercase DNS name of at most 63 characters naming this cluster (not a placeholder)", text -> {
            if (!dns.matcher(text).matches()) {
                throw new IllegalArgumentException();
            }
            if (PLACEHOLDER_CLUSTERS.contains(text)) {
                throw new IllegalArgumentException(
                        "'" + text + "' is a placeholder: clusters that share it would trust each other's state");
            }
            return text;
        });
    }

    /** A whole number from {@code min} to {@code max}. */
    public static Grammar<Integer> integer(int min, int max) {
        return of("a whole number from " + min + " to " + max, text -> {
            if (!WHOLE_NUMBER.matcher(text).matches()) {
                throw new IllegalArgumentException();
            }
            long value = Long.parseLong(text);
            if (value < min || value > max) {
                throw new IllegalArgumentException("out of range");
            }
            return (int) value;
        });
    }

    /** A duration of at least {@code min}. */
    public static Grammar<Duration> duration(Duration min) {
        String bound = min.isZero() ? "" : ", at least " + format(min);
        return of(DURATION_FORMS + bound, text -> {
            Duration value = parseDuration(text);
            if (value.compareTo(min) < 0) {
                throw new IllegalArgumentException("shorter than " + format(min));
            }
            return value;
        });
    }

    /** A duration from {@code min} to {@code max}. */
    public static Grammar<Duration> duration(Duration min, Duration max) {
        return of(DURATION_FORMS + ", from " + format(min) + " to " + format(max), text -> {
            Duration value = parseDuration(text);
            if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
                throw new IllegalArgumentException("out of range");
            }
            return value;
        });
    }

    /** One of {@code words}. */
    public static Grammar<String> oneOf(String... words) {
        Map<String, String> choices = new LinkedHashMap<>();
        for (String word : words) {
            choices.put(word, word);
        }
        return oneOf(choices);
    }

    /** One of the keys of {@code choices}, read as its value. */
    public static <T> Grammar<T> oneOf(Map<String, T> choices) {
        Map<String, T> copy = new LinkedHashMap<>(choices);
        return of("one of " + String.join(", ", copy.keySet()), text -> {
            T value = copy.get(text);
            if (value == null) {
                throw new IllegalArgumentException();
            }
            return value;
        });
    }

    /** A comma-separated list of at least one item, each of {@code item}; spaces around items are dropped. */
    public static <T> Grammar<List<T>> listOf(Grammar<T> item) {
        return of("a comma-separated list, each item " + item.accepted(), text -> {
            List<T> values = new ArrayList<>();
            for (String part : text.split(",", -1)) {
                String trimmed = part.trim();
                if (trimmed.isEmpty()) {
                    throw new IllegalArgumentException("an empty item");
                }
                try {
                    values.add(item.parse(trimmed));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("item '" + trimmed + "'", e);
                }
            }
            return List.copyOf(values);
        });
    }

    /** A comma-separated list that holds no item twice. */
    public static <T> Grammar<Set<T>> setOf(Grammar<T> item) {
        Grammar<List<T>> list = listOf(item);
        return of(list.accepted() + ", none twice", text -> {
            List<T> values = list.parse(text);
            Set<T> set = Set.copyOf(values);
            if (set.size() != values.size()) {
                throw new IllegalArgumentException("an item given twice");
            }
            return set;
        });
    }

    /** The path of a file this process can read. */
    public static Grammar<Path> readableFile() {
        return of("the path of a readable file", text -> {
            Path path;
            try {
                path = Path.of(text);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("not a path");
            }
            if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
                throw new IllegalArgumentException("no readable file there");
            }
            return path;
        });
    }

    /** An absolute {@code http} or {@code https} URL with a host. */
    public static Grammar<URI> httpUrl() {
        return of("an http:// or https:// URL", text -> {
            URI uri;
            try {
                uri = new URI(text);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException(e.getReason());
            }
            if ((!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) || uri.getHost() == null) {
                throw new IllegalArgumentException();
            }
            return uri;
        });
    }

    /** An {@code https://} URL with a host: what leaves the cluster's trust boundary is encrypted. */
    public static Grammar<URI> httpsUrl() {
        return of("an https:// URL (http:// is refused)", text -> {
            URI uri = httpUrl().parse(text);
            if (!"https".equals(uri.getScheme())) {
                throw new IllegalArgumentException();
            }
            return uri;
        });
    }

    /**
     * An address to listen on: an IPv4 or IPv6 literal ({@code 0.0.0.0} and {@code ::} for every
     * address, {@code 127.0.0.1} for this host only) or a host name.
     */
    public static Grammar<String> listenHost() {
        return of("an IP address (0.0.0.0, ::, 127.0.0.1, ...) or a host name", text -> {
            boolean ipv4 = IPV4.matcher(text).matches()
                    && Arrays.stream(text.split("\\.")).allMatch(o -> Integer.parseInt(o) <= 255);
            boolean ipv6 = text.contains(":") && IPV6.matcher(text).matches();
            if (!ipv4 && !ipv6 && !(HOST_NAME.matcher(text).matches() && !text.matches("[0-9.]+"))) {
                throw new IllegalArgumentException();
            }
            return text;
        });
    }

    /** Reads a duration ({@link #DURATION_FORMS}); throws {@link IllegalArgumentException}. */
    public static Duration parseDuration(String text) {
        Matcher m = DURATION.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException();
        }
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }

    /** {@code duration} written in the duration grammar, in the largest unit that is exact. */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        for (Map.Entry<String, Long> unit : List.of(
                Map.entry("d", 86_400_000L),
                Map.entry("h", 3_600_000L),
                Map.entry("m", 60_000L),
                Map.entry("s", 1_000L))) {
            if (millis != 0 && millis % unit.getValue() == 0) {
                return millis / unit.getValue() + unit.getKey();
            }
        }
        return millis + "ms";
    }

    @Override
    public String toString() {
        return accepted;
    }
}
