package io.mcdhooks.bridge.gatekeeper;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.vertx.core.Future;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The levers of a stock cluster, as the reconciler pulls them: each call brings one object to
 * what the plan wants and returns at once; the writes happen elsewhere, one at a time per object.
 * {@code planAgain} runs when a write ends that made a call skip one of its own.
 */
interface Levers {

    /** Watches the gate pods and budgets; {@code changed} hears the node of each that comes or goes. */
    Future<Void> watch(Consumer<String> changed);

    /**
     * Whether {@code node}'s gate pod and its budget exist and the pod holds the drain (Running and
     * Ready: a Pending pod is evicted without its budget), as last seen.
     */
    boolean gatePodReady(String node);

    /**
     * Whether a write that cordons {@code node} is on its way: until it lands, the node may look
     * available (uncordoned, Done) to a plan, and the MCC must not be let assign another.
     */
    boolean cordoning(String node);

    /** Gate pods that exist but do not hold yet, by node, with why ({@code Pending: ImagePullBackOff …}). */
    Map<String, String> gatePodsNotHolding();

    /** Brings {@code node}'s levers to {@code want}; {@code current} is the node as last seen. */
    void applyNode(Node current, LeverPlan.NodeLevers want, Runnable planAgain);

    /** Brings {@code pool}'s pause to {@code paused}; {@code null}: no say, only undo a pause of its own. */
    void applyPool(GenericKubernetesResource pool, Boolean paused, Runnable planAgain);

    /** A node is gone: its gate pod goes with it, and its budget must not stay behind. */
    void nodeDeleted(String node, Runnable planAgain);

    void stop();
}
