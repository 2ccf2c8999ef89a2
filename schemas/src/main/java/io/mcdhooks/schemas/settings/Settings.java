package io.mcdhooks.schemas.settings;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The {@code MCDHOOKS_*} variables of one process, read against the process's catalogue of
 * {@link Setting}s. A blank value counts as unset. Former names are read with a warning, and a
 * former and a current name set to different values are an error. Variables that are not in the
 * catalogue (likely typos), and settings given but never read, are reported by {@link #warnings()}.
 * Every setting read is recorded with the value it took, for one log line at start
 * ({@link #effective()}, {@link #toString()}); secrets are masked there and in every message.
 */
public final class Settings {

    public static final String PREFIX = "MCDHOOKS_";

    private static final int MAX_TYPO_DISTANCE = 3;

    private final Map<String, Setting<?>> catalogue;
    private final Map<String, String> given = new HashMap<>();
    private final Map<String, String> givenAs = new HashMap<>();
    private final List<String> notices = new ArrayList<>();
    private final Map<String, String> effective = new HashMap<>();
    private final Set<String> read = new HashSet<>();

    private Settings(Map<String, Setting<?>> catalogue) {
        this.catalogue = catalogue;
    }

    /**
     * Reads the {@code MCDHOOKS_*} entries of {@code environment}; throws {@link ConfigException}
     * when a setting is given under two of its names with different values.
     */
    public static Settings of(Map<String, String> environment, Collection<? extends Setting<?>> catalogue) {
        Map<String, Setting<?>> byName = new LinkedHashMap<>();
        Map<String, Setting<?>> byFormerName = new HashMap<>();
        for (Setting<?> setting : catalogue) {
            if (byName.put(setting.name(), setting) != null) {
                throw new IllegalArgumentException(setting.name() + " is in the catalogue twice");
            }
            setting.formerNames().forEach(former -> byFormerName.put(former, setting));
        }
        Settings settings = new Settings(byName);
        Map<String, String> formers = new TreeMap<>();
        for (Map.Entry<String, String> e : new TreeMap<>(environment).entrySet()) {
            String name = e.getKey();
            String value = e.getValue() == null ? "" : e.getValue().trim();
            if (!name.startsWith(PREFIX) || value.isEmpty()) {
                continue;
            }
            if (byName.containsKey(name)) {
                settings.given.put(name, value);
            } else if (byFormerName.containsKey(name)) {
                formers.put(name, value);
            } else {
                settings.notices.add(settings.unknown(name));
            }
        }
        formers.forEach((former, value) -> settings.resolve(byFormerName.get(former), former, value));
        return settings;
    }

    private void resolve(Setting<?> setting, String former, String value) {
        String current = given.get(setting.name());
        if (current == null) {
            given.put(setting.name(), value);
            givenAs.put(setting.name(), former);
            notices.add(former + " is deprecated: use " + setting.name());
        } else if (current.equals(value)) {
            notices.add(former + " is deprecated and repeats " + setting.name() + ": remove " + former);
        } else {
            String by = givenAs.getOrDefault(setting.name(), setting.name());
            throw new ConfigException(by + "=" + setting.shown(current) + " and " + former + "="
                    + setting.shown(value) + " name the same setting with different values: set only "
                    + setting.name());
        }
    }

    /** The value of {@code setting}: given, else its default, else {@code null}. */
    public <T> T get(Setting<T> setting) {
        if (catalogue.get(setting.name()) != setting) {
            throw new IllegalStateException(setting.name() + " is not in this process's catalogue of settings");
        }
        read.add(setting.name());
        String value = given.get(setting.name());
        if (value == null) {
            if (setting.fallback() == null) {
                effective.put(setting.name(), "(unset)");
                return null;
            }
            effective.put(setting.name(), shownValue(setting, setting.fallback()) + " (default)");
            return setting.grammar().parse(setting.fallback());
        }
        T parsed;
        try {
            parsed = setting.grammar().parse(value);
        } catch (IllegalArgumentException e) {
            throw ConfigException.invalid(setting, value, detail(e));
        }
        String former = givenAs.get(setting.name());
        effective.put(setting.name(), shownValue(setting, value) + (former == null ? "" : " (as " + former + ")"));
        return parsed;
    }

    /** The value of {@code setting}; throws {@link ConfigException} when it is neither given nor defaulted. */
    public <T> T require(Setting<T> setting) {
        T value = get(setting);
        if (value == null) {
            throw ConfigException.missing(setting);
        }
        return value;
    }

    /**
     * What a person should hear about: former names in use, unknown {@code MCDHOOKS_*} variables
     * (with the setting of the nearest name), and settings given that this configuration does not use.
     */
    public List<String> warnings() {
        List<String> warnings = new ArrayList<>(notices);
        given.keySet().stream()
                .filter(name -> !read.contains(name))
                .sorted()
                .forEach(name ->
                        warnings.add(givenAs.getOrDefault(name, name) + " is set but not used by this configuration"));
        return warnings;
    }

    /** Every setting read so far and the value it took, in the catalogue's order; secrets masked. */
    public Map<String, String> effective() {
        Map<String, String> ordered = new LinkedHashMap<>();
        catalogue.keySet().stream()
                .filter(effective::containsKey)
                .forEach(name -> ordered.put(name, effective.get(name)));
        return Collections.unmodifiableMap(ordered);
    }

    @Override
    public String toString() {
        return effective().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
    }

    private static String shownValue(Setting<?> setting, String value) {
        return setting.secret() ? Secrets.MASK : value;
    }

    private String unknown(String name) {
        String nearest = null;
        int best = MAX_TYPO_DISTANCE + 1;
        for (String known : catalogue.keySet()) {
            int distance = distance(name, known);
            if (distance < best) {
                best = distance;
                nearest = known;
            }
        }
        return name + " is not a setting of this process and is ignored"
                + (nearest == null ? "" : "; did you mean " + nearest + "?");
    }

    /** The detail of a refusal: the messages along its causes. */
    private static String detail(Throwable refusal) {
        List<String> parts = new ArrayList<>();
        for (Throwable t = refusal; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                parts.add(t.getMessage());
            }
        }
        return String.join(": ", parts);
    }

    /** Levenshtein distance: how many letters to change, add or drop to turn {@code a} into {@code b}. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int change = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + change);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
