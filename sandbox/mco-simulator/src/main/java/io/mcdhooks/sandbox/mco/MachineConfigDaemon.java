package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.mcdhooks.mco.disruption.ConfigDiff;
import io.mcdhooks.mco.disruption.DisruptionAction;
import io.mcdhooks.mco.disruption.DisruptionActions;
import io.mcdhooks.mco.disruption.NodeDisruptionPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's Machine Config Daemon, plus the machine under it (apply, reboot, kubelet readiness).
 *
 * <p>It follows the MCD's {@code syncNode} / {@code update} / {@code checkStateOnFirstRun} /
 * {@code completeUpdate} ({@code pkg/daemon/daemon.go}, {@code update.go}, {@code drain.go}):
 *
 * <ol>
 *   <li>computes the node disruption actions of the change under the cluster's policy
 *       ({@link DisruptionActions}) and drains only for Reboot, Drain or an unsafe Special;
 *       never on a single-replica control plane;
 *   <li>applies, then reboots only for Reboot; otherwise reloads or restarts the named services;
 *   <li>always ends with the uncordon handshake ({@code desiredDrain=uncordon-…}, polled every
 *       10 s for 10 min) before {@code SetDone}.
 * </ol>
 *
 * <p>An error (drain not done after 1 h, no uncordon after 10 min, an injected fault) marks the
 * node Degraded and is retried with the MCD's queue backoff (1 s doubling to 60 s): a retry
 * waits while a requested drain is not done, redoes the uncordon wait after a reboot, and redoes
 * a rebootless update whose files were rolled back. {@code SetDone} clears Degraded.
 *
 * <p>Its private state is what a real MCD keeps on the node's disk (the config written there,
 * whether it booted into it) and in its queue (the backoff). All methods run under the node's key
 * on the {@link SimClock}, never concurrently.
 */
final class MachineConfigDaemon {

    private static final Logger LOG = LoggerFactory.getLogger(MachineConfigDaemon.class);
    private static final int MAX_REASON = 2000;
    private static final Duration POLICY_WAIT = Duration.ofMinutes(2);
    private static final Duration POLICY_POLL = Duration.ofSeconds(5);

    private enum Phase {
        /** Not in an update: {@link #sync} may start one. */
        IDLE,
        /** Inside {@code update()} or {@code completeUpdate()}: events wait. */
        BUSY,
        /** Rebooting: no MCD runs. */
        REBOOTING,
        /** An error was reported; a retry is queued. */
        FAILED
    }

    private final SimContext sim;
    private final String node;
    private final String key;
    private Phase phase = Phase.IDLE;
    private int attempt;
    private String onDisk;
    private boolean booting;
    private boolean stuckInReboot;
    private int failures;
    private SimClock.Timer retry;

    MachineConfigDaemon(SimContext sim, String node) {
        this.sim = sim.as(Identities.machineConfigDaemon(node));
        this.node = node;
        this.key = "node/" + node;
    }

    /** Called on every event of this node. */
    void reconcile() {
        sim.clock.run(key, () -> {
            if (phase == Phase.IDLE) {
                sync();
            } else if (phase == Phase.FAILED) {
                requeueRateLimited();
            }
        });
    }

    /** Faults were cleared: retry a failed step now, or finish a reboot that never ended. */
    void faultsCleared() {
        sim.clock.run(key, () -> {
            if (phase == Phase.FAILED) {
                cancelRetry();
                phase = Phase.IDLE;
                sync();
            } else if (phase == Phase.REBOOTING && stuckInReboot) {
                boot(attempt);
            }
        });
    }

