package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.mcdhooks.mco.disruption.NodeDisruptionPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The machine-config-operator's sync, as far as the rest of the cluster sees it
 * ({@code pkg/operator/sync.go}):
 *
 * <ul>
 *   <li>{@code syncMachineConfiguration}: {@code MachineConfiguration/cluster}
 *       {@code status.nodeDisruptionPolicyStatus.clusterPolicies} = the MCO's default policy with
 *       {@code spec.nodeDisruptionPolicy} merged in ({@link NodeDisruptionPolicy#merge}), and
 *       {@code status.observedGeneration};
 *   <li>{@code syncRequiredMachineConfigPools} / {@code syncUpgradeableStatus}: the
 *       {@code machine-config} ClusterOperator's {@code Degraded} ({@code RequiredPoolsFailed}:
 *       at once for a paused required pool, after 10 min × master count for a required pool not
 *       Updated or any Degraded pool; cleared once a sync passes), {@code Upgradeable}
 *       ({@code DegradedPool}), {@code Available} and {@code Progressing} ({@link RequiredPools}).
 * </ul>
 *
 * Each change of pools or of the MachineConfiguration re-evaluates, and a timer fires when a poll
 * would give up. A Degraded that starts or changes its message records the Warning event
 * {@code OperatorDegraded: RequiredPoolsFailed}.
 */
final class OperatorController {

    private static final Logger LOG = LoggerFactory.getLogger(OperatorController.class);
    static final String VERSION = "4.18.0-mco-simulator";
    private static final String KEY = "operator";
    private static final String REQUIRED_POOLS_FAILED = "RequiredPoolsFailed";

    private final SimContext sim;
    private final AtomicBoolean queued = new AtomicBoolean();
    private Instant pollStarted;
    private SimClock.Timer giveUp;

    OperatorController(SimContext sim) {
        this.sim = sim.as(Identities.MACHINE_CONFIG_OPERATOR);
    }

    void enqueue() {
        if (queued.compareAndSet(false, true)) {
            sim.clock.schedule(KEY, Duration.ofSeconds(1), () -> {
                queued.set(false);
                sync();
            });
        }
    }

    private void sync() {
        if (!sim.operatorRunning()) {
            return;
        }
        syncMachineConfiguration();
        RequiredPools pools = RequiredPools.evaluate(sim.pools.getStore().list());
        String degraded = null;
        Instant now = sim.clock.now();
        if (pools.failure() != null) {
            degraded = pools.failure();
            pollStarted = null;
        } else if (pools.pending() == null) {
            pollStarted = null;
        } else {
            if (pollStarted == null) {
                pollStarted = now;
            }
            Duration timeout = sim.timings.requiredPoolTimeoutPerNode().multipliedBy(pools.requiredMachines());
            Instant deadline = pollStarted.plus(timeout);
            if (!now.isBefore(deadline)) {
                degraded =
                        "during syncRequiredMachineConfigPools: [context deadline exceeded, " + pools.pending() + "]";
                pollStarted = now;
                deadline = now.plus(timeout);
            }
            scheduleGiveUp(Duration.between(now, deadline));
        }
        writeClusterOperator(degraded, pools);
    }

    private void scheduleGiveUp(Duration in) {
        if (giveUp != null) {
            giveUp.cancel();
        }
        giveUp = sim.clock.schedule(KEY, in.isNegative() ? Duration.ZERO : in, this::enqueue);
    }

    private void syncMachineConfiguration() {
        GenericKubernetesResource mc = sim.machineConfiguration();
        if (mc == null) {
            return;
        }
        Map<String, Object> spec =
                NodeController.map(mc.getAdditionalProperties().get("spec"));
        var status = new LinkedHashMap<String, Object>(
                NodeController.map(mc.getAdditionalProperties().get("status")));
        Map<String, Object> wanted = Map.of(
                "clusterPolicies",
                NodeDisruptionPolicy.merge(NodeController.map(spec.get("nodeDisruptionPolicy")))
                        .toStatus());
        long generation =
                mc.getMetadata().getGeneration() == null ? 1 : mc.getMetadata().getGeneration();
        if (Canonical.json(wanted).equals(Canonical.json(status.get("nodeDisruptionPolicyStatus")))
                && Objects.equals(Canonical.json(generation), Canonical.json(status.get("observedGeneration")))) {
            return;
        }
        status.put("nodeDisruptionPolicyStatus", wanted);
        status.put("observedGeneration", generation);
        Mco.machineConfiguration(sim.client).subresource("status").patch(Mco.jsonPatch(), Mco.set("/status", status));
        LOG.atDebug().log("MachineConfiguration status synced");
    }

    private void writeClusterOperator(String degradedError, RequiredPools pools) {
        GenericKubernetesResource co = Mco.clusterOperator(sim.client).get();
        if (co == null) {
            co = Mco.clusterOperator(sim.client)
                    .create(new GenericKubernetesResourceBuilder()
                            .withApiVersion("config.openshift.io/v1")
                            .withKind("ClusterOperator")
                            .withNewMetadata()
                            .withName(Mco.CLUSTER_OPERATOR)
                            .endMetadata()
                            .addToAdditionalProperties("spec", Map.of())
                            .build());
        }
        Map<String, Object> old =
                NodeController.map(co.getAdditionalProperties().get("status"));
        Map<String, Map<String, Object>> conditions = new LinkedHashMap<>();
        for (Object c : NodeController.list(old.get("conditions"))) {
            Map<String, Object> m = NodeController.map(c);
            conditions.put((String) m.get("type"), m);
        }
        String now = sim.clock.now().toString();
        Map<String, Object> before = conditions.get("Degraded");
        boolean wasDegraded = before != null && "True".equals(before.get("status"));
        // Degraded stays until a sync of the required pools passes (clearDegradedStatus).
        boolean stillDegraded = degradedError == null && wasDegraded && pools.pending() != null;
        String message = degradedError == null ? "" : "Failed to resync " + VERSION + " because: " + degradedError;
        if (degradedError != null) {
            NodeController.condition(conditions, "Degraded", "True", REQUIRED_POOLS_FAILED, message, now);
        } else if (!stillDegraded) {
            NodeController.condition(conditions, "Degraded", "False", "", "", now);
        }
        NodeController.condition(
                conditions,
                "Available",
                "True",
                "AsExpected",
                "Cluster has deployed [{operator " + VERSION + "}]",
                now);
        NodeController.condition(conditions, "Progressing", "False", "", "Cluster version is " + VERSION, now);
        if (pools.upgradeable()) {
            NodeController.condition(conditions, "Upgradeable", "True", "AsExpected", "", now);
        } else {
            NodeController.condition(
                    conditions,
                    "Upgradeable",
                    "False",
                    "DegradedPool",
                    "One or more machine config pools are degraded, please see `oc get mcp` for further details and"
                            + " resolve before upgrading",
                    now);
        }
        NodeController.condition(conditions, "EvaluationConditionsDetected", "False", "AsExpected", "", now);
        var status = new LinkedHashMap<String, Object>(old);
        status.put("conditions", new ArrayList<>(conditions.values()));
        status.put("versions", List.of(Map.of("name", "operator", "version", VERSION)));
        if (Canonical.json(status).equals(Canonical.json(old))) {
            return;
        }
        Mco.clusterOperator(sim.client).subresource("status").patch(Mco.jsonPatch(), Mco.set("/status", status));
        if (degradedError != null && (!wasDegraded || !message.equals(before.get("message")))) {
            sim.events.clusterOperator(
                    co.getMetadata().getUid(), "Warning", "OperatorDegraded: " + REQUIRED_POOLS_FAILED, message);
        }
    }
}
