package io.mcdhooks.mco.disruption;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The MCD's rule for {@code /etc/containers/registries.conf} changes that need no drain
 * ({@code isSafeContainerRegistryConfChanges}, {@code pkg/daemon/drain.go}): safe are only added
 * mirrors that pull by digest only ({@code pull-from-mirror = "digest-only"}), added registries
 * whose mirrors all do, and added unqualified-search registries at the end; removing or changing
 * anything else is not safe. The files are the TOML of {@code containers-registries.conf(5)} v2.
 */
public final class RegistriesConf {

    private static final TomlMapper TOML = new TomlMapper();
    private static final String DIGEST_ONLY = "digest-only";

    private RegistriesConf() {}

    /** Whether moving from {@code before} to {@code after} (TOML text; "" = absent) is safe. */
    public static boolean isSafeChange(String before, String after) {
        Map<String, Object> oldConf = parse(before);
        Map<String, Object> newConf = parse(after);
        List<?> oldSearch = list(oldConf.get("unqualified-search-registries"));
        List<?> newSearch = list(newConf.get("unqualified-search-registries"));
        if (oldSearch.size() > newSearch.size()) {
            return false;
        }
        for (int i = 0; i < oldSearch.size(); i++) {
            if (!Objects.equals(oldSearch.get(i), newSearch.get(i))) {
                return false;
            }
        }
        Map<String, Map<?, ?>> oldRegs = byScope(oldConf);
        Map<String, Map<?, ?>> newRegs = byScope(newConf);
        if (!newRegs.keySet().containsAll(oldRegs.keySet())) {
            return false;
        }
        for (var e : newRegs.entrySet()) {
            Map<?, ?> newReg = e.getValue();
            Map<?, ?> oldReg = oldRegs.get(e.getKey());
            if (oldReg == null) {
                if (!allDigestOnly(newReg)) {
                    return false;
                }
            } else if (!oldReg.equals(newReg) && !safeRegistryChange(oldReg, newReg)) {
                return false;
            }
        }
        return true;
    }

    private static boolean safeRegistryChange(Map<?, ?> oldReg, Map<?, ?> newReg) {
        for (String field : List.of("prefix", "location", "blocked", "insecure")) {
            if (!Objects.equals(normal(oldReg.get(field)), normal(newReg.get(field)))) {
                return false;
            }
        }
        List<?> oldMirrors = list(oldReg.get("mirror"));
        List<?> newMirrors = list(newReg.get("mirror"));
        for (Object m : oldMirrors) {
            if (mirror(newMirrors, location(m)) == null) {
                return false;
            }
        }
        boolean registryDigestOnly = Boolean.TRUE.equals(newReg.get("mirror-by-digest-only"));
        for (Object m : newMirrors) {
            Map<?, ?> old = mirror(oldMirrors, location(m));
            Object pull = normal(((Map<?, ?>) m).get("pull-from-mirror"));
            if (old != null) {
                if (!Objects.equals(pull, normal(old.get("pull-from-mirror"))) && !DIGEST_ONLY.equals(pull)) {
                    return false;
                }
            } else if (!DIGEST_ONLY.equals(pull) && !registryDigestOnly) {
                return false;
            }
        }
        return true;
    }

    private static boolean allDigestOnly(Map<?, ?> reg) {
        List<?> mirrors = list(reg.get("mirror"));
        if (mirrors.isEmpty()) {
            return Boolean.TRUE.equals(reg.get("mirror-by-digest-only"));
        }
        return mirrors.stream().allMatch(m -> DIGEST_ONLY.equals(((Map<?, ?>) m).get("pull-from-mirror")));
    }

    private static Map<String, Map<?, ?>> byScope(Map<String, Object> conf) {
        var out = new HashMap<String, Map<?, ?>>();
        for (Object r : list(conf.get("registry"))) {
            if (r instanceof Map<?, ?> reg) {
                Object prefix = normal(reg.get("prefix"));
                out.put(String.valueOf(prefix != null ? prefix : normal(reg.get("location"))), reg);
            }
        }
        return out;
    }

    private static Map<?, ?> mirror(List<?> mirrors, Object location) {
        for (Object m : mirrors) {
            if (m instanceof Map<?, ?> mm && Objects.equals(location, mm.get("location"))) {
                return mm;
            }
        }
        return null;
    }

    private static Object location(Object mirror) {
        return mirror instanceof Map<?, ?> m ? m.get("location") : null;
    }

    /** Go's zero values: an absent string or bool equals "" or false. */
    private static Object normal(Object o) {
        return "".equals(o) || Boolean.FALSE.equals(o) ? null : o;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> parse(String toml) {
        if (toml == null || toml.isBlank()) {
            return Map.of();
        }
        try {
            return TOML.readValue(toml, Map.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "failed decoding TOML content from file " + NodeDisruptionPolicy.REGISTRIES_CONF + ": "
                            + e.getOriginalMessage(),
                    e);
        }
    }

    private static List<?> list(Object o) {
        return o instanceof List<?> l ? l : List.of();
    }
}
