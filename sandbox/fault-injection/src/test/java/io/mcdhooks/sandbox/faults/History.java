package io.mcdhooks.sandbox.faults;

import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.Stage;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * What a run left behind, as recorded by observers outside the system under test: every state of
 * every node and of the pool the API server sent to a watch, and every record of the gate-request,
 * verdict and decision topics with the broker's append time. The invariants are pure functions of
 * this.
 *
 * @param cluster        the cluster name messages carry
 * @param pool           the pool rolled out
 * @param maxUnavailable the pool's maxUnavailable, as a number of nodes
 * @param targetConfig   the rendered config rolled out
 * @param workers        the pool's nodes
 * @param hooks          the UpdateHooks registered, with the settings the invariants need
 * @param nodes          node states in the order the API server wrote them
 * @param pools          pool states in the order the API server wrote them
 * @param kafka          records of the three topics, each partition in offset order
 * @param produced       verdicts hooks reported as produced (acknowledged by Kafka or returned by a check)
 * @param gatePodsAtEnd  gate pods that still exist when the run ends
 * @param leases         states of the gatekeeper's Lease, in the order the API server wrote them
 * @param writes         writes of bridge replicas the API server served, as it received them
 */
record History(
        String cluster,
        String pool,
        int maxUnavailable,
        String targetConfig,
        Set<String> workers,
        List<HookPolicy> hooks,
        List<NodeState> nodes,
        List<PoolState> pools,
        List<KafkaEntry> kafka,
        List<Produced> produced,
        Set<String> gatePodsAtEnd,
        List<LeaseState> leases,
        List<Write> writes) {

    /** The Lease as one watch event showed it; {@code renewTime} is written by its holder. */
    record LeaseState(String holder, Instant renewTime, int durationSeconds) {}

    /**
     * A write (not to the Lease) by a bridge replica that the API server served.
     *
     * @param at   when the API server received it
     * @param body the request body as sent, or {@code null}
     */
    record Write(Instant at, String identity, String method, String path, String body) {}

    /** One UpdateHook: which stages it gates, and whether its timeout releases ({@code failurePolicy: Ignore}). */
    record HookPolicy(String name, Set<Stage> stages, boolean enforcing, boolean ignoreOnTimeout) {}

    /**
     * A node as one watch event showed it.
     *
     * @param gateTainted whether it carries the gatekeeper's post-update taint
     */
    record NodeState(
            Instant at,
            long resourceVersion,
            String node,
            boolean ready,
            boolean unschedulable,
            boolean gateTainted,
            String currentConfig,
            String desiredConfig,
            String state,
            String lastAppliedDrain) {

        boolean done() {
            return currentConfig != null && currentConfig.equals(desiredConfig) && "Done".equals(state);
        }

        boolean degraded() {
            return "Degraded".equals(state) || "Unreconcilable".equals(state);
        }

        /** Unavailable as the MCO's node controller counts it (mco-contract.md). */
        boolean unavailable() {
            return !ready || unschedulable || !done() && !degraded();
        }
    }

    /** The pool as one watch event showed it. */
    record PoolState(Instant at, long resourceVersion, boolean paused, String statusConfig, boolean updated) {}

    /** A record of a topic; {@code appendedAt} is the broker's LogAppendTime. */
    record KafkaEntry(Instant appendedAt, String topic, int partition, long offset, String id, Message message) {}

    /**
     * A verdict a hook produced: the scripted hook's acknowledged sends carry their CloudEvents
     * {@code id}; a runner's completed checks carry gate, attempt and hook (the runner picks the id).
     */
    record Produced(String id, String hook, String gateId, int attempt, String outcome) {}
}
