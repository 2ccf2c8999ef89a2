package io.mcdhooks.bridge.gate;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.List;
import java.util.Set;

/**
 * Whether a gate pod holds its node's drain. The Eviction API evicts a Pending, Succeeded or Failed
 * pod without asking its budget (Kubernetes {@code canIgnorePDB}), so a gate pod holds only once it
 * is Running and Ready: until then the drain lever is not in place and the pool stays paused. Pure.
 */
public final class GatePodHealth {

    /** Waiting reasons that do not pass by themselves: someone must fix the image or the node. */
    private static final Set<String> STUCK = Set.of(
            "ErrImagePull",
            "ImagePullBackOff",
            "InvalidImageName",
            "ErrImageNeverPull",
            "CreateContainerConfigError",
            "CreateContainerError",
            "CrashLoopBackOff");

    private GatePodHealth() {}

    /** Null when the pod holds (Running, Ready, not being deleted); else why not, for people. */
    public static String whyNotHolding(Pod pod) {
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            return "being deleted";
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        boolean ready = pod.getStatus() != null
                && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream()
                        .filter(c -> "Ready".equals(c.getType()))
                        .map(PodCondition::getStatus)
                        .anyMatch("True"::equals);
        if ("Running".equals(phase) && ready) {
            return null;
        }
        String waiting = waiting(pod);
        String state = phase == null ? "not started" : phase + (ready ? "" : ", not Ready");
        return waiting == null ? state : state + ": " + waiting;
    }

    /** Whether {@code why} is a state that will not pass by itself (an image that cannot be pulled…). */
    public static boolean stuck(String why) {
        return why != null && STUCK.stream().anyMatch(r -> why.contains(": " + r));
    }

    private static String waiting(Pod pod) {
        List<ContainerStatus> statuses =
                pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses();
        if (statuses == null) {
            return null;
        }
        for (ContainerStatus s : statuses) {
            if (s.getState() != null && s.getState().getWaiting() != null) {
                var w = s.getState().getWaiting();
                String reason = w.getReason() == null ? "Waiting" : w.getReason();
                return w.getMessage() == null ? reason : reason + " (" + w.getMessage() + ")";
            }
        }
        return null;
    }
}
