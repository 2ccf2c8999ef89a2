package io.mcdhooks.bridge.mco;

import io.mcdhooks.mco.disruption.ConfigDiff;
import io.mcdhooks.mco.disruption.Disruption;
import io.mcdhooks.mco.disruption.NodeDisruptionPolicy;
import io.mcdhooks.schemas.GateRequest;
import java.util.List;

/**
 * What a pending change does to a node, by the MCO's own rules ({@link Disruption}, in
 * {@code io.mcdhooks.mco} in the schemas module, which the simulator plays too): the node disruption actions of the diff from
 * the node's current rendered config to its target under the cluster's merged policy. Pure.
 *
 * <p>Unknown (null) when the policy has not been published (but for an OS change, which reboots
 * whatever the policy), a rendered config or its spec has not been read, or the diff holds what the rules cannot judge (a registries.conf that is not TOML):
 * callers then assume the change may not drain, the case that needs the stronger lever.
 */
public final class ChangeClassifier {

    private static final NodeDisruptionPolicy NO_POLICY = new NodeDisruptionPolicy(List.of(), List.of(), List.of());

    private ChangeClassifier() {}

    public static GateRequest.Disruption classify(RenderedConfig from, RenderedConfig to, NodeDisruptionPolicy policy) {
        if (from == null || to == null || from.spec() == null || to.spec() == null) {
            return null;
        }
        try {
            if (policy == null) {
                // The MCD reboots for an OS change whatever the policy says; anything else needs it.
                return ConfigDiff.between(from.spec(), to.spec()).osChanges()
                        ? wire(Disruption.of(from.spec(), to.spec(), NO_POLICY))
                        : null;
            }
            return wire(Disruption.of(from.spec(), to.spec(), policy));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static GateRequest.Disruption wire(Disruption d) {
        return new GateRequest.Disruption(
                d.kind().wire(),
                d.drain(),
                d.reboot(),
                d.actions().stream()
                        .map(a -> new GateRequest.Action(a.type().apiName(), a.service()))
                        .toList());
    }

    /** Whether a pre-update gate can hold the node at its drain: only a change known to drain. */
    public static boolean drains(GateRequest.Disruption disruption) {
        return disruption != null && disruption.drain();
    }

    /** One line for humans: {@code services (Reload crio.service)}, or {@code unknown}. */
    public static String describe(GateRequest.Disruption d) {
        if (d == null) {
            return "unknown";
        }
        if (d.actions().isEmpty() || "reboot".equals(d.kind()) || "none".equals(d.kind())) {
            return d.kind();
        }
        return d.kind() + " ("
                + String.join(
                        ", ",
                        d.actions().stream()
                                .map(a -> a.service() == null ? a.type() : a.type() + " " + a.service())
                                .toList())
                + ")";
    }
}
