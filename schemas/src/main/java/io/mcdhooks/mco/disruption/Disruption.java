package io.mcdhooks.mco.disruption;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What applying a change does to a node, by the MCD's own rules: the node disruption actions of
 * the diff ({@link DisruptionActions#calculate}), whether the MCD drains first
 * ({@link DisruptionActions#drainRequired}) and whether it reboots. Single-node topology skips the
 * drain whatever the actions say; that is the topology's business, not the change's.
 *
 * @param actions the actions, as the MCD logs them: one Reboot, one None, or the rest in order
 */
public record Disruption(Kind kind, boolean drain, boolean reboot, List<DisruptionAction> actions) {

    /** The class of a change, from most to least disruptive. */
    public enum Kind {
        /** Drain, apply, reboot: the OS moved or a file or unit the policy does not cover changed. */
        REBOOT("reboot"),
        /** Drain and apply without a reboot (a Drain action, or an unsafe registries.conf change). */
        DRAIN("drain"),
        /** No drain, no reboot: services are reloaded or restarted in place. */
        SERVICES("services"),
        /** No drain, no reboot, no service touched: the files are written and that is all. */
        NONE("none");

        private final String wire;

        Kind(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }

    public Disruption {
        Objects.requireNonNull(kind, "kind");
        actions = List.copyOf(actions);
    }

    /** The disruption of moving a node from {@code oldSpec} to {@code newSpec} (rendered MachineConfig specs). */
    public static Disruption of(Map<String, Object> oldSpec, Map<String, Object> newSpec, NodeDisruptionPolicy policy) {
        List<DisruptionAction> actions = DisruptionActions.calculate(oldSpec, newSpec, policy);
        boolean reboot = DisruptionActions.rebootRequired(actions);
        boolean drain = DisruptionActions.drainRequired(actions, oldSpec, newSpec);
        Kind kind;
        if (reboot) {
            kind = Kind.REBOOT;
        } else if (drain) {
            kind = Kind.DRAIN;
        } else if (actions.stream().allMatch(a -> a.type() == DisruptionAction.Type.NONE)) {
            kind = Kind.NONE;
        } else {
            kind = Kind.SERVICES;
        }
        return new Disruption(kind, drain, reboot, actions);
    }

    /** One line for humans: {@code services (Reload crio.service)}. */
    public String describe() {
        if (kind == Kind.REBOOT || kind == Kind.NONE) {
            return kind.wire();
        }
        return kind.wire() + " ("
                + String.join(
                        ", ", actions.stream().map(DisruptionAction::toString).toList()) + ")";
    }
}
