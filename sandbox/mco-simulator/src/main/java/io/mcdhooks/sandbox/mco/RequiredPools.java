package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;

/**
 * One pass of the operator's {@code syncRequiredMachineConfigPools} poll and its
 * {@code syncUpgradeableStatus} ({@code pkg/operator/sync.go}, {@code status.go}), as a pure
 * function of the pools.
 *
 * <ul>
 *   <li>Any Degraded pool (required or not) keeps the poll going.
 *   <li>A required pool (label {@code operator.machineconfiguration.openshift.io/required-for-upgrade},
 *       the master pool) that is not Updated, or whose generation is not observed yet, keeps it
 *       going; if it is paused the sync fails at once.
 *   <li>The poll gives up after 10 min × the required pools' machine count.
 *   <li>{@code Upgradeable=False} (DegradedPool) as soon as any pool is Degraded.
 * </ul>
 *
 * @param failure an error that fails the sync at once, or null
 * @param pending why the poll has to go on, or null when every pool is as required
 * @param upgradeable whether no pool is Degraded
 * @param requiredMachines machines of the required pools (the timeout is 10 min per machine)
 */
record RequiredPools(String failure, String pending, boolean upgradeable, int requiredMachines) {

    static RequiredPools evaluate(List<GenericKubernetesResource> pools) {
        int requiredMachines = 0;
        boolean upgradeable = true;
        for (GenericKubernetesResource pool : pools) {
            if (required(pool)) {
                requiredMachines += number(status(pool).get("machineCount"));
            }
            upgradeable &= !condition(pool, "Degraded");
        }
        for (GenericKubernetesResource pool : pools) {
            String name = pool.getMetadata().getName();
            Map<String, Object> status = status(pool);
            if (condition(pool, "Degraded")) {
                return new RequiredPools(
                        null,
                        "MachineConfigPool " + name + " is not ready, retrying. Status: (pool degraded: true total: "
                                + number(status.get("machineCount")) + ", ready "
                                + number(status.get("readyMachineCount")) + ", updated: "
                                + number(status.get("updatedMachineCount")) + ", unavailable: "
                                + number(status.get("unavailableMachineCount")) + ", reason: "
                                + conditionMessage(pool, "Degraded") + ")",
                        upgradeable,
                        requiredMachines);
            }
            if (!required(pool)) {
                continue;
            }
            long generation = pool.getMetadata().getGeneration() == null
                    ? 1
                    : pool.getMetadata().getGeneration();
            boolean updated = condition(pool, "Updated");
            if (generation <= number(status.get("observedGeneration")) && updated) {
                continue;
            }
            String pending = "required MachineConfigPool " + name + " is not ready, retrying. Status: (total: "
                    + number(status.get("machineCount")) + ", ready " + number(status.get("readyMachineCount"))
                    + ", updated: " + number(status.get("updatedMachineCount")) + ", unavailable: "
                    + number(status.get("unavailableMachineCount")) + ", degraded: "
                    + number(status.get("degradedMachineCount")) + ")";
            Map<?, ?> spec = NodeController.map(pool.getAdditionalProperties().get("spec"));
            if (Boolean.TRUE.equals(spec.get("paused"))) {
                String failure = updated
                        ? "the required MachineConfigPool " + name
                                + " was paused with no pending updates; no further syncing will occur until it is"
                                + " unpaused"
                        : "required MachineConfigPool " + name + " is paused and cannot sync until it is unpaused";
                return new RequiredPools(failure, pending, upgradeable, requiredMachines);
            }
            return new RequiredPools(null, pending, upgradeable, requiredMachines);
        }
        return new RequiredPools(null, null, upgradeable, requiredMachines);
    }

    static boolean required(GenericKubernetesResource pool) {
        return pool.getMetadata().getLabels() != null
                && pool.getMetadata().getLabels().containsKey(Mco.REQUIRED_FOR_UPGRADE);
    }

    private static Map<String, Object> status(GenericKubernetesResource pool) {
        return NodeController.map(pool.getAdditionalProperties().get("status"));
    }

    private static boolean condition(GenericKubernetesResource pool, String type) {
        for (Object c : NodeController.list(status(pool).get("conditions"))) {
            Map<String, Object> m = NodeController.map(c);
            if (type.equals(m.get("type"))) {
                return "True".equals(m.get("status"));
            }
        }
        return false;
    }

    private static String conditionMessage(GenericKubernetesResource pool, String type) {
        for (Object c : NodeController.list(status(pool).get("conditions"))) {
            Map<String, Object> m = NodeController.map(c);
            if (type.equals(m.get("type"))) {
                return String.valueOf(m.getOrDefault("message", ""));
            }
        }
        return "";
    }

    private static int number(Object o) {
        return o instanceof Number n ? n.intValue() : 0;
    }
}
