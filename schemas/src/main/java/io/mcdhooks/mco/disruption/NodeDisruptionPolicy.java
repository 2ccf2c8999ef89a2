package io.mcdhooks.mco.disruption;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The cluster's node disruption policy: which actions a change of a file, a systemd unit or the
 * SSH keys takes. {@link #defaults()} is the MCO's built-in policy ({@code pkg/apihelpers/apihelpers.go}
 * {@code defaultClusterPolicies}); {@link #merge} adds an administrator's
 * {@code MachineConfiguration.spec.nodeDisruptionPolicy} as {@code MergeClusterPolicies} does. The
 * result is what the operator writes to {@code status.nodeDisruptionPolicyStatus.clusterPolicies}.
 */
public record NodeDisruptionPolicy(List<FilePolicy> files, List<UnitPolicy> units, List<DisruptionAction> sshKey) {

    public static final String REGISTRIES_CONF = "/etc/containers/registries.conf";
    private static final String CRIO = "crio.service";
    private static final String KUBELET = "kubelet.service";
    private static final String UPDATE_CA_TRUST = "coreos-update-ca-trust.service";
    private static final String IRI_REGISTRY = "iri-registry.service";

    /** The actions for a file path, or for every file under a directory path. */
    public record FilePolicy(String path, List<DisruptionAction> actions) {
        public FilePolicy {
            actions = List.copyOf(actions);
        }
    }

    /** The actions for a systemd unit. */
    public record UnitPolicy(String name, List<DisruptionAction> actions) {
        public UnitPolicy {
            actions = List.copyOf(actions);
        }
    }

    public NodeDisruptionPolicy {
        files = List.copyOf(files);
        units = List.copyOf(units);
        sshKey = List.copyOf(sshKey);
    }

    /** The MCO's default policy (main of 2026-08). */
    public static NodeDisruptionPolicy defaults() {
        return new NodeDisruptionPolicy(
                List.of(
                        file("/var/lib/kubelet/config.json", DisruptionAction.none()),
                        file("/etc/machine-config-daemon/no-reboot/containers-gpg.pub", DisruptionAction.reload(CRIO)),
                        file("/etc/containers/policy.json", DisruptionAction.reload(CRIO)),
                        file(REGISTRIES_CONF, DisruptionAction.special()),
                        file("/etc/containers/registries.d", DisruptionAction.reload(CRIO)),
                        file("/etc/crio/policies", DisruptionAction.reload(CRIO)),
                        file("/etc/nmstate/openshift", DisruptionAction.none()),
                        file(
                                "/etc/pki/ca-trust/source/anchors/openshift-config-user-ca-bundle.crt",
                                DisruptionAction.restart(UPDATE_CA_TRUST),
                                DisruptionAction.restart(CRIO)),
                        file("/etc/kubernetes/credential-providers", DisruptionAction.restart(KUBELET)),
                        file(
                                "/etc/systemd/system/kubelet.service.d/40-kubelet-crio-image-credential-provider.conf",
                                DisruptionAction.daemonReload(),
                                DisruptionAction.restart(KUBELET)),
                        file("/etc/iri-registry", DisruptionAction.restart(IRI_REGISTRY)),
                        file("/usr/local/bin/load-registry-image.sh", DisruptionAction.restart(IRI_REGISTRY)),
                        file(
                                "/etc/pki/ca-trust/source/anchors/iri-root-ca.crt",
                                DisruptionAction.restart(UPDATE_CA_TRUST))),
                List.of(new UnitPolicy(
                        IRI_REGISTRY,
                        List.of(DisruptionAction.daemonReload(), DisruptionAction.restart(IRI_REGISTRY)))),
                List.of(DisruptionAction.none()));
    }

    /**
     * The defaults with an administrator's {@code spec.nodeDisruptionPolicy} merged in, as the
     * MCO's {@code MergeClusterPolicies}: a file or unit entry replaces the default of the same
     * path or name in place, others are appended; SSH key actions replace the default when given.
     */
    public static NodeDisruptionPolicy merge(Map<String, Object> spec) {
        NodeDisruptionPolicy base = defaults();
        var files = new ArrayList<>(base.files);
        for (Object raw : list(spec.get("files"))) {
            Map<?, ?> m = map(raw);
            var entry = new FilePolicy(string(m.get("path"), "files[].path"), actions(m.get("actions")));
            replaceOrAdd(files, entry, f -> f.path().equals(entry.path()));
        }
        var units = new ArrayList<>(base.units);
        for (Object raw : list(spec.get("units"))) {
            Map<?, ?> m = map(raw);
            var entry = new UnitPolicy(string(m.get("name"), "units[].name"), actions(m.get("actions")));
            replaceOrAdd(units, entry, u -> u.name().equals(entry.name()));
        }
        List<DisruptionAction> ssh = actions(map(spec.get("sshkey")).get("actions"));
        return new NodeDisruptionPolicy(files, units, ssh.isEmpty() ? base.sshKey : ssh);
    }

    /** Reads {@code status.nodeDisruptionPolicyStatus.clusterPolicies}. */
    public static NodeDisruptionPolicy fromStatus(Map<String, Object> clusterPolicies) {
        var files = new ArrayList<FilePolicy>();
        for (Object raw : list(clusterPolicies.get("files"))) {
            Map<?, ?> m = map(raw);
            files.add(new FilePolicy(string(m.get("path"), "files[].path"), actions(m.get("actions"))));
        }
        var units = new ArrayList<UnitPolicy>();
        for (Object raw : list(clusterPolicies.get("units"))) {
            Map<?, ?> m = map(raw);
            units.add(new UnitPolicy(string(m.get("name"), "units[].name"), actions(m.get("actions"))));
        }
        return new NodeDisruptionPolicy(
                files, units, actions(map(clusterPolicies.get("sshkey")).get("actions")));
    }

    /** The {@code clusterPolicies} object the operator writes. */
    public Map<String, Object> toStatus() {
        var out = new LinkedHashMap<String, Object>();
        out.put(
                "files",
                files.stream()
                        .map(f -> Map.of("path", f.path(), "actions", api(f.actions())))
                        .toList());
        out.put(
                "units",
                units.stream()
                        .map(u -> Map.of("name", u.name(), "actions", api(u.actions())))
                        .toList());
        out.put("sshkey", Map.of("actions", api(sshKey)));
        return out;
    }

    /**
     * The actions of the longest policy path that is {@code path} or a directory above it, as the
     * MCO's {@code FindClosestFilePolicyPathMatch}; null if none matches.
     */
    public List<DisruptionAction> fileActions(String path) {
        List<DisruptionAction> found = null;
        int longest = 0;
        for (FilePolicy f : files) {
            if ((path.equals(f.path()) || isUnder(f.path(), path)) && f.path().length() > longest) {
                longest = f.path().length();
                found = f.actions();
            }
        }
        return found;
    }

    /** The actions for a unit, or null if none is defined. */
    public List<DisruptionAction> unitActions(String name) {
        for (UnitPolicy u : units) {
            if (u.name().equals(name)) {
                return u.actions();
            }
        }
        return null;
    }

    private static boolean isUnder(String dir, String path) {
        String prefix = dir.endsWith("/") ? dir : dir + "/";
        return path.startsWith(prefix);
    }

    private static FilePolicy file(String path, DisruptionAction... actions) {
        return new FilePolicy(path, List.of(actions));
    }

    private static <T> void replaceOrAdd(List<T> into, T entry, Predicate<T> same) {
        for (int i = 0; i < into.size(); i++) {
            if (same.test(into.get(i))) {
                into.set(i, entry);
                return;
            }
        }
        into.add(entry);
    }

    private static List<Map<String, Object>> api(List<DisruptionAction> actions) {
        return actions.stream().map(DisruptionAction::toApi).toList();
    }

    private static List<DisruptionAction> actions(Object raw) {
        return list(raw).stream().map(DisruptionAction::fromApi).toList();
    }

    private static String string(Object o, String field) {
        if (o instanceof String s && !s.isEmpty()) {
            return s;
        }
        throw new IllegalArgumentException("node disruption policy entry without " + field + ": " + o);
    }

    private static List<?> list(Object o) {
        return o instanceof List<?> l ? l : List.of();
    }

    private static Map<?, ?> map(Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }
}
