package io.mcdhooks.bridge.mco;

import io.mcdhooks.mco.disruption.NodeDisruptionPolicy;
import io.mcdhooks.schemas.GateRequest;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The rendered configs the bridge has read and the cluster's node disruption policy, and what
 * moving between two configs does ({@link ChangeClassifier}), remembered per pair: a diff reads
 * every file of both configs, and the same pair is asked about for every node of a pool.
 * Not thread-safe: one event loop owns it.
 */
public final class RenderedConfigs {

    private final Map<String, RenderedConfig> configs = new HashMap<>();
    private final Map<String, Optional<GateRequest.Disruption>> classified = new HashMap<>();
    private NodeDisruptionPolicy policy;

    /** Adds or replaces a config; true if it was not known, so changes involving it may now be classified. */
    public boolean put(RenderedConfig config) {
        boolean added = configs.put(config.name(), config) == null;
        if (added) {
            classified.clear();
        }
        return added;
    }

    public RenderedConfig get(String name) {
        return configs.get(name);
    }

    /** {@code MachineConfiguration/cluster}'s merged policy; null when not published or not served. */
    public void policy(NodeDisruptionPolicy policy) {
        this.policy = policy;
        classified.clear();
    }

    /** What moving a node from {@code from} to {@code to} does; null when not known. */
    public GateRequest.Disruption disruption(String from, String to) {
        if (from == null || to == null || from.equals(to)) {
            return null;
        }
        return classified
                .computeIfAbsent(
                        from + " " + to,
                        k -> Optional.ofNullable(ChangeClassifier.classify(configs.get(from), configs.get(to), policy)))
                .orElse(null);
    }
}