    /** The MCD's {@code syncNode}. */
    private void sync() {
        Node n = sim.nodes.get(node);
        if (n == null) {
            return;
        }
        String desired = annotation(n, Mco.DESIRED_CONFIG);
        String current = annotation(n, Mco.CURRENT_CONFIG);
        if (onDisk == null) {
            onDisk = current;
        }
        if (booting) {
            firstRun();
            return;
        }
        String desiredDrain = annotation(n, Mco.DESIRED_DRAIN);
        if (!desiredDrain.isEmpty() && !desiredDrain.equals(annotation(n, Mco.LAST_APPLIED_DRAIN))) {
            // "A previously requested drain has not yet completed": wait for the drain controller.
            return;
        }
        if (desired.isEmpty()) {
            return;
        }
        if (desired.equals(current)
                && desired.equals(onDisk)
                && !imageChanges(n)
                && Mco.STATE_DONE.equals(annotation(n, Mco.STATE))) {
            sim.mcns.set(node, "Updated", "True", "Updated", "Node " + node + " Updated");
            return;
        }
        sim.mcns.set(node, "Updated", "False", "Updated", "Node " + node + " needs an update");
        update(desired);
    }

    /** The MCD's {@code update()}, from the config on disk to {@code target}. */
    private void update(String target) {
        int a = ++attempt;
        phase = Phase.BUSY;
        String from = onDisk;
        LOG.atDebug().addKeyValue("node", node).addKeyValue("config", target).log("Update starts");
        after(a, sim.timings.preflight(), () -> {
            Node n = sim.nodes.get(node);
            String state = annotation(n, Mco.STATE);
            if (!Mco.STATE_DEGRADED.equals(state) && !Mco.STATE_UNRECONCILABLE.equals(state)) {
                sim.writer.annotate(node, McdStep.WORKING.annotations(target));
            }
            withPolicy(a, Instant.EPOCH, policy -> prepare(a, from, target, policy));
        });
    }

    /** {@code calculatePostConfigChangeNodeDisruptionAction} waits for the operator's policy status. */
    private void withPolicy(int a, Instant since, Consumer<NodeDisruptionPolicy> next) {
        NodeDisruptionPolicy policy = sim.disruptionPolicy();
        if (policy != null) {
            next.accept(policy);
            return;
        }
        Instant start = since.equals(Instant.EPOCH) ? sim.clock.now() : since;
        if (Duration.between(start, sim.clock.now()).compareTo(POLICY_WAIT) > 0) {
            fail("NodeDisruptionPolicyStatus was not ready: MachineConfiguration/cluster has not been created yet");
            return;
        }
        after(a, POLICY_POLL, () -> withPolicy(a, start, next));
    }

    private void prepare(int a, String from, String target, NodeDisruptionPolicy policy) {
        Map<String, Object> oldSpec = sim.renderedSpec(from);
        Map<String, Object> newSpec = sim.renderedSpec(target);
        ConfigDiff diff = ConfigDiff.between(oldSpec, newSpec);
        // Leaving (or moving within) image mode changes the OS image: a reboot whatever the files say.
        List<DisruptionAction> actions = imageChanges(sim.nodes.get(node))
                ? List.of(DisruptionAction.reboot())
                : DisruptionActions.calculate(diff, policy);
        boolean drain;
        try {
            drain = DisruptionActions.drainRequired(actions, oldSpec, newSpec);
        } catch (IllegalArgumentException e) {
            fail(e.getMessage());
            return;
        }
        sim.mcns.set(
                node,
                "UpdatePrepared",
                "True",
                "UpdatePrepared",
                "Update Compatible. Post Cfg Actions: [] Drain Required: " + drain);
        var update = new Update(a, from, target, oldSpec, newSpec, diff, actions);
        if (!drain) {
            drainNotRequired();
            apply(update);
        } else if (singleReplica()) {
            // performDrain: a single-replica control plane has nowhere to move pods to.
            drainNotRequired();
            nodeEvent("Normal", "Drain", "Drain not required, skipping");
            apply(update);
        } else if (McdStep.DRAINED.value(target).equals(annotation(sim.nodes.get(node), Mco.LAST_APPLIED_DRAIN))) {
            // "drain is already completed on this node" (a retry after FailedToDrain)
            apply(update);
        } else {
            nodeEvent("Normal", "Cordon", "Cordoned node to apply update");
            nodeEvent("Normal", "Drain", "Draining node to update config.");
            sim.writer.annotate(node, McdStep.DRAIN_REQUESTED.annotations(target));
            Instant deadline = sim.clock.now().plus(sim.timings.mcdDrainTimeout());
            after(a, sim.timings.drainPoll(), () -> pollDrain(update, deadline));
        }
    }

