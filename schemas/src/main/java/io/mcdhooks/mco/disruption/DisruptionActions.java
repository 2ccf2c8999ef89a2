package io.mcdhooks.mco.disruption;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The MCD's choice of what to do for a config change under the cluster's node disruption policy,
 * as a pure function: {@code calculatePostConfigChangeNodeDisruptionAction} and
 * {@code calculatePostConfigChangeNodeDisruptionActionFromMCDiffs} ({@code pkg/daemon/update.go})
 * and {@code isDrainRequiredForNodeDisruptionActions} ({@code pkg/daemon/drain.go}).
 */
public final class DisruptionActions {

    private DisruptionActions() {}

    /**
     * The actions for the change from {@code oldSpec} to {@code newSpec}: a single Reboot when any
     * is a reboot or the OS moves; a single None when nothing needs more; else the actions of every
     * changed file, unit and the SSH keys, in that order, without the redundant None entries.
     */
    public static List<DisruptionAction> calculate(
            Map<String, Object> oldSpec, Map<String, Object> newSpec, NodeDisruptionPolicy policy) {
        return calculate(ConfigDiff.between(oldSpec, newSpec), policy);
    }

    public static List<DisruptionAction> calculate(ConfigDiff diff, NodeDisruptionPolicy policy) {
        if (diff.osChanges()) {
            return List.of(DisruptionAction.reboot());
        }
        if (!diff.files() && !diff.units() && !diff.passwd()) {
            return List.of(DisruptionAction.none());
        }
        var actions = new ArrayList<DisruptionAction>();
        for (String path : diff.changedFiles()) {
            List<DisruptionAction> found = policy.fileActions(path);
            if (found == null) {
                return List.of(DisruptionAction.reboot());
            }
            actions.addAll(found);
        }
        for (String unit : diff.changedUnits()) {
            List<DisruptionAction> found = policy.unitActions(unit);
            if (found == null) {
                return List.of(DisruptionAction.reboot());
            }
            actions.addAll(found);
        }
        if (diff.passwd()) {
            actions.addAll(policy.sshKey());
        }
        if (has(actions, DisruptionAction.Type.REBOOT)) {
            return List.of(DisruptionAction.reboot());
        }
        if (has(actions, DisruptionAction.Type.NONE)) {
            List<DisruptionAction> rest = actions.stream()
                    .filter(a -> a.type() != DisruptionAction.Type.NONE)
                    .toList();
            return rest.isEmpty() ? List.of(DisruptionAction.none()) : rest;
        }
        return List.copyOf(actions);
    }

    /**
     * Whether the MCD asks for a cordon and drain: for Reboot and Drain actions, and for Special
     * (registries.conf) unless the change is safe ({@link RegistriesConf#isSafeChange}).
     */
    public static boolean drainRequired(
            List<DisruptionAction> actions, Map<String, Object> oldSpec, Map<String, Object> newSpec) {
        if (has(actions, DisruptionAction.Type.REBOOT) || has(actions, DisruptionAction.Type.DRAIN)) {
            return true;
        }
        if (has(actions, DisruptionAction.Type.SPECIAL)) {
            return !RegistriesConf.isSafeChange(
                    IgnitionFiles.contents(oldSpec, NodeDisruptionPolicy.REGISTRIES_CONF),
                    IgnitionFiles.contents(newSpec, NodeDisruptionPolicy.REGISTRIES_CONF));
        }
        return false;
    }

    /** Whether the node reboots to apply the change. */
    public static boolean rebootRequired(List<DisruptionAction> actions) {
        return has(actions, DisruptionAction.Type.REBOOT);
    }

    static boolean has(List<DisruptionAction> actions, DisruptionAction.Type type) {
        return actions.stream().anyMatch(a -> a.type() == type);
    }
}
