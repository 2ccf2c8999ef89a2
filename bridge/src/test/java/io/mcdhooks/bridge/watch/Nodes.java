package io.mcdhooks.bridge.watch;

import io.mcdhooks.bridge.mco.McnView;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.mco.NodeView;
import java.util.HashMap;
import java.util.Map;

/** Builds node states as the MCD leaves them, step by step. */
final class Nodes {

    private final String name;
    private final Map<String, String> annotations = new HashMap<>();
    private boolean unschedulable;
    private boolean ready = true;
    private McnView mcn;

    private Nodes(String name) {
        this.name = name;
    }

    /** A node at rest on {@code config}, as after its last update. */
    static Nodes atRest(String name, String config) {
        Nodes n = new Nodes(name);
        n.annotations.put(McoApi.CURRENT_CONFIG, config);
        n.annotations.put(McoApi.DESIRED_CONFIG, config);
        n.annotations.put(McoApi.STATE, McoApi.STATE_DONE);
        n.annotations.put(McoApi.REASON, "");
        n.annotations.put(McoApi.DESIRED_DRAIN, McoApi.UNCORDON_PREFIX + config);
        n.annotations.put(McoApi.LAST_APPLIED_DRAIN, McoApi.UNCORDON_PREFIX + config);
        n.annotations.put(McoApi.POST_CONFIG_ACTION, "");
        return n;
    }

    static Nodes unmanaged(String name) {
        return new Nodes(name);
    }

    Nodes set(String key, String value) {
        annotations.put(key, value);
        return this;
    }

    Nodes desired(String config) {
        return set(McoApi.DESIRED_CONFIG, config);
    }

    Nodes current(String config) {
        return set(McoApi.CURRENT_CONFIG, config);
    }

    Nodes state(String state) {
        return set(McoApi.STATE, state);
    }

    Nodes reason(String reason) {
        return set(McoApi.REASON, reason);
    }

    Nodes desiredDrain(String value) {
        return set(McoApi.DESIRED_DRAIN, value);
    }

    Nodes lastAppliedDrain(String value) {
        return set(McoApi.LAST_APPLIED_DRAIN, value);
    }

    Nodes postConfigAction(String value) {
        return set(McoApi.POST_CONFIG_ACTION, value);
    }

    Nodes cordoned(boolean value) {
        unschedulable = value;
        return this;
    }

    Nodes ready(boolean value) {
        ready = value;
        return this;
    }

    Nodes mcn(McnView value) {
        mcn = value;
        return this;
    }

    NodeView view() {
        return new NodeView(
                name,
                "uid-" + name,
                "1",
                null,
                Map.of("topology.kubernetes.io/zone", "zone-a"),
                annotations,
                unschedulable,
                ready,
                false,
                mcn);
    }
}