    private void drainNotRequired() {
        sim.mcns.set(
                node,
                "UpdateExecuted",
                "Unknown",
                "Drained",
                "Node Drain Not required for this update.",
                "Drained",
                "False",
                "Node Drain Not required for this update.");
    }

    private void pollDrain(Update u, Instant deadline) {
        Node n = sim.nodes.get(node);
        if (annotation(n, Mco.DESIRED_DRAIN).equals(annotation(n, Mco.LAST_APPLIED_DRAIN))) {
            apply(u);
        } else if (!sim.clock.now().isBefore(deadline)) {
            String message = "failed to drain node: " + node
                    + " after 1 hour. Please see machine-config-controller logs for more information";
            nodeEvent("Warning", "FailedToDrain", message);
            updateFailed(message);
        } else {
            after(u.attempt, sim.timings.drainPoll(), () -> pollDrain(u, deadline));
        }
    }

    private void apply(Update u) {
        boolean os = u.diff.osUpdate() || u.diff.extensions() || u.diff.kernelType();
        boolean files = u.diff.passwd() || u.diff.files();
        String osNeeds = os ? "" : "not ";
        String sshNeeds = files ? "" : "not ";
        sim.mcns.set(
                node,
                "UpdateExecuted",
                "Unknown",
                "AppliedFilesAndOS",
                "Updating the Files and OS on disk as a part of the in progress phase",
                "AppliedFilesAndOS",
                "Unknown",
                "Applying files and new OS config to node. OS will " + osNeeds + "need an update. SSH Keys will "
                        + sshNeeds + "need an update");
        var failure = sim.fault(node, Fault.ApplyFailure.class);
        if (failure != null) {
            updateFailed(failure.reason());
            return;
        }
        Duration work = sim.timings.writeFiles();
        if (u.diff.osChanges()) {
            if (u.diff.osUpdate()) {
                nodeEvent("Normal", "InClusterUpgrade", "Updating from oscontainer " + u.newSpec.get("osImageURL"));
            }
            nodeEvent("Normal", "OSUpdateStarted", u.diff.osChangesString());
            work = work.plus(sim.timings.osUpdate());
        }
        after(u.attempt, sim.jittered(node, work), () -> {
            if (u.diff.osChanges()) {
                nodeEvent("Normal", "OSUpdateStaged", "Changes to OS staged");
            }
            onDisk = u.target;
            sim.mcns.set(
                    node,
                    "UpdateExecuted",
                    "True",
                    "AppliedFilesAndOS",
                    "Updated the Files and OS on disk as a part of the in progress phase",
                    "AppliedFilesAndOS",
                    "True",
                    "Applied files and new OS config to node. OS did " + osNeeds + "need an update. SSH Keys did "
                            + sshNeeds + "need an update");
            if (DisruptionActions.rebootRequired(u.actions)) {
                sim.mcns.set(node, "NodeDegraded", "False", "NodeDegraded", "Node " + node + " upgrade succeeded");
                reboot(u.attempt, u.target);
            } else {
                rebootless(u);
            }
        });
    }

    /** {@code performPostConfigChangeNodeDisruptionAction} without a reboot. */
    private void rebootless(Update u) {
        for (DisruptionAction action : u.actions) {
            switch (action.type()) {
                case NONE -> {
                    nodeEvent("Normal", "SkipReboot", "Config changes do not require reboot.");
                    sim.mcns.set(node, "UpdatePostActionComplete", "True", "None", "Changes do not require a reboot");
                }
                case RELOAD -> reloaded(action.service());
                case SPECIAL -> reloaded("crio");
                case DAEMON_RELOAD -> reloaded("daemon-reload");
                case RESTART ->
                    nodeEvent(
                            "Normal",
                            "ServiceRestart",
                            "Config changes do not require reboot. Service " + action.service() + " was restarted.");
                case DRAIN, REBOOT -> {
                    // the drain is done; a reboot does not get here
                }
            }
        }
        // finishRebootlessUpdate → updateConfigAndState → completeUpdate
        sim.mcns.set(
                node,
                "Resumed",
                "True",
                "Resumed",
                "In desired config " + u.target + ". Resumed normal operations. Applying proper annotations.");
        completeUpdate(u.attempt, u.target, () -> {
            // update()'s deferred rollback: the files go back, the update is redone on retry
            onDisk = u.from;
        });
    }

