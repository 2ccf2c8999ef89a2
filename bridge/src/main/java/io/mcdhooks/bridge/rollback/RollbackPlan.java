package io.mcdhooks.bridge.rollback;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * How to take a pool back from a rendered config whose post-update check failed to the one before
 * it, the way the MCO expects: by putting the MachineConfigs back as they were, so that it renders
 * the previous config again and moves the pool's nodes to it through their gates like any update.
 * Only the administrator's MachineConfigs are touched ({@link Ownership}); a change that involves
 * any other (an OpenShift update, a controller's render) is refused, and so is a rollback with no
 * snapshot of the previous config. Pure.
 */
public sealed interface RollbackPlan {

    /** Why a rollback is not done. */
    enum Reason {
        /** No snapshot of the previous config's MachineConfigs was recorded (the bridge came later). */
        NoSnapshot,
        /** The change is not only the administrator's: a controller's or the release's configs changed. */
        NotAnAdministratorChange
    }

    /** The rollback refused, with what to tell people. */
    record Refused(Reason reason, String message) implements RollbackPlan {}

    /** The writes that put the previous config's MachineConfigs back, in name order. */
    record Steps(String from, String to, List<Step> steps) implements RollbackPlan {
        public Steps {
            steps = List.copyOf(steps);
        }
    }

    /** What is written to one MachineConfig. */
    enum Action {
        /** It exists and changed (its spec, or the labels that put it in the pool): its spec and labels as they were. */
        RESTORE,
        /** It was deleted: created again as it was. */
        RECREATE,
        /** It was added: deleted. */
        DELETE
    }

    /** @param config what it is written back to; for {@link Action#DELETE}, what it is now */
    record Step(Action action, String name, SourceConfig config) {}

    /**
     * @param previous the snapshot of the config to go back to, or null
     * @param failing the rendered config whose check failed
     * @param failingSources the MachineConfigs {@code failing} was made from (the pool's
     *     {@code spec.configuration.source})
     * @param current every MachineConfig named by either, as the cluster has it now (absent: deleted)
     */
    static RollbackPlan of(
            ConfigSnapshot previous, String failing, List<String> failingSources, Map<String, SourceConfig> current) {
        if (previous == null) {
            return new Refused(
                    Reason.NoSnapshot,
                    "no snapshot of the MachineConfigs before " + failing
                            + " was recorded (the bridge was not running when the pool first targeted that config)");
        }
        var names = new TreeSet<String>();
        previous.sources().forEach(s -> names.add(s.name()));
        names.addAll(failingSources);
        List<Step> steps = new ArrayList<>();
        List<String> notAdministrators = new ArrayList<>();
        for (String name : names) {
            SourceConfig was = previous.source(name).orElse(null);
            SourceConfig now = current.get(name);
            Step step = step(name, was, now, failingSources.contains(name));
            if (step == null) {
                continue;
            }
            var owners = new TreeSet<String>();
            if (was != null) {
                owners.addAll(was.owners());
            }
            if (now != null) {
                owners.addAll(now.owners());
            }
            if (!owners.isEmpty()) {
                notAdministrators.add(name + " (" + String.join(", ", owners) + ")");
            }
            steps.add(step);
        }
        if (!notAdministrators.isEmpty()) {
            return new Refused(
                    Reason.NotAnAdministratorChange,
                    "the change from " + previous.renderedConfig() + " to " + failing
                            + " involves MachineConfigs that are not the administrator's: "
                            + String.join("; ", notAdministrators));
        }
        if (steps.isEmpty()) {
            return new Refused(
                    Reason.NotAnAdministratorChange,
                    "no MachineConfig the administrator wrote changed from " + previous.renderedConfig() + " to "
                            + failing + ": the change is the cluster's own (an OpenShift update, or a controller's"
                            + " render)");
        }
        return new Steps(failing, previous.renderedConfig(), steps);
    }

    private static Step step(String name, SourceConfig was, SourceConfig now, boolean stillSource) {
        if (was == null) {
            return now == null || !stillSource ? null : new Step(Action.DELETE, name, now);
        }
        if (now == null) {
            return new Step(Action.RECREATE, name, was);
        }
        boolean same = stillSource && was.sameAs(now);
        return same ? null : new Step(Action.RESTORE, name, was);
    }
}
