package io.mcdhooks.hooks.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Where to pull from, as {@code containers-registries.conf(5)} (version 2) says: the {@code
 * [[registry]]} tables with {@code prefix}, {@code location}, {@code insecure}, {@code blocked},
 * {@code mirror-by-digest-only} and their {@code [[registry.mirror]]} tables with {@code location},
 * {@code insecure} and {@code pull-from-mirror}. The file OpenShift's ImageDigestMirrorSet and
 * ImageTagMirrorSet write to each node is of this form.
 *
 * <p>For a reference, the {@code [[registry]]} with the longest matching prefix applies: its mirrors
 * in order (those allowed for a tag or a digest reference), then its location unless blocked. Other
 * top-level keys ({@code unqualified-search-registries}, {@code short-name-mode}, {@code [aliases]})
 * do not concern pulls by full reference and are ignored; an unknown key inside a registry or
 * mirror table, the version 1 format, and a wildcard prefix with a location or mirrors are errors.
 */
public final class RegistriesConf {

    private static final Set<String> REGISTRY_KEYS =
            Set.of("prefix", "location", "insecure", "blocked", "mirror-by-digest-only", "mirror");
    private static final Set<String> MIRROR_KEYS = Set.of("location", "insecure", "pull-from-mirror");
    private static final RegistriesConf NONE = new RegistriesConf(List.of());

    /** One place to pull from. */
    public record Endpoint(ImageReference reference, boolean insecure, boolean mirror) {
        /** {@code mirror 127.0.0.1:5000/x} or {@code source quay.io/x}, for messages. */
        public String describe() {
            return (mirror ? "mirror " : "") + reference.name();
        }
    }

    private record Mirror(String location, boolean insecure, String pullFrom) {}

    private record Registry(
            String prefix,
            String location,
            boolean insecure,
            boolean blocked,
            boolean digestOnly,
            List<Mirror> mirrors) {

        boolean wildcard() {
            return prefix.startsWith("*.");
        }

        boolean matches(String name) {
            if (wildcard()) {
                String host = name.substring(0, name.indexOf('/')).toLowerCase(Locale.ROOT);
                return host.endsWith(prefix.substring(1).toLowerCase(Locale.ROOT));
            }
            return name.equals(prefix) || name.startsWith(prefix + "/");
        }
    }

    private final List<Registry> registries;

    private RegistriesConf(List<Registry> registries) {
        this.registries = List.copyOf(registries);
    }

    public static RegistriesConf none() {
        return NONE;
    }

