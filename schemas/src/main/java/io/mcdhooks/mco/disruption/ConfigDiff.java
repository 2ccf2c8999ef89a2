package io.mcdhooks.mco.disruption;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * What differs between two rendered MachineConfig specs, as the MCD's {@code newMachineConfigDiff}
 * ({@code pkg/daemon/update.go}) and {@code CalculateConfigFileDiffs} /
 * {@code GetChangedConfigUnitsByType} ({@code pkg/controller/common/helpers.go}) see it. Specs are
 * plain maps as a MachineConfig's {@code spec} is stored (ignition inline in {@code config}).
 *
 * @param changedFiles paths of files added, removed or changed
 * @param changedUnits names of systemd units added, removed or changed
 */
public record ConfigDiff(
        boolean osUpdate,
        boolean kargs,
        boolean fips,
        boolean passwd,
        boolean files,
        boolean units,
        boolean kernelType,
        boolean extensions,
        List<String> changedFiles,
        List<String> changedUnits) {

    public ConfigDiff {
        changedFiles = List.copyOf(changedFiles);
        changedUnits = List.copyOf(changedUnits);
    }

    public static ConfigDiff between(Map<String, Object> oldSpec, Map<String, Object> newSpec) {
        Map<?, ?> oldIgn = map(oldSpec.get("config"));
        Map<?, ?> newIgn = map(newSpec.get("config"));
        Map<String, Object> oldFiles = keyed(map(oldIgn.get("storage")).get("files"), "path");
        Map<String, Object> newFiles = keyed(map(newIgn.get("storage")).get("files"), "path");
        Map<String, Object> oldUnits = keyed(map(oldIgn.get("systemd")).get("units"), "name");
        Map<String, Object> newUnits = keyed(map(newIgn.get("systemd")).get("units"), "name");
        return new ConfigDiff(
                !Objects.equals(string(oldSpec.get("osImageURL")), string(newSpec.get("osImageURL"))),
                listChanged(oldSpec.get("kernelArguments"), newSpec.get("kernelArguments")),
                Boolean.TRUE.equals(oldSpec.get("fips")) != Boolean.TRUE.equals(newSpec.get("fips")),
                !Objects.equals(empty(oldIgn.get("passwd")), empty(newIgn.get("passwd"))),
                !Objects.equals(
                        list(map(oldIgn.get("storage")).get("files")),
                        list(map(newIgn.get("storage")).get("files"))),
                !Objects.equals(
                        list(map(oldIgn.get("systemd")).get("units")),
                        list(map(newIgn.get("systemd")).get("units"))),
                !kernelType(oldSpec).equals(kernelType(newSpec)),
                listChanged(oldSpec.get("extensions"), newSpec.get("extensions")),
                changed(oldFiles, newFiles),
                changed(oldUnits, newUnits));
    }

    /** A change the MCD applies only with a reboot, whatever the policy: the OS itself moves. */
    public boolean osChanges() {
        return osUpdate || kargs || fips || kernelType || extensions;
    }

    /** Nothing differs that a node would notice. */
    public boolean isEmpty() {
        return !osChanges() && !passwd && !files && !units;
    }

    /** Human-readable OS changes, as the MCD's {@code osChangesString}. */
    public String osChangesString() {
        var out = new ArrayList<String>();
        if (osUpdate) {
            out.add("Upgrading OS");
        }
        if (extensions) {
            out.add("Installing extensions");
        }
        if (kernelType) {
            out.add("Changing kernel type");
        }
        if (kargs) {
            out.add("Changing kernel arguments");
        }
        return String.join("; ", out);
    }

    private static String kernelType(Map<String, Object> spec) {
        Object t = spec.get("kernelType");
        return t instanceof String s && !s.isEmpty() ? s : "default";
    }

    private static boolean listChanged(Object a, Object b) {
        List<?> la = list(a);
        List<?> lb = list(b);
        return !(la.isEmpty() && lb.isEmpty()) && !la.equals(lb);
    }

    private static List<String> changed(Map<String, Object> before, Map<String, Object> after) {
        var out = new TreeSet<String>();
        for (var e : before.entrySet()) {
            if (!after.containsKey(e.getKey()) || !Objects.equals(e.getValue(), after.get(e.getKey()))) {
                out.add(e.getKey());
            }
        }
        for (String k : after.keySet()) {
            if (!before.containsKey(k)) {
                out.add(k);
            }
        }
        return List.copyOf(out);
    }

    private static Map<String, Object> keyed(Object list, String key) {
        var out = new LinkedHashMap<String, Object>();
        for (Object item : list(list)) {
            if (item instanceof Map<?, ?> m && m.get(key) != null) {
                out.put(String.valueOf(m.get(key)), item);
            }
        }
        return out;
    }

    /** An absent section, an empty one and one holding only empty lists compare equal. */
    private static Object empty(Object o) {
        if (o == null
                || (o instanceof Map<?, ?> m
                        && m.values().stream().allMatch(v -> v == null || v instanceof List<?> l && l.isEmpty()))) {
            return null;
        }
        return o;
    }

    private static String string(Object o) {
        return o == null ? "" : o.toString();
    }

    private static Map<?, ?> map(Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }

    private static List<?> list(Object o) {
        return o instanceof List<?> l ? l : List.of();
    }
}
