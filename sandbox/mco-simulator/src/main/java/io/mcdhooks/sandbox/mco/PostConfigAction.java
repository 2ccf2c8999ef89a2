package io.mcdhooks.sandbox.mco;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the MCD does after writing a new config, decided from the old and new rendered specs.
 *
 * <p>Rules (a subset of the MCD's): any OS change (osImageURL, kernelType, extensions,
 * kernelArguments, fips) or any systemd unit change reboots; changes only to the container
 * registry files reload CRI-O; a change only to SSH keys ({@code passwd}) needs nothing; every
 * other file change reboots.
 */
public enum PostConfigAction {
    /** Event {@code Reboot}, {@code post-config-action=Rebooting}, the node reboots. */
    REBOOT,
    /** Event {@code ServiceReload} (crio). */
    SERVICE_RELOAD,
    /** Event {@code SkipReboot}. */
    NONE;

    private static final Set<String> RELOAD_FILES =
            Set.of("/etc/containers/registries.conf", "/etc/containers/policy.json");
    private static final List<String> OS_FIELDS =
            List.of("osImageURL", "kernelType", "extensions", "kernelArguments", "fips");

    public static PostConfigAction between(Map<String, Object> oldSpec, Map<String, Object> newSpec) {
        if (osChanges(oldSpec, newSpec)) {
            return REBOOT;
        }
        Map<?, ?> oldConfig = map(oldSpec.get("config"));
        Map<?, ?> newConfig = map(newSpec.get("config"));
        if (!Objects.equals(
                keyed(map(oldConfig.get("systemd")).get("units"), "name"),
                keyed(map(newConfig.get("systemd")).get("units"), "name"))) {
            return REBOOT;
        }
        Map<Object, Object> oldFiles = keyed(map(oldConfig.get("storage")).get("files"), "path");
        Map<Object, Object> newFiles = keyed(map(newConfig.get("storage")).get("files"), "path");
        var changed = new HashSet<>();
        for (var path : union(oldFiles.keySet(), newFiles.keySet())) {
            if (!Objects.equals(oldFiles.get(path), newFiles.get(path))) {
                changed.add(path);
            }
        }
        if (!changed.isEmpty()) {
            return RELOAD_FILES.containsAll(changed) ? SERVICE_RELOAD : REBOOT;
        }
        return NONE;
    }

    /** Whether the OS itself changes (rpm-ostree work: image, kernel, extensions, kargs). */
    public static boolean osChanges(Map<String, Object> oldSpec, Map<String, Object> newSpec) {
        for (String field : OS_FIELDS) {
            if (!Objects.equals(normalise(oldSpec.get(field)), normalise(newSpec.get(field)))) {
                return true;
            }
        }
        return false;
    }

    private static Object normalise(Object value) {
        if (value == null || "".equals(value) || (value instanceof List<?> l && l.isEmpty())) {
            return null;
        }
        return value;
    }

    private static Map<?, ?> map(Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }

    private static Map<Object, Object> keyed(Object list, String key) {
        var out = new HashMap<Object, Object>();
        if (list instanceof List<?> l) {
            for (Object item : l) {
                if (item instanceof Map<?, ?> m) {
                    out.put(m.get(key), item);
                }
            }
        }
        return out;
    }

    private static Set<Object> union(Set<Object> a, Set<Object> b) {
        var out = new HashSet<>(a);
        out.addAll(b);
        return out;
    }
}
