package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's Machine Config Daemon, plus the machine under it (apply, reboot, kubelet readiness).
 *
 * <p>Level-triggered: on every Node event and timer it reads the node from the cache and acts when
 * {@code desiredConfig ≠ currentConfig}. Its only private state is what a real MCD keeps on the
 * node's disk: the phase of the update in progress and its target. All methods run under the
 * node's key on the {@link SimClock}, never concurrently.
 */
final class MachineConfigDaemon {

    private static final Logger LOG = LoggerFactory.getLogger(MachineConfigDaemon.class);
    private static final int MAX_REASON = 2000;

    private enum Phase {
        IDLE,
        PREPARING,
        DRAINING,
        APPLYING,
        REBOOTING,
        UNCORDONING,
        DEGRADED
    }

    private final SimContext sim;
    private final String node;
    private final String key;
    private Phase phase = Phase.IDLE;
    private String target;
    private int attempt;
    private Instant deadline;
    private boolean stuckInReboot;

    MachineConfigDaemon(SimContext sim, String node) {
        this.sim = sim.as(Identities.machineConfigDaemon(node));
        this.node = node;
        this.key = "node/" + node;
    }

    /** Called on every event of this node: start an update when one is assigned. */
    void reconcile() {
        sim.clock.run(key, this::sync);
    }

    /** Faults were cleared: retry a degraded update, or finish a reboot that never ended. */
    void faultsCleared() {
        sim.clock.run(key, () -> {
            if (phase == Phase.DEGRADED) {
                phase = Phase.IDLE;
                sync();
            } else if (phase == Phase.REBOOTING && stuckInReboot) {
                boot(attempt);
            }
        });
    }

    private void sync() {
        Node n = sim.nodes.get(node);
        if (n == null) {
            return;
        }
        String desired = annotation(n, Mco.DESIRED_CONFIG);
        String current = annotation(n, Mco.CURRENT_CONFIG);
        if (desired.isEmpty() || desired.equals(current)) {
            return;
        }
        if (phase == Phase.IDLE || (phase == Phase.DEGRADED && !desired.equals(target))) {
            start(desired);
        }
    }

    private void start(String config) {
        int a = ++attempt;
        phase = Phase.PREPARING;
        target = config;
        LOG.atDebug().addKeyValue("node", node).addKeyValue("config", config).log("Update starts");
        sim.mcns.set(node, "Updated", "False", "Updated", "Node " + node + " needs an update to " + config);
        after(a, sim.timings.preflight(), () -> {
            sim.writer.annotate(node, McdStep.WORKING.annotations(config));
            sim.mcns.set(
                    node,
                    "UpdatePrepared",
                    "True",
                    "UpdatePrepared",
                    "Update is prepared: the configuration can be applied in place");
            if (singleReplica()) {
                apply(a);
            } else {
                requestDrain(a);
            }
        });
    }

    private void requestDrain(int a) {
        nodeEvent("Normal", "Cordon", "Cordoned node to apply update");
        nodeEvent("Normal", "Drain", "Draining node to update config.");
        sim.mcns.set(
                node,
                "UpdateExecuted",
                "Unknown",
                "UpdateExecuted",
                "Update is executing: waiting for the drain of node " + node);
        sim.writer.annotate(node, McdStep.DRAIN_REQUESTED.annotations(target));
        phase = Phase.DRAINING;
        deadline = sim.clock.now().plus(sim.timings.mcdDrainTimeout());
        after(a, sim.timings.drainPoll(), () -> pollDrain(a));
    }

    private void pollDrain(int a) {
        String wanted = McdStep.DRAINED.value(target);
        if (wanted.equals(annotation(sim.nodes.get(node), Mco.LAST_APPLIED_DRAIN))) {
            apply(a);
        } else if (sim.clock.now().isAfter(deadline)) {
            nodeEvent(
                    "Warning",
                    "FailedToDrain",
                    "failed to drain node: " + node
                            + " after 1 hour. Please see machine-config-controller logs for more information");
            degrade("failed to drain node: " + node + " after 1 hour. Please see"
                    + " machine-config-controller logs for more information");
        } else {
            after(a, sim.timings.drainPoll(), () -> pollDrain(a));
        }
    }

