package io.mcdhooks.hooks.runner;

import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.kmod.RegistryModuleSettings;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.kafka.TopicSettings;
import io.mcdhooks.schemas.kafka.Topics;
import io.mcdhooks.schemas.settings.ConfigException;
import io.mcdhooks.schemas.settings.Grammar;
import io.mcdhooks.schemas.settings.PropertiesFile;
import io.mcdhooks.schemas.settings.Setting;
import io.mcdhooks.schemas.settings.Settings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Everything a runner process needs, read once from the environment ({@code MCDHOOKS_*}, in the
 * grammars of {@link Grammar}, and the Kafka client's {@code KAFKA_*} through {@link KafkaSettings}).
 * A properties file named by {@code MCDHOOKS_CONFIG_FILE} may hold the same {@code MCDHOOKS_*}
 * names; variables override it.
 *
 * @param nodeName       set for a node-local runner: it reads only its node's partition
 * @param selector       for the built-in hook kinds; {@code null} when a Java hook (which brings its own) is hosted
 * @param builtInHook    the built-in hook kind and its settings; {@code null} when a Java hook is hosted
 * @param httpPort       health and metrics; empty: none served
 * @param signingKeyFile the private key verdicts are signed with; {@code null}: unsigned
 * @param signingKeyId   the id the gatekeeper knows that key by (default: the key file's name)
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
        BuiltInHookConfig builtInHook,
        KafkaSettings kafka,
        OptionalInt httpPort,
        String httpHost,
        Path signingKeyFile,
        String signingKeyId) {

    private static final Grammar<Duration> POSITIVE = Grammar.duration(Duration.ofMillis(1));
    private static final Grammar<String> COMMAND = Grammar.text("a shell command");
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
    private static final Pattern LABEL_KEY =
            Pattern.compile("([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    private static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

    public static final Setting<Path> CONFIG_FILE = Setting.of("MCDHOOKS_CONFIG_FILE", Grammar.readableFile());
    public static final Setting<String> HOOK_NAME = Setting.of(
            "MCDHOOKS_HOOK_NAME",
            Grammar.matching(
                    Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?"),
                    "a lowercase DNS label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63 characters"));
    public static final Setting<String> HOOK_KIND =
            Setting.of("MCDHOOKS_HOOK_KIND", Grammar.oneOf("exec", "http", "kmod", "selfcheck"));
    public static final Setting<String> NODE_NAME =
            Setting.of("MCDHOOKS_NODE_NAME", Grammar.matching(NAME, "a Kubernetes node name"));
    public static final Setting<Set<Stage>> STAGES = Setting.of(
                    "MCDHOOKS_STAGES",
                    Grammar.setOf(Grammar.oneOf(Arrays.stream(Stage.values())
                            .collect(Collectors.toMap(
                                    Stage::wire, Function.identity(), (a, b) -> a, LinkedHashMap::new)))))
            .orElse(Arrays.stream(Stage.values()).map(Stage::wire).collect(Collectors.joining(",")));
    public static final Setting<Set<String>> POOL_SELECTOR =
            Setting.of("MCDHOOKS_POOL_SELECTOR", Grammar.setOf(Grammar.matching(NAME, "a pool name")));
    public static final Setting<List<Map.Entry<String, String>>> NODE_SELECTOR =
            Setting.of("MCDHOOKS_NODE_SELECTOR", Grammar.listOf(Grammar.of("label=value", HookRunnerConfig::label)));
    public static final Setting<Integer> CONCURRENCY =
            Setting.of("MCDHOOKS_CONCURRENCY", Grammar.integer(1, 10_000)).orElse("16");
    public static final Setting<Integer> MAX_OPEN_GATES =
            Setting.of("MCDHOOKS_MAX_OPEN_GATES", Grammar.integer(1, 1_000_000)).orElse("1000");
    public static final Setting<Duration> CHECK_TIMEOUT =
            Setting.of("MCDHOOKS_CHECK_TIMEOUT", POSITIVE).orElse("10m");
    public static final Setting<Duration> HEARTBEAT_INTERVAL =
            Setting.of("MCDHOOKS_HEARTBEAT_INTERVAL", POSITIVE).orElse("30s");
    public static final Setting<Duration> RETRY_BACKOFF =
            Setting.of("MCDHOOKS_RETRY_BACKOFF", POSITIVE).orElse("5s");
    public static final Setting<Duration> RETRY_BACKOFF_MAX =
            Setting.of("MCDHOOKS_RETRY_BACKOFF_MAX", POSITIVE).orElse("5m");
    public static final Setting<Duration> SOAK =
            Setting.of("MCDHOOKS_SOAK", Grammar.duration(Duration.ZERO)).orElse("0s");
    public static final Setting<Duration> SOAK_INTERVAL =
            Setting.of("MCDHOOKS_SOAK_INTERVAL", POSITIVE).orElse("30s");
    public static final Setting<Duration> SHUTDOWN_TIMEOUT =
            Setting.of("MCDHOOKS_SHUTDOWN_TIMEOUT", POSITIVE).orElse("30s");
    public static final Setting<String> EXEC_COMMAND = Setting.of("MCDHOOKS_EXEC_COMMAND", COMMAND);
    public static final Setting<Duration> RECHECK_AFTER = Setting.of("MCDHOOKS_RECHECK_AFTER", POSITIVE);
    public static final Setting<URI> HTTP_URL = Setting.of("MCDHOOKS_HTTP_URL", Grammar.httpsUrl());
    public static final Setting<Path> HTTP_CA_FILE = Setting.of("MCDHOOKS_HTTP_CA_FILE", Grammar.readableFile());
    public static final Setting<String> KMOD_CATALOG =
            Setting.of("MCDHOOKS_KMOD_CATALOG", Grammar.text("a catalog file's path or an http(s) URL"));
    public static final Setting<List<String>> KMOD_MODULES = Setting.of(
            "MCDHOOKS_KMOD_MODULES",
            Grammar.listOf(Grammar.matching(Pattern.compile("[A-Za-z0-9_-]+"), "a kernel module name")));
    public static final Setting<String> KMOD_SOURCE = Setting.of(
                    "MCDHOOKS_KMOD_SOURCE", Grammar.oneOf("registry", "catalog"))
            .orElse("registry");
    public static final Setting<Path> KMOD_MODULES_FILE =
            Setting.of("MCDHOOKS_KMOD_MODULES_FILE", Grammar.readableFile());
    public static final Setting<List<Path>> KMOD_PULL_SECRETS =
            Setting.of("MCDHOOKS_KMOD_PULL_SECRETS", Grammar.listOf(Grammar.readableFile()));
    public static final Setting<Path> KMOD_CA_FILE = Setting.of("MCDHOOKS_KMOD_CA_FILE", Grammar.readableFile());
    public static final Setting<Path> KMOD_REGISTRIES_CONF =
            Setting.of("MCDHOOKS_KMOD_REGISTRIES_CONF", Grammar.readableFile());
    public static final Setting<List<String>> KMOD_ARCHITECTURES = Setting.of(
                    "MCDHOOKS_KMOD_ARCHITECTURES",
                    Grammar.listOf(
                            Grammar.matching(Pattern.compile("[a-z0-9_]+"), "an architecture (amd64, arm64, ...)")))
            .orElse("amd64");
    public static final Setting<List<Map.Entry<String, String>>> KMOD_KERNEL_SUFFIXES = Setting.of(
            "MCDHOOKS_KMOD_KERNEL_SUFFIXES",
            Grammar.listOf(Grammar.of("kernelType=suffix (e.g. realtime=+rt)", HookRunnerConfig::kernelSuffix)));
    public static final Setting<String> SELFCHECK_COMMAND = Setting.of("MCDHOOKS_SELFCHECK_COMMAND", COMMAND);
    public static final Setting<URI> SELFCHECK_URL = Setting.of("MCDHOOKS_SELFCHECK_URL", Grammar.httpUrl());
    public static final Setting<OptionalInt> HTTP_PORT = Setting.of(
                    "MCDHOOKS_HTTP_PORT",
                    Grammar.of("off, or a whole number from 0 to 65535", HookRunnerConfig::portOrOff))
            .orElse("8080");
    /** Where the HTTP endpoints listen: every address by default, as Prometheus scrapes the pod's IP. */
    public static final Setting<String> HTTP_HOST =
            Setting.of("MCDHOOKS_HTTP_HOST", Grammar.listenHost()).orElse("0.0.0.0");

    public static final Setting<Path> SIGNING_KEY_FILE =
            Setting.of("MCDHOOKS_SIGNING_KEY_FILE", Grammar.readableFile());
    public static final Setting<String> SIGNING_KEY_ID = Setting.of(
            "MCDHOOKS_SIGNING_KEY_ID",
            Grammar.matching(
                    Pattern.compile("[-._a-zA-Z0-9]{1,300}"),
                    "a key id: a-z, A-Z, 0-9, '-', '_', '.' (node_<node name> for a node-local hook)"));

    /** Every variable the runner reads. */
    public static final List<Setting<?>> SETTINGS = List.of(
            CONFIG_FILE,
            HOOK_NAME,
            HOOK_KIND,
            NODE_NAME,
            STAGES,
            POOL_SELECTOR,
            NODE_SELECTOR,
            CONCURRENCY,
            MAX_OPEN_GATES,
            CHECK_TIMEOUT,
            HEARTBEAT_INTERVAL,
            RETRY_BACKOFF,
            RETRY_BACKOFF_MAX,
            SOAK,
            SOAK_INTERVAL,
            SHUTDOWN_TIMEOUT,
            TopicSettings.GATE_REQUESTS,
            TopicSettings.VERDICTS,
            TopicSettings.DEAD_LETTER,
            EXEC_COMMAND,
            RECHECK_AFTER,
            HTTP_URL,
            HTTP_CA_FILE,
            KMOD_SOURCE,
            KMOD_MODULES_FILE,
            KMOD_PULL_SECRETS,
            KMOD_CA_FILE,
            KMOD_REGISTRIES_CONF,
            KMOD_ARCHITECTURES,
            KMOD_KERNEL_SUFFIXES,
            KMOD_CATALOG,
            KMOD_MODULES,
            SELFCHECK_COMMAND,
            SELFCHECK_URL,
            HTTP_PORT,
            HTTP_HOST,
            SIGNING_KEY_FILE,
            SIGNING_KEY_ID);

    public HookRunnerConfig {
        kafka.bootstrapServers();
        if (maxOpenGates < concurrency) {
            throw new ConfigException(MAX_OPEN_GATES.name() + "=" + maxOpenGates + " is less than " + CONCURRENCY.name()
                    + "=" + concurrency + ": expected at least as many open gates as checks at once");
        }
        if (builtInHook instanceof BuiltInHookConfig.SelfCheck && nodeName == null) {
            throw new ConfigException(
                    NODE_NAME.name() + " is required for a selfcheck hook: expected the name of the node it checks");
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
        return from(settings(env), KafkaSettings.fromEnvironment(env));
    }

    /**
     * The runner's variables: those of {@code env}, over those of the file {@code MCDHOOKS_CONFIG_FILE}
     * names (which may hold only {@code MCDHOOKS_*} names).
     */
    public static Settings settings(Map<String, String> env) {
        Map<String, String> variables = new HashMap<>();
        String file = env.get(CONFIG_FILE.name());
        if (file != null && !file.isBlank()) {
            PropertiesFile.read(CONFIG_FILE.name(), file).forEach((name, value) -> {
                if (!name.startsWith(Settings.PREFIX)) {
                    throw new ConfigException(CONFIG_FILE.name() + "='" + file + "' holds '" + name
                            + "': expected only " + Settings.PREFIX + "* names");
                }
                variables.put(name, value);
            });
        }
        variables.putAll(env);
        return Settings.of(variables, SETTINGS);
    }

    /** The configuration {@code settings} (from {@link #settings}) and {@code kafka} give. */
    public static HookRunnerConfig from(Settings settings, KafkaSettings kafka) {
        settings.get(CONFIG_FILE);
        String kind = settings.get(HOOK_KIND);
        Path keyFile = settings.get(SIGNING_KEY_FILE);
        String keyId = settings.get(SIGNING_KEY_ID);
        return new HookRunnerConfig(
                settings.require(HOOK_NAME),
                settings.get(NODE_NAME),
                kind == null ? null : selector(settings),
                settings.get(CONCURRENCY),
                settings.get(MAX_OPEN_GATES),
                policy(settings),
                settings.get(SHUTDOWN_TIMEOUT),
                settings.get(TopicSettings.GATE_REQUESTS),
                settings.get(TopicSettings.VERDICTS),
                settings.get(TopicSettings.DEAD_LETTER),
                kind == null ? null : builtInHook(kind, settings),
                kafka,
                settings.get(HTTP_PORT),
                settings.get(HTTP_HOST),
                keyFile,
                keyFile == null ? null : keyId == null ? keyFile.getFileName().toString() : keyId);
    }

    private static RunnerPolicy policy(Settings settings) {
        Duration backoff = settings.get(RETRY_BACKOFF);
        Duration maxBackoff = settings.get(RETRY_BACKOFF_MAX);
        if (maxBackoff.compareTo(backoff) < 0) {
            throw new ConfigException(RETRY_BACKOFF_MAX.name() + "=" + Grammar.format(maxBackoff) + " is shorter than "
                    + RETRY_BACKOFF.name() + "=" + Grammar.format(backoff) + ": expected at least the first back-off");
        }
        return new RunnerPolicy(
                settings.get(CHECK_TIMEOUT),
                settings.get(HEARTBEAT_INTERVAL),
                backoff,
                maxBackoff,
                settings.get(SOAK),
                settings.get(SOAK_INTERVAL));
    }

    private static GateSelector selector(Settings settings) {
        Set<String> pools = settings.get(POOL_SELECTOR);
        List<Map.Entry<String, String>> pairs = settings.get(NODE_SELECTOR);
        Map<String, String> labels = new LinkedHashMap<>();
        if (pairs != null) {
            for (Map.Entry<String, String> pair : pairs) {
                if (labels.put(pair.getKey(), pair.getValue()) != null) {
                    throw new ConfigException(NODE_SELECTOR.name() + " names label '" + pair.getKey()
                            + "' twice: expected each label once");
                }
            }
        }
        return new GateSelector(settings.get(STAGES), pools == null ? Set.of() : pools, labels);
    }

    private static BuiltInHookConfig builtInHook(String kind, Settings settings) {
        return switch (kind) {
            case "exec" -> new BuiltInHookConfig.Exec(settings.require(EXEC_COMMAND), settings.get(RECHECK_AFTER));
            case "http" -> new BuiltInHookConfig.Http(settings.require(HTTP_URL), settings.get(HTTP_CA_FILE));
            case "kmod" -> kmod(settings);
            case "selfcheck" -> {
                String command = settings.get(SELFCHECK_COMMAND);
                URI url = settings.get(SELFCHECK_URL);
                if ((command == null) == (url == null)) {
                    throw new ConfigException("a selfcheck hook needs exactly one of " + SELFCHECK_COMMAND.name()
                            + " and " + SELFCHECK_URL.name() + ": expected a command or a URL, not "
                            + (command == null ? "neither" : "both"));
                }
                yield new BuiltInHookConfig.SelfCheck(command, url, settings.get(RECHECK_AFTER));
            }
            default -> throw new IllegalStateException("a kind the grammar of " + HOOK_KIND + " lets through: " + kind);
        };
    }

    /** The kmod kind reads the registry unless the offline catalog is chosen explicitly. */
    private static BuiltInHookConfig kmod(Settings settings) {
        Duration given = settings.get(RECHECK_AFTER);
        Duration recheckAfter = given == null ? Duration.ofMinutes(5) : given;
        if ("catalog".equals(settings.get(KMOD_SOURCE))) {
            refuseOtherMode(
                    settings,
                    KMOD_SOURCE.name() + "=catalog",
                    KMOD_MODULES_FILE,
                    KMOD_PULL_SECRETS,
                    KMOD_CA_FILE,
                    KMOD_REGISTRIES_CONF,
                    KMOD_KERNEL_SUFFIXES);
            return new BuiltInHookConfig.KernelModules(
                    settings.require(KMOD_CATALOG), settings.require(KMOD_MODULES), recheckAfter);
        }
        refuseOtherMode(
                settings,
                KMOD_SOURCE.name() + "=registry (the default; set catalog for the catalog file)",
                KMOD_CATALOG,
                KMOD_MODULES);
        List<Map.Entry<String, String>> pairs = settings.get(KMOD_KERNEL_SUFFIXES);
        Map<String, String> suffixes = new LinkedHashMap<>();
        if (pairs != null) {
            pairs.forEach(pair -> suffixes.put(pair.getKey(), pair.getValue()));
        }
        List<Path> secrets = settings.get(KMOD_PULL_SECRETS);
        return new BuiltInHookConfig.KernelModulesFromRegistry(new RegistryModuleSettings(
                settings.require(KMOD_MODULES_FILE),
                secrets == null ? List.of() : secrets,
                settings.get(KMOD_CA_FILE),
                settings.get(KMOD_REGISTRIES_CONF),
                settings.get(KMOD_ARCHITECTURES),
                suffixes,
                recheckAfter));
    }

    /** A variable of the other kmod mode is refused, so that none is silently ignored. */
    private static void refuseOtherMode(Settings settings, String mode, Setting<?>... others) {
        for (Setting<?> other : others) {
            if (settings.get(other) != null) {
                throw new ConfigException(other.name() + " is not read with " + mode + ": expected it unset");
            }
        }
    }

    private static Map.Entry<String, String> kernelSuffix(String pair) {
        int eq = pair.indexOf('=');
        if (eq < 1 || eq == pair.length() - 1) {
            throw new IllegalArgumentException();
        }
        return Map.entry(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
    }

    private static Map.Entry<String, String> label(String pair) {
        int eq = pair.indexOf('=');
        if (eq < 1) {
            throw new IllegalArgumentException();
        }
        String key = pair.substring(0, eq).trim();
        String value = pair.substring(eq + 1).trim();
        if (!LABEL_KEY.matcher(key).matches() || !LABEL_VALUE.matcher(value).matches()) {
            throw new IllegalArgumentException();
        }
        return Map.entry(key, value);
    }

    private static OptionalInt portOrOff(String text) {
        return "off".equals(text)
                ? OptionalInt.empty()
                : OptionalInt.of(Grammar.integer(0, 65535).parse(text));
    }
}
