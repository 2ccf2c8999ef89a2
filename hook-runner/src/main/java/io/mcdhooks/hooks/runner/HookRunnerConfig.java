package io.mcdhooks.hooks.runner;

import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.kmod.RegistryModuleSettings;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.kafka.Topics;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Everything a runner process needs, read once from the environment ({@code MCDHOOKS_*}, and the
 * Kafka client's {@code KAFKA_*} through {@link KafkaSettings}). A properties file named by
 * {@code MCDHOOKS_CONFIG_FILE} may hold the same {@code MCDHOOKS_*} names; variables override it.
 *
 * @param nodeName   set for a node-local runner: it reads only its node's partition
 * @param selector   for the built-in hook kinds; a Java hook brings its own
 * @param hook       the built-in hook's settings; {@code null} when a Java hook is hosted
 */
public record HookRunnerConfig(
        String hookName,
        String nodeName,
        GateSelector selector,
        int concurrency,
        int maxOpenGates,
        RunnerPolicy policy,
        Duration shutdownTimeout,
        String gateRequestsTopic,
        String verdictsTopic,
        String deadLetterTopic,
        HookSettings hook,
        KafkaSettings kafka) {

    public static final String PREFIX = "MCDHOOKS_";
    public static final String CONFIG_FILE = "MCDHOOKS_CONFIG_FILE";

    private static final Pattern HOOK_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

    public HookRunnerConfig {
        if (concurrency < 1 || maxOpenGates < concurrency) {
            throw new ConfigException("need 1 <= MCDHOOKS_CONCURRENCY <= MCDHOOKS_MAX_OPEN_GATES, got " + concurrency
                    + " and " + maxOpenGates);
        }
        if (hook instanceof HookSettings.SelfCheck && nodeName == null) {
            throw new ConfigException("MCDHOOKS_NODE_NAME is required for a selfcheck hook: it checks its own node");
        }
    }

    /** Whether this runner checks its own node only (a DaemonSet pod). */
    public boolean nodeLocal() {
        return nodeName != null;
    }

    public String consumerGroup() {
        return nodeLocal() ? Topics.nodeLocalHookGroup(hookName, nodeName) : Topics.hookGroup(hookName);
    }

    /** Reads the configuration; throws {@link ConfigException} naming the first bad variable. */
    public static HookRunnerConfig fromEnvironment(Map<String, String> env) {
        Map<String, String> vars = new HashMap<>();
        String file = env.get(CONFIG_FILE);
        if (file != null && !file.isBlank()) {
            vars.putAll(readFile(Path.of(file)));
        }
        env.forEach((k, v) -> {
            if (k.startsWith(PREFIX)) {
                vars.put(k, v);
            }
        });
        Settings s = new Settings(vars);
        KafkaSettings kafka = KafkaSettings.fromEnvironment(env);
        if (kafka.asMap().get("bootstrap.servers") == null) {
            throw new ConfigException(
                    "KAFKA_BOOTSTRAP_SERVERS is required (or bootstrap.servers in KAFKA_PROPERTIES_FILE)");
        }
        String kind = s.optional("HOOK_KIND", "java");
        return new HookRunnerConfig(
                s.matching("HOOK_NAME", HOOK_NAME),
                s.optional("NODE_NAME", null),
                selector(s),
                s.integer("CONCURRENCY", 16),
                s.integer("MAX_OPEN_GATES", 1000),
                new RunnerPolicy(
                        s.duration("CHECK_TIMEOUT", Duration.ofMinutes(10)),
                        s.duration("HEARTBEAT_INTERVAL", Duration.ofSeconds(30)),
                        s.duration("RETRY_BACKOFF", Duration.ofSeconds(5)),
                        s.duration("RETRY_BACKOFF_MAX", Duration.ofMinutes(5))),
                s.duration("SHUTDOWN_TIMEOUT", Duration.ofSeconds(30)),
                s.optional("GATE_REQUESTS_TOPIC", Topics.GATE_REQUESTS),
                s.optional("VERDICTS_TOPIC", Topics.VERDICTS),
                s.optional("DEAD_LETTER_TOPIC", Topics.DEAD_LETTER),
                hookSettings(kind, s),
                kafka);
    }

    private static GateSelector selector(Settings s) {
        String stages = s.optional("STAGES", null);
        Set<Stage> parsed = EnumSet.allOf(Stage.class);
        if (stages != null) {
            parsed = EnumSet.noneOf(Stage.class);
            for (String stage : s.list(stages)) {
                try {
                    parsed.add(Stage.fromWire(stage));
                } catch (IllegalArgumentException e) {
                    throw new ConfigException("MCDHOOKS_STAGES: '" + stage + "' is not one of "
                            + Arrays.stream(Stage.values()).map(Stage::wire).toList());
                }
            }
        }
        Map<String, String> labels = new LinkedHashMap<>();
        String nodeSelector = s.optional("NODE_SELECTOR", null);
        if (nodeSelector != null) {
            for (String pair : s.list(nodeSelector)) {
                int eq = pair.indexOf('=');
                if (eq < 1) {
                    throw new ConfigException("MCDHOOKS_NODE_SELECTOR: '" + pair + "' is not label=value");
                }
                labels.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
        }
        String pools = s.optional("POOL_SELECTOR", null);
        return new GateSelector(parsed, pools == null ? Set.of() : Set.copyOf(s.list(pools)), labels);
    }

    private static HookSettings hookSettings(String kind, Settings s) {
        return switch (kind) {
            case "java" -> null;
            case "exec" -> new HookSettings.Exec(s.required("EXEC_COMMAND"), s.duration("RECHECK_AFTER", null));
            case "http" -> new HookSettings.Http(s.uri("HTTP_URL"), s.path("HTTP_CA_FILE"));
            case "kmod" -> kmod(s);
            case "selfcheck" -> {
                String command = s.optional("SELFCHECK_COMMAND", null);
                String url = s.optional("SELFCHECK_URL", null);
                if ((command == null) == (url == null)) {
                    throw new ConfigException(
                            "set exactly one of MCDHOOKS_SELFCHECK_COMMAND and MCDHOOKS_SELFCHECK_URL");
                }
                yield new HookSettings.SelfCheck(
                        command, url == null ? null : s.uri("SELFCHECK_URL"), s.duration("RECHECK_AFTER", null));
            }
            default ->
                throw new ConfigException("MCDHOOKS_HOOK_KIND: '" + kind
                        + "' is not one of exec, http, kmod, selfcheck (or unset for a Java hook)");
        };
    }

    /** The kmod kind reads the registry unless the offline catalog is chosen explicitly. */
    private static HookSettings kmod(Settings s) {
        String source = s.optional("KMOD_SOURCE", "registry");
        List<String> registryOnly = List.of(
                "KMOD_MODULES_FILE",
                "KMOD_PULL_SECRETS",
                "KMOD_CA_FILE",
                "KMOD_REGISTRIES_CONF",
                "KMOD_ARCHITECTURES",
                "KMOD_KERNEL_SUFFIXES");
        List<String> catalogOnly = List.of("KMOD_CATALOG", "KMOD_MODULES");
        Duration recheckAfter = s.duration("RECHECK_AFTER", Duration.ofMinutes(5));
        switch (source) {
            case "catalog" -> {
                s.noneOf(registryOnly, "MCDHOOKS_KMOD_SOURCE=catalog");
                return new HookSettings.KernelModules(
                        s.required("KMOD_CATALOG"), s.list(s.required("KMOD_MODULES")), recheckAfter);
            }
            case "registry" -> {
                s.noneOf(catalogOnly, "MCDHOOKS_KMOD_SOURCE=registry (the default; set catalog for the catalog file)");
                Map<String, String> suffixes = new LinkedHashMap<>();
                for (String pair : s.list(s.optional("KMOD_KERNEL_SUFFIXES", ""))) {
                    int eq = pair.indexOf('=');
                    if (eq < 1 || eq == pair.length() - 1) {
                        throw new ConfigException("MCDHOOKS_KMOD_KERNEL_SUFFIXES: '" + pair
                                + "' is not kernelType=suffix (e.g. realtime=+rt)");
                    }
                    suffixes.put(
                            pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
                }
                List<String> architectures = s.list(s.optional("KMOD_ARCHITECTURES", "amd64"));
                for (String arch : architectures) {
                    if (!arch.matches("[a-z0-9_]+")) {
                        throw new ConfigException("MCDHOOKS_KMOD_ARCHITECTURES: '" + arch
                                + "' is not an architecture (amd64, arm64, ...)");
                    }
                }
                List<Path> secrets = new ArrayList<>();
                for (String file : s.list(s.optional("KMOD_PULL_SECRETS", ""))) {
                    secrets.add(s.readable("KMOD_PULL_SECRETS", file));
                }
                try {
                    return new HookSettings.KernelModulesFromRegistry(new RegistryModuleSettings(
                            s.readable("KMOD_MODULES_FILE", s.required("KMOD_MODULES_FILE")),
                            secrets,
                            s.path("KMOD_CA_FILE"),
                            s.path("KMOD_REGISTRIES_CONF"),
                            architectures,
                            suffixes,
                            recheckAfter));
                } catch (IllegalArgumentException e) {
                    throw new ConfigException("MCDHOOKS_KMOD_*: " + e.getMessage());
                }
            }
            default -> throw new ConfigException("MCDHOOKS_KMOD_SOURCE: '" + source + "' is not registry or catalog");
        }
    }

    private static Map<String, String> readFile(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new ConfigException(CONFIG_FILE + "=" + file + " cannot be read: " + e.getMessage());
        }
        return properties.stringPropertyNames().stream().collect(Collectors.toMap(k -> k, properties::getProperty));
    }

    /** Durations as {@code 250ms}, {@code 30s}, {@code 5m}, {@code 1h} or ISO-8601 ({@code PT30S}). */
    static Duration parseDuration(String text) {
        Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            };
        }
        return Duration.parse(text.trim());
    }

    @Override
    public String toString() {
        return "HookRunnerConfig[hookName=" + hookName + ", nodeName=" + nodeName + ", selector=" + selector
                + ", concurrency=" + concurrency + ", maxOpenGates=" + maxOpenGates + ", policy=" + policy
                + ", shutdownTimeout=" + shutdownTimeout + ", topics="
                + List.of(gateRequestsTopic, verdictsTopic, deadLetterTopic) + ", hook=" + hook + ", kafka=" + kafka
                + "]";
    }

    /** Typed access to the variables, every error naming its variable. */
    private record Settings(Map<String, String> vars) {

        String optional(String name, String fallback) {
            String value = vars.get(PREFIX + name);
            return value == null || value.isBlank() ? fallback : value.trim();
        }

        String required(String name) {
            String value = optional(name, null);
            if (value == null) {
                throw new ConfigException(PREFIX + name + " is required");
            }
            return value;
        }

        String matching(String name, Pattern pattern) {
            String value = required(name);
            if (!pattern.matcher(value).matches()) {
                throw new ConfigException(PREFIX + name + "='" + value + "' must match " + pattern.pattern());
            }
            return value;
        }

        int integer(String name, int fallback) {
            String value = optional(name, null);
            try {
                return value == null ? fallback : Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new ConfigException(PREFIX + name + "='" + value + "' is not an integer");
            }
        }

        Duration duration(String name, Duration fallback) {
            String value = optional(name, null);
            if (value == null) {
                return fallback;
            }
            try {
                Duration parsed = parseDuration(value);
                if (parsed.isNegative() || parsed.isZero()) {
                    throw new ConfigException(PREFIX + name + "='" + value + "' must be positive");
                }
                return parsed;
            } catch (DateTimeParseException e) {
                throw new ConfigException(
                        PREFIX + name + "='" + value + "' is not a duration such as 250ms, 30s, 5m, 1h or PT30S");
            }
        }

        URI uri(String name) {
            String value = required(name);
            try {
                URI uri = URI.create(value);
                if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
                    throw new ConfigException(PREFIX + name + "='" + value + "' must be an http or https URL");
                }
                return uri;
            } catch (IllegalArgumentException e) {
                throw new ConfigException(PREFIX + name + "='" + value + "' is not a URL: " + e.getMessage());
            }
        }

        Path path(String name) {
            String value = optional(name, null);
            if (value == null) {
                return null;
            }
            Path path = Path.of(value);
            if (!Files.isReadable(path)) {
                throw new ConfigException(PREFIX + name + "='" + value + "' is not a readable file");
            }
            return path;
        }

        Path readable(String name, String value) {
            Path path = Path.of(value);
            if (!Files.isReadable(path)) {
                throw new ConfigException(PREFIX + name + ": '" + value + "' is not a readable file");
            }
            return path;
        }

        /** Refuses variables that belong to another mode, so that none is silently ignored. */
        void noneOf(List<String> names, String mode) {
            for (String name : names) {
                if (optional(name, null) != null) {
                    throw new ConfigException(PREFIX + name + " is not read with " + mode);
                }
            }
        }

        List<String> list(String value) {
            return Arrays.stream(value.split(","))
                    .map(String::trim)
                    .filter(v -> !v.isEmpty())
                    .toList();
        }
    }
}