    private void reloaded(String service) {
        sim.mcns.set(
                node,
                "UpdatePostActionComplete",
                "True",
                "UpdatePostActionComplete",
                "Node has reloaded service " + service);
        nodeEvent(
                "Normal",
                "ServiceReload",
                "Config changes do not require reboot. Service " + service + " was reloaded.");
    }

    private void reboot(int a, String target) {
        sim.mcns.set(node, "RebootedNode", "Unknown", "RebootedNode", "Upgrade requires a reboot.");
        nodeEvent("Normal", "Reboot", "Node will reboot into config " + target);
        sim.writer.annotate(node, McdStep.REBOOTING.annotations(target));
        phase = Phase.REBOOTING;
        booting = true;
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
            // syncNode sees post-config-action=Rebooting
            sim.mcns.set(node, "RebootedNode", "True", "RebootedNode", "Node has rebooted");
            sim.writer.annotate(node, McdStep.RESUMED.annotations(annotation(sim.nodes.get(node), Mco.DESIRED_CONFIG)));
            phase = Phase.BUSY;
            firstRun();
        });
    }

    /** {@code checkStateOnFirstRun} after a boot: validate the disk, then complete the update. */
    private void firstRun() {
        int a = ++attempt;
        phase = Phase.BUSY;
        var invalid = sim.fault(node, Fault.OnDiskValidationFailure.class);
        if (invalid != null) {
            String reason = "unexpected on-disk state validating against " + onDisk + ": " + invalid.detail();
            nodeEvent("Warning", "OnDiskStateValidationFailed", reason);
            fail(reason);
            return;
        }
        String desired = annotation(sim.nodes.get(node), Mco.DESIRED_CONFIG);
        if (!onDisk.equals(desired)) {
            nodeEvent(
                    "Normal",
                    "BootResync",
                    "Booting node " + node + ", currentConfig " + onDisk + ", desiredConfig " + desired);
            booting = false;
            update(desired);
            return;
        }
        sim.mcns.set(
                node,
                "Resumed",
                "True",
                "Resumed",
                "In desired config " + onDisk + ". Resumed normal operations. Applying proper annotations.");
        completeUpdate(a, onDisk, () -> {});
    }

    /**
     * {@code completeUpdate}: asks for the uncordon and polls for it every 10 s for 10 min; then
     * Done, or FailedToUncordon ({@code onTimeout} first).
     */
    private void completeUpdate(int a, String target, Runnable onTimeout) {
        phase = Phase.BUSY;
        sim.writer.annotate(node, McdStep.UNCORDON_REQUESTED.annotations(target));
        Instant deadline = sim.clock.now().plus(sim.timings.uncordonTimeout());
        after(a, sim.timings.drainPoll(), () -> pollUncordon(a, target, deadline, onTimeout));
    }

    private void pollUncordon(int a, String target, Instant deadline, Runnable onTimeout) {
        Node n = sim.nodes.get(node);
        if (annotation(n, Mco.DESIRED_DRAIN).equals(annotation(n, Mco.LAST_APPLIED_DRAIN))) {
            nodeEvent("Normal", "Uncordon", "Update completed for config " + target + " and node has been uncordoned");
            done(target);
        } else if (!sim.clock.now().isBefore(deadline)) {
            String message = "failed to uncordon node: " + node
                    + " after 10 minutes. Please see machine-config-controller logs for more information";
            nodeEvent("Warning", "FailedToUncordon", message);
            onTimeout.run();
            fail(message);
        } else {
            after(a, sim.timings.drainPoll(), () -> pollUncordon(a, target, deadline, onTimeout));
        }
    }

    /** {@code SetDone}: Done, currentConfig, reason cleared, image annotations of a non-layered node removed. */
    private void done(String target) {
        nodeEvent("Normal", "NodeDone", "Setting node " + node + ", currentConfig " + target + " to Done");
        Node n = sim.nodes.get(node);
        var remove = new ArrayList<String>();
        for (String image : List.of(Mco.CURRENT_IMAGE, Mco.DESIRED_IMAGE)) {
            if (n != null
                    && n.getMetadata().getAnnotations() != null
                    && n.getMetadata().getAnnotations().containsKey(image)) {
                remove.add(image);
            }
        }
        sim.writer.annotate(node, McdStep.DONE.annotations(target), remove);
        booting = false;
        failures = 0;
        cancelRetry();
        phase = Phase.IDLE;
        sim.mcns.set(
                node, "Resumed", "True", "Resumed", "In desired config " + target + ". Resumed normal operations.");
        LOG.atDebug().addKeyValue("node", node).addKeyValue("config", target).log("Update done");
        sync();
    }

    /** An error out of {@code update()}: its deferred NodeDegraded report, then {@link #fail}. */
    private void updateFailed(String reason) {
        fail(reason);
    }

    /** The MCD's {@code handleErr}: Degraded with the error, retried with backoff. */
    private void fail(String reason) {
        String truncated = reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON) : reason;
        Node n = sim.nodes.get(node);
        if (!Mco.STATE_DEGRADED.equals(annotation(n, Mco.STATE)) || !truncated.equals(annotation(n, Mco.REASON))) {
            var annotations = new LinkedHashMap<String, String>();
            annotations.put(Mco.STATE, Mco.STATE_DEGRADED);
            annotations.put(Mco.REASON, truncated);
            sim.writer.annotate(node, annotations);
            LOG.atWarn()
                    .addKeyValue("node", node)
                    .addKeyValue("reason", truncated)
                    .log("Node degraded");
        }
        sim.mcns.set(node, "NodeDegraded", "True", "NodeDegraded", "Node " + node + " upgrade failure. " + truncated);
        ++attempt;
        phase = Phase.FAILED;
        requeueRateLimited();
    }

    /** {@code AddRateLimited}: 1 s doubling per failure up to 60 s; the earliest pending retry wins. */
    private void requeueRateLimited() {
        long factor = 1L << Math.min(failures, 6);
        Duration delay = sim.timings.mcdRetryBase().multipliedBy(factor);
        if (delay.compareTo(sim.timings.mcdRetryMax()) > 0) {
            delay = sim.timings.mcdRetryMax();
        }
        failures++;
        if (retry != null && retry.pending() && retry.remaining().compareTo(delay) <= 0) {
            return;
        }
        cancelRetry();
        retry = sim.clock.schedule(key, delay, () -> {
            if (phase == Phase.FAILED) {
                phase = Phase.IDLE;
                sync();
            }
        });
    }

    private void cancelRetry() {
        if (retry != null) {
            retry.cancel();
            retry = null;
        }
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
            conditions.add(new NodeCondition(now, now, message, reason, status, "Ready"));
            n.getStatus().setConditions(conditions);
            return n;
        });
    }

    /**
     * {@code prepUpdateFromCluster} for image annotations: the image on disk ({@code currentImage})
     * differs from {@code desiredImage} (absent in a pool without image mode).
     */
    private static boolean imageChanges(Node n) {
        return !annotation(n, Mco.CURRENT_IMAGE).equals(annotation(n, Mco.DESIRED_IMAGE));
    }

    /** The MCD's {@code getControlPlaneTopology}: the node annotation the MCC copies from Infrastructure. */
    private boolean singleReplica() {
        return Mco.SINGLE_REPLICA.equals(annotation(sim.nodes.get(node), Mco.CONTROL_PLANE_TOPOLOGY));
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

    static String annotation(Node n, String key) {
        if (n == null || n.getMetadata().getAnnotations() == null) {
            return "";
        }
        return Objects.requireNonNullElse(n.getMetadata().getAnnotations().get(key), "");
    }

    /** One run of {@code update()}. */
    private record Update(
            int attempt,
            String from,
            String target,
            Map<String, Object> oldSpec,
            Map<String, Object> newSpec,
            ConfigDiff diff,
            List<DisruptionAction> actions) {}
}
