package io.mcdhooks.sandbox.mco;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The render controller's merge, as a pure function: the MachineConfigs selected by a pool, in
 * name order, become one rendered spec named {@code rendered-<pool>-<md5 of the merged spec>}.
 *
 * <p>Merge rules: {@code osImageURL}, {@code baseOSExtensionsContainerImage} and a non-default
 * {@code kernelType} — the last non-empty value wins; {@code extensions} and
 * {@code kernelArguments} — concatenated without duplicates; {@code fips} — any true;
 * {@code config.storage.files} by path and {@code config.systemd.units} by name — the last wins;
 * other ignition keys — the last one seen.
 */
public final class Renderer {

    private Renderer() {}

    /** A rendered config: its name, its merged spec, and the names of its sources in order. */
    public record Rendered(String name, Map<String, Object> spec, List<String> sources) {}

    /**
     * Merges {@code sources} (name → MachineConfig spec) for {@code pool}.
     *
     * @param sources specs keyed by MachineConfig name; the iteration order does not matter
     */
    public static Rendered render(String pool, Map<String, Map<String, Object>> sources) {
        var byName = new TreeMap<>(sources);
        String osImageUrl = "";
        String extensionsImage = "";
        String kernelType = "default";
        var extensions = new LinkedHashSet<Object>();
        var kernelArguments = new LinkedHashSet<Object>();
        boolean fips = false;
        var files = new LinkedHashMap<Object, Object>();
        var units = new LinkedHashMap<Object, Object>();
        var ignitionRest = new TreeMap<String, Object>();
        for (Map<String, Object> spec : byName.values()) {
            osImageUrl = nonEmptyOr(spec.get("osImageURL"), osImageUrl);
            extensionsImage = nonEmptyOr(spec.get("baseOSExtensionsContainerImage"), extensionsImage);
            kernelType = nonEmptyOr(spec.get("kernelType"), kernelType);
            addAll(extensions, spec.get("extensions"));
            addAll(kernelArguments, spec.get("kernelArguments"));
            fips |= Boolean.TRUE.equals(spec.get("fips"));
            if (spec.get("config") instanceof Map<?, ?> config) {
                for (var e : config.entrySet()) {
                    String key = String.valueOf(e.getKey());
                    if (key.equals("storage") && e.getValue() instanceof Map<?, ?> storage) {
                        keyed(files, storage.get("files"), "path");
                    } else if (key.equals("systemd") && e.getValue() instanceof Map<?, ?> systemd) {
                        keyed(units, systemd.get("units"), "name");
                    } else {
                        ignitionRest.put(key, e.getValue());
                    }
                }
            }
        }
        var config = new TreeMap<String, Object>(ignitionRest);
        config.putIfAbsent("ignition", Map.of("version", "3.4.0"));
        if (!files.isEmpty()) {
            config.put("storage", Map.of("files", new ArrayList<>(files.values())));
        }
        if (!units.isEmpty()) {
            config.put("systemd", Map.of("units", new ArrayList<>(units.values())));
        }
        var spec = new LinkedHashMap<String, Object>();
        spec.put("baseOSExtensionsContainerImage", extensionsImage);
        spec.put("config", config);
        spec.put("extensions", new ArrayList<>(extensions));
        spec.put("fips", fips);
        spec.put("kernelArguments", new ArrayList<>(kernelArguments));
        spec.put("kernelType", kernelType);
        spec.put("osImageURL", osImageUrl);
        String name = "rendered-" + pool + "-" + md5Hex(Canonical.json(spec));
        return new Rendered(name, spec, List.copyOf(byName.keySet()));
    }

    private static String nonEmptyOr(Object value, String fallback) {
        return value instanceof String s && !s.isEmpty() ? s : fallback;
    }

    private static void addAll(LinkedHashSet<Object> into, Object list) {
        if (list instanceof List<?> l) {
            into.addAll(l);
        }
    }

    private static void keyed(Map<Object, Object> into, Object list, String key) {
        if (list instanceof List<?> l) {
            for (Object item : l) {
                if (item instanceof Map<?, ?> m) {
                    into.remove(m.get(key));
                    into.put(m.get(key), item);
                }
            }
        }
    }

    private static String md5Hex(String s) {
        try {
            byte[] digest = MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is a mandatory JDK algorithm", e);
        }
    }
}
