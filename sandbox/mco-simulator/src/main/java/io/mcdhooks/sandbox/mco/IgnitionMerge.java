package io.mcdhooks.sandbox.mco;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Ignition's config merge ({@code config/merge/merge.go} of coreos/ignition, which the MCO's
 * {@code MergeMachineConfigs} applies child by child) on configs held as plain maps.
 *
 * <p>Objects merge field by field; a scalar the child sets replaces the parent's; lists merge by
 * key: an entry of the child with the key of a parent entry is merged into it in place, other
 * child entries are appended. The key is {@code path} (files, directories, links), {@code name}
 * (units, dropins, users, groups), {@code source} (resources), {@code device} (disks,
 * filesystems), else the entry itself, so lists of strings such as {@code sshAuthorizedKeys} are
 * unions without duplicates. The lists Ignition does not key ({@code append}, {@code options},
 * {@code mountOptions}) are concatenated.
 */
final class IgnitionMerge {

    private static final List<String> KEYS = List.of("path", "name", "source", "device", "url", "label");
    private static final Set<String> CONCATENATED = Set.of("append", "options", "mountOptions");

    private IgnitionMerge() {}

    /** {@code child} merged onto {@code parent}; neither is changed. */
    static Map<String, Object> merge(Map<?, ?> parent, Map<?, ?> child) {
        var out = new LinkedHashMap<String, Object>();
        parent.forEach((k, v) -> out.put(String.valueOf(k), v));
        for (var e : child.entrySet()) {
            String field = String.valueOf(e.getKey());
            out.put(field, mergeValue(field, out.get(field), e.getValue()));
        }
        return out;
    }

    private static Object mergeValue(String field, Object parent, Object child) {
        if (child == null) {
            return parent;
        }
        if (parent == null) {
            return child;
        }
        if (parent instanceof Map<?, ?> p && child instanceof Map<?, ?> c) {
            return merge(p, c);
        }
        if (parent instanceof List<?> p && child instanceof List<?> c) {
            return CONCATENATED.contains(field) ? concat(p, c) : mergeKeyed(p, c);
        }
        return child;
    }

    private static List<Object> concat(List<?> a, List<?> b) {
        var out = new ArrayList<Object>(a);
        out.addAll(b);
        return out;
    }

    private static List<Object> mergeKeyed(List<?> parent, List<?> child) {
        Map<Object, Object> childByKey = new LinkedHashMap<>();
        for (Object c : child) {
            childByKey.put(key(c), c);
        }
        var out = new ArrayList<Object>();
        Set<Object> parentKeys = new LinkedHashSet<>();
        for (Object p : parent) {
            Object k = key(p);
            parentKeys.add(k);
            Object c = childByKey.get(k);
            if (c == null) {
                out.add(p);
            } else if (p instanceof Map<?, ?> pm && c instanceof Map<?, ?> cm) {
                out.add(merge(pm, cm));
            } else {
                out.add(c);
            }
        }
        for (Object c : child) {
            if (!parentKeys.contains(key(c))) {
                out.add(c);
            }
        }
        return out;
    }

    private static Object key(Object item) {
        if (item instanceof Map<?, ?> m) {
            for (String k : KEYS) {
                if (m.get(k) != null) {
                    return k + "=" + m.get(k);
                }
            }
            return Canonical.json(m);
        }
        return Objects.toString(item);
    }
}
