package io.mcdhooks.schemas.kafka;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Kafka client settings for every process, from the environment, the standard way container
 * images do it: {@code KAFKA_BOOTSTRAP_SERVERS=b:9092} becomes {@code bootstrap.servers},
 * {@code KAFKA_SASL_JAAS_CONFIG} becomes {@code sasl.jaas.config}, and so on; a properties file
 * named by {@value #PROPERTIES_FILE_VARIABLE} is read first and the variables override it. TLS,
 * SASL/SCRAM and OAUTHBEARER need nothing more than their standard client settings.
 *
 * <p>{@link #toString()} masks every value whose name suggests a secret.
 */
public final class KafkaSettings {

    public static final String PREFIX = "KAFKA_";
    public static final String PROPERTIES_FILE_VARIABLE = "KAFKA_PROPERTIES_FILE";

    private static final Set<String> SECRET_MARKERS = Set.of("password", "secret", "jaas", "token", "key");

    private final Map<String, String> settings;

    private KafkaSettings(Map<String, String> settings) {
        this.settings = Map.copyOf(settings);
    }

    public static KafkaSettings of(Map<String, String> settings) {
        return new KafkaSettings(settings);
    }

    /** Settings from {@code env} (normally {@link System#getenv()}). */
    public static KafkaSettings fromEnvironment(Map<String, String> env) {
        Map<String, String> settings = new TreeMap<>();
        String file = env.get(PROPERTIES_FILE_VARIABLE);
        if (file != null && !file.isBlank()) {
            settings.putAll(readProperties(Path.of(file)));
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

    public String bootstrapServers() {
        String servers = settings.get("bootstrap.servers");
        if (servers == null || servers.isBlank()) {
            throw new IllegalStateException("no Kafka bootstrap servers: set KAFKA_BOOTSTRAP_SERVERS");
        }
        return servers;
    }

    /** All settings, for a Kafka client's configuration map. */
    public Map<String, String> asMap() {
        return settings;
    }

    @Override
    public String toString() {
        Map<String, String> shown = new TreeMap<>();
        settings.forEach((k, v) -> shown.put(k, isSecret(k) ? "******" : v));
        return shown.toString();
    }

    static boolean isSecret(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return SECRET_MARKERS.stream().anyMatch(lower::contains);
    }

    private static Map<String, String> readProperties(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(PROPERTIES_FILE_VARIABLE + "=" + file + " cannot be read", e);
        }
        Map<String, String> map = new TreeMap<>();
        properties.forEach((k, v) -> map.put(k.toString(), v.toString()));
        return map;
    }
}
