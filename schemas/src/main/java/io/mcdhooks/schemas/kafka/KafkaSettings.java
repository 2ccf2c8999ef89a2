package io.mcdhooks.schemas.kafka;

import io.mcdhooks.schemas.settings.ConfigException;
import io.mcdhooks.schemas.settings.Grammar;
import io.mcdhooks.schemas.settings.PropertiesFile;
import io.mcdhooks.schemas.settings.Secrets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Kafka client settings for every process, from the environment, the standard way container
 * images do it: {@code KAFKA_BOOTSTRAP_SERVERS=b:9092} becomes {@code bootstrap.servers},
 * {@code KAFKA_SASL_JAAS_CONFIG} becomes {@code sasl.jaas.config}, and so on; a properties file
 * named by {@value #PROPERTIES_FILE_VARIABLE} is read first and the variables override it. TLS,
 * SASL/SCRAM and OAUTHBEARER need nothing more than their standard client settings.
 *
 * <p>{@link #toString()} masks every value whose name {@link Secrets} calls secret.
 */
public final class KafkaSettings {

    public static final String PREFIX = "KAFKA_";
    public static final String PROPERTIES_FILE_VARIABLE = "KAFKA_PROPERTIES_FILE";
    public static final String BOOTSTRAP_SERVERS_VARIABLE = "KAFKA_BOOTSTRAP_SERVERS";

    private static final Grammar<List<String>> BOOTSTRAP_SERVERS =
            Grammar.listOf(Grammar.matching(Pattern.compile("\\S+:[0-9]{1,5}"), "host:port"));

    private final Map<String, String> settings;

    private KafkaSettings(Map<String, String> settings) {
        this.settings = Map.copyOf(settings);
    }

    public static KafkaSettings of(Map<String, String> settings) {
        return new KafkaSettings(settings);
    }

    /**
     * Settings from {@code env} (normally {@link System#getenv()}); throws {@link ConfigException}
     * when the properties file cannot be read.
     */
    public static KafkaSettings fromEnvironment(Map<String, String> env) {
        Map<String, String> settings = new TreeMap<>();
        String file = env.get(PROPERTIES_FILE_VARIABLE);
        if (file != null && !file.isBlank()) {
            settings.putAll(PropertiesFile.read(PROPERTIES_FILE_VARIABLE, file));
        }
        env.forEach((name, value) -> {
            if (name.startsWith(PREFIX) && !name.equals(PROPERTIES_FILE_VARIABLE)) {
                settings.put(
                        name.substring(PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        });
        return new KafkaSettings(settings);
    }

    /** These settings with {@code overrides} on top. */
    public KafkaSettings with(Map<String, String> overrides) {
        Map<String, String> merged = new TreeMap<>(settings);
        merged.putAll(overrides);
        return new KafkaSettings(merged);
    }

    /** {@code bootstrap.servers}; throws {@link ConfigException} when it is missing or not host:port pairs. */
    public String bootstrapServers() {
        String servers = settings.get("bootstrap.servers");
        String variable = BOOTSTRAP_SERVERS_VARIABLE + " (bootstrap.servers)";
        if (servers == null || servers.isBlank()) {
            throw new ConfigException(variable + " is required: expected " + BOOTSTRAP_SERVERS.accepted());
        }
        try {
            BOOTSTRAP_SERVERS.parse(servers.trim());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(
                    variable + "='" + servers + "' is invalid: expected " + BOOTSTRAP_SERVERS.accepted());
        }
        return servers.trim();
    }

    /** All settings, for a Kafka client's configuration map. */
    public Map<String, String> asMap() {
        return settings;
    }

    @Override
    public String toString() {
        Map<String, String> shown = new TreeMap<>();
        settings.forEach((k, v) -> shown.put(k, Secrets.shown(k, v)));
        return shown.toString();
    }
}