    private void apply(int a) {
        phase = Phase.APPLYING;
        String current = annotation(sim.nodes.get(node), Mco.CURRENT_CONFIG);
        Map<String, Object> oldSpec = sim.renderedSpec(current);
        Map<String, Object> newSpec = sim.renderedSpec(target);
        var failure = sim.fault(node, Fault.ApplyFailure.class);
        if (failure != null) {
            sim.mcns.set(node, "UpdateExecuted", "Unknown", "UpdateExecuted", "Error: " + failure.reason());
            degrade(failure.reason());
            return;
        }
        boolean os = PostConfigAction.osChanges(oldSpec, newSpec);
        Duration work = sim.timings.writeFiles();
        if (os) {
            Object image = newSpec.get("osImageURL");
            if (!Objects.equals(oldSpec.get("osImageURL"), image)) {
                nodeEvent("Normal", "InClusterUpgrade", "In cluster upgrade to " + image);
            }
            nodeEvent("Normal", "OSUpdateStarted", osChangeSummary(oldSpec, newSpec));
            work = work.plus(sim.timings.osUpdate());
        }
        after(a, sim.jittered(node, work), () -> {
            if (os) {
                nodeEvent("Normal", "OSUpdateStaged", "Changes to OS staged");
            }
            sim.mcns.set(
                    node,
                    "AppliedFilesAndOS",
                    "True",
                    "UpdateExecutedAppliedFilesAndOS",
                    "Applied files and new OS config to node " + node);
            sim.mcns.set(
                    node, "UpdateExecuted", "True", "UpdateExecuted", "Update is executed: files and OS are written");
            switch (PostConfigAction.between(oldSpec, newSpec)) {
                case REBOOT -> reboot(a);
                case SERVICE_RELOAD ->
                    noReboot(a, "ServiceReload", "Config changes do not require reboot. Service crio was reloaded.");
                case NONE -> noReboot(a, "SkipReboot", "Config changes do not require reboot.");
            }
        });
    }

    private void reboot(int a) {
        sim.mcns.set(
                node,
                "RebootedNode",
                "Unknown",
                "RebootedNode",
                "Upgrade requires a reboot. Currently doing this as the post update action.");
        nodeEvent("Normal", "Reboot", "Node will reboot into config " + target);
        sim.writer.annotate(node, McdStep.REBOOTING.annotations(target));
        phase = Phase.REBOOTING;
        Duration reboot = sim.jittered(node, sim.timings.reboot());
        if (reboot.compareTo(sim.timings.nodeMonitorGrace()) > 0) {
            after(
                    a,
                    sim.timings.nodeMonitorGrace(),
                    () -> setReady("Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status."));
        }
        after(a, reboot, () -> {
            if (sim.fault(node, Fault.NeverReturnFromReboot.class) == null) {
                boot(a);
            } else {
                stuckInReboot = true;
            }
        });
    }

    private void boot(int a) {
        stuckInReboot = false;
        setReady("True", "KubeletReady", "kubelet is posting ready status");
        after(a, sim.jittered(node, sim.timings.mcdStartAfterBoot()), () -> {
            sim.mcns.set(node, "RebootedNode", "True", "RebootedNode", "Node has rebooted");
            sim.writer.annotate(node, McdStep.RESUMED.annotations(target));
            var invalid = sim.fault(node, Fault.OnDiskValidationFailure.class);
            if (invalid != null) {
                String reason = "unexpected on-disk state validating against " + target + ": " + invalid.detail();
                nodeEvent("Warning", "OnDiskStateValidationFailed", reason);
                degrade(reason);
                return;
            }
            resumed(a);
        });
    }

    private void noReboot(int a, String reason, String message) {
        nodeEvent("Normal", reason, message);
        sim.mcns.set(node, "UpdatePostActionComplete", "True", "UpdatePostActionComplete", message);
        resumed(a);
    }

