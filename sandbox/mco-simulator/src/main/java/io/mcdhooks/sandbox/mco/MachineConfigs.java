package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * MachineConfigs for a role (the label {@code machineconfiguration.openshift.io/role}), shaped like
 * the ones an administrator applies: {@code kernelType}, {@code extensions}, {@code osImageURL},
 * {@code kernelArguments}, or a file.
 */
public final class MachineConfigs {

    private MachineConfigs() {}

    /** {@code kernelType: realtime} (or {@code 64k-pages}, {@code default}). Needs a reboot. */
    public static GenericKubernetesResource kernelType(String name, String role, String type) {
        return of(name, role, Map.of("kernelType", type));
    }

    /** RHCOS extensions such as {@code usbguard}. Needs a reboot. */
    public static GenericKubernetesResource extensions(String name, String role, List<String> extensions) {
        return of(name, role, Map.of("extensions", List.copyOf(extensions)));
    }

    /** A new OS image (what a cluster upgrade changes). Needs a reboot. */
    public static GenericKubernetesResource osImageUrl(String name, String role, String url) {
        return of(name, role, Map.of("osImageURL", url));
    }

    /** Extra kernel arguments. Needs a reboot. */
    public static GenericKubernetesResource kernelArguments(String name, String role, List<String> arguments) {
        return of(name, role, Map.of("kernelArguments", List.copyOf(arguments)));
    }

    /**
     * One file (mode 0644). What it takes depends on the node disruption policy: e.g. a safe change
     * of {@code /etc/containers/registries.conf} reloads CRI-O without a drain, a file no policy
     * covers drains and reboots.
     */
    public static GenericKubernetesResource file(String name, String role, String path, String contents) {
        var file = new LinkedHashMap<String, Object>();
        file.put(
                "contents",
                Map.of(
                        "source",
                        "data:,"
                                + URLEncoder.encode(contents, StandardCharsets.UTF_8)
                                        .replace("+", "%20")));
        file.put("mode", 420);
        file.put("overwrite", true);
        file.put("path", path);
        return ignition(name, role, "storage", Map.of("files", List.of(file)));
    }

    /**
     * SSH keys of the {@code core} user (as the installer's {@code 99-<role>-ssh}); keys of all
     * MachineConfigs are joined. Needs neither drain nor reboot under the default policy.
     */
    public static GenericKubernetesResource sshKeys(String name, String role, List<String> keys) {
        return ignition(
                name,
                role,
                "passwd",
                Map.of("users", List.of(Map.of("name", "core", "sshAuthorizedKeys", List.copyOf(keys)))));
    }

    /** A systemd unit; a unit change reboots unless the policy names the unit. */
    public static GenericKubernetesResource unit(String name, String role, String unit, String contents) {
        return ignition(
                name,
                role,
                "systemd",
                Map.of("units", List.of(Map.of("name", unit, "enabled", true, "contents", contents))));
    }

    /** A MachineConfig whose ignition config holds one section. */
    private static GenericKubernetesResource ignition(String name, String role, String section, Object value) {
        return of(name, role, Map.of("config", Map.of("ignition", Map.of("version", "3.4.0"), section, value)));
    }

    /** A MachineConfig with the given spec fields. */
    public static GenericKubernetesResource of(String name, String role, Map<String, Object> spec) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(Mco.API_VERSION)
                .withKind("MachineConfig")
                .withNewMetadata()
                .withName(name)
                .addToLabels(Mco.ROLE_LABEL, role)
                .endMetadata()
                .addToAdditionalProperties("spec", new LinkedHashMap<>(spec))
                .build();
    }
}