    /** Reads the file; throws {@link IllegalArgumentException} naming the file and what is wrong. */
    public static RegistriesConf read(Path file) {
        try {
            return parse(Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new IllegalArgumentException(file + " cannot be read: " + e.getMessage(), e);
        }
    }

    public static RegistriesConf parse(String toml, String source) {
        JsonNode root;
        try {
            root = new TomlMapper().readTree(toml);
        } catch (IOException e) {
            throw new IllegalArgumentException(source + " is not TOML: " + e.getMessage(), e);
        }
        if (root.has("registries")) {
            throw new IllegalArgumentException(
                    source + " is in the version 1 format ([registries.*]); write [[registry]] tables (version 2)");
        }
        List<Registry> registries = new ArrayList<>();
        JsonNode tables = root.path("registry");
        if (!tables.isMissingNode() && !tables.isArray()) {
            throw new IllegalArgumentException(source + ": registry must be an array of tables ([[registry]])");
        }
        for (int i = 0; i < tables.size(); i++) {
            registries.add(registry(tables.get(i), source + " [[registry]] #" + (i + 1)));
        }
        return new RegistriesConf(registries);
    }

    private static Registry registry(JsonNode table, String where) {
        unknownKeys(table, REGISTRY_KEYS, where);
        String location = text(table, "location", where);
        String prefix = text(table, "prefix", where);
        if (prefix == null || prefix.isEmpty()) {
            prefix = location; // an empty prefix means the location, as ImageDigestMirrorSets write it
        }
        if (prefix == null || prefix.isBlank()) {
            throw new IllegalArgumentException(where + " has neither prefix nor location");
        }
        List<Mirror> mirrors = new ArrayList<>();
        JsonNode list = table.path("mirror");
        for (int i = 0; i < list.size(); i++) {
            String at = where + " [[registry.mirror]] #" + (i + 1);
            JsonNode mirror = list.get(i);
            unknownKeys(mirror, MIRROR_KEYS, at);
            String mirrorLocation = text(mirror, "location", at);
            if (mirrorLocation == null || mirrorLocation.isBlank()) {
                throw new IllegalArgumentException(at + " has no location");
            }
            String pullFrom =
                    Optional.ofNullable(text(mirror, "pull-from-mirror", at)).orElse("all");
            if (!Set.of("all", "digest-only", "tag-only").contains(pullFrom)) {
                throw new IllegalArgumentException(
                        at + ": pull-from-mirror = \"" + pullFrom + "\" is not all, digest-only or tag-only");
            }
            mirrors.add(new Mirror(mirrorLocation, bool(mirror, "insecure", at), pullFrom));
        }
        Registry registry = new Registry(
                prefix,
                location == null ? prefix : location,
                bool(table, "insecure", where),
                bool(table, "blocked", where),
                bool(table, "mirror-by-digest-only", where),
                mirrors);
        if (registry.wildcard() && (location != null || !mirrors.isEmpty())) {
            throw new IllegalArgumentException(where + ": a wildcard prefix (" + prefix
                    + ") may only block or mark insecure; it cannot have a location or mirrors here");
        }
        return registry;
    }

    /**
     * Where to look for {@code reference}, in order. Empty when its registry is blocked and has no
     * mirror for this kind of reference.
     */
    public List<Endpoint> endpoints(ImageReference reference) {
        String name = reference.name();
        Optional<Registry> match = registries.stream()
                .filter(r -> r.matches(name))
                .max(Comparator.comparingInt(r -> r.wildcard() ? 0 : r.prefix().length()));
        if (match.isEmpty()) {
            return List.of(new Endpoint(reference, false, false));
        }
        Registry registry = match.get();
        String rest =
                registry.wildcard() ? null : name.substring(registry.prefix().length());
        List<Endpoint> endpoints = new ArrayList<>();
        for (Mirror mirror : registry.mirrors()) {
            String from = registry.digestOnly() ? "digest-only" : mirror.pullFrom();
            boolean allowed = from.equals("all") || (from.equals("digest-only") == reference.pinned());
            if (allowed) {
                endpoints.add(new Endpoint(rewrite(reference, mirror.location() + rest), mirror.insecure(), true));
            }
        }
        if (!registry.blocked()) {
            ImageReference source = registry.wildcard() ? reference : rewrite(reference, registry.location() + rest);
            endpoints.add(new Endpoint(source, registry.insecure(), false));
        }
        return endpoints;
    }

    private static ImageReference rewrite(ImageReference reference, String newName) {
        int slash = newName.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("a location of the registries configuration maps " + reference.name()
                    + " to " + newName + ", which has no repository");
        }
        return reference.withName(newName.substring(0, slash), newName.substring(slash + 1));
    }

    private static void unknownKeys(JsonNode table, Set<String> known, String where) {
        if (!table.isObject()) {
            throw new IllegalArgumentException(where + " is not a table");
        }
        for (Iterator<String> names = table.fieldNames(); names.hasNext(); ) {
            String key = names.next();
            if (!known.contains(key)) {
                throw new IllegalArgumentException(where + " has an unknown key '" + key + "' (known: "
                        + known.stream().sorted().toList() + ")");
            }
        }
    }

    private static String text(JsonNode table, String key, String where) {
        JsonNode value = table.get(key);
        if (value == null) {
            return null;
        }
        if (!value.isTextual()) {
            throw new IllegalArgumentException(where + ": " + key + " must be a string");
        }
        return value.asText().trim();
    }

    private static boolean bool(JsonNode table, String key, String where) {
        JsonNode value = table.get(key);
        if (value == null) {
            return false;
        }
        if (!value.isBoolean()) {
            throw new IllegalArgumentException(where + ": " + key + " must be true or false");
        }
        return value.asBoolean();
    }
}