    private void resumed(int a) {
        sim.mcns.set(
                node, "Resumed", "True", "Resumed", "In desired config " + target + ". Resumed normal operations.");
        if (singleReplica()) {
            done();
            return;
        }
        sim.writer.annotate(node, McdStep.UNCORDON_REQUESTED.annotations(target));
        phase = Phase.UNCORDONING;
        deadline = sim.clock.now().plus(sim.timings.uncordonTimeout());
        after(a, sim.timings.drainPoll(), () -> pollUncordon(a));
    }

    private void pollUncordon(int a) {
        String wanted = McdStep.UNCORDONED.value(target);
        if (wanted.equals(annotation(sim.nodes.get(node), Mco.LAST_APPLIED_DRAIN))) {
            nodeEvent("Normal", "Uncordon", "Update completed for config " + target + " and node has been uncordoned");
            done();
        } else if (sim.clock.now().isAfter(deadline)) {
            nodeEvent("Warning", "FailedToUncordon", "failed to uncordon node " + node);
            degrade("failed to uncordon node " + node + " after 10 minutes");
        } else {
            after(a, sim.timings.drainPoll(), () -> pollUncordon(a));
        }
    }

    private void done() {
        nodeEvent("Normal", "NodeDone", "Setting node " + node + ", currentConfig " + target + " to Done");
        sim.writer.annotate(node, McdStep.DONE.annotations(target));
        sim.mcns.set(node, "UpdateComplete", "True", "UpdateComplete", "Update is complete");
        sim.mcns.update(node, s -> s.updated(target, sim.clock.now()));
        phase = Phase.IDLE;
        LOG.atDebug().addKeyValue("node", node).addKeyValue("config", target).log("Update done");
        sync();
    }

    private void degrade(String reason) {
        String truncated = reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON) : reason;
        var annotations = new LinkedHashMap<String, String>();
        annotations.put(Mco.STATE, Mco.STATE_DEGRADED);
        annotations.put(Mco.REASON, truncated);
        sim.writer.annotate(node, annotations);
        sim.mcns.set(node, "NodeDegraded", "True", "NodeDegraded", truncated);
        phase = Phase.DEGRADED;
        LOG.atWarn().addKeyValue("node", node).addKeyValue("reason", truncated).log("Node degraded");
    }

    private void setReady(String status, String reason, String message) {
        String now = sim.clock.now().toString();
        // The kubelet posts Ready; the node lifecycle controller marks a silent kubelet Unknown.
        Identity writer = status.equals("True") ? Identities.kubelet(node) : Identities.NODE_LIFECYCLE_CONTROLLER;
        sim.as(writer).writer.updateStatus(node, n -> {
            List<NodeCondition> conditions = n.getStatus().getConditions() == null
                    ? new ArrayList<>()
                    : new ArrayList<>(n.getStatus().getConditions());
            conditions.removeIf(c -> "Ready".equals(c.getType()));
            var ready = new NodeCondition(now, now, message, reason, status, "Ready");
            conditions.add(ready);
            n.getStatus().setConditions(conditions);
            return n;
        });
    }

    private boolean singleReplica() {
        return "SingleReplica".equals(annotation(sim.nodes.get(node), Mco.CONTROL_PLANE_TOPOLOGY));
    }

    private void nodeEvent(String type, String reason, String message) {
        Node n = sim.nodes.get(node);
        String uid = n == null ? null : n.getMetadata().getUid();
        sim.events.node(node, uid, type, reason, message, EventRecorder.MCD);
    }

    /** Runs {@code step} after {@code delay} unless a newer attempt has started meanwhile. */
    private void after(int a, Duration delay, Runnable step) {
        sim.clock.schedule(key, delay, () -> {
            if (a == attempt) {
                step.run();
            }
        });
    }

    private static String osChangeSummary(Map<String, Object> oldSpec, Map<String, Object> newSpec) {
        var changes = new ArrayList<String>();
        for (String f : List.of("osImageURL", "kernelType", "extensions", "kernelArguments")) {
            if (!Objects.equals(oldSpec.get(f), newSpec.get(f))) {
                changes.add(f);
            }
        }
        return "Changing " + String.join(", ", changes);
    }

    static String annotation(Node n, String key) {
        if (n == null || n.getMetadata().getAnnotations() == null) {
            return "";
        }
        return n.getMetadata().getAnnotations().getOrDefault(key, "");
    }
}
