package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code machine-config} ClusterOperator as the operator's {@code syncRequiredMachineConfigPools}
 * and {@code syncUpgradeableStatus} ({@code pkg/operator/sync.go}, {@code status.go}) set it.
 */
class ClusterOperatorIT {

    private static final Duration LONG = Duration.ofSeconds(60);

    @Test
    void aPausedMasterPoolAtRestIsFineButWithAPendingUpdateItDegradesTheOperatorAtOnce() {
        try (var sim = new Simulation(Topology.builder().masters(3).workers(1).paused("master")).start()) {
            // Given the master pool paused and Updated: the required pools pass
            await().atMost(LONG)
                    .untilAsserted(() ->
                            assertThat(sim.clusterOperatorCondition("Degraded")).containsEntry("status", "False"));
            assertThat(sim.clusterOperatorCondition("Available")).containsEntry("status", "True");

            // When a new config for the masters is rendered while the pool stays paused
            Instant applied = sim.mco.clock().now();
            sim.mco.applyMachineConfig(MachineConfigs.kernelArguments("99-master-kargs", "master", List.of("nosmt")));

            // Then the operator is Degraded at once, not after the 10 min per master. (A sync that runs
            // between the render and the node controller's next status reads the pool as still
            // Updated and says "paused with no pending updates", as the MCO's does: the next says why.)
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.clusterOperatorCondition("Degraded"))
                            .containsEntry("status", "True")
                            .containsEntry("reason", "RequiredPoolsFailed")
                            .hasEntrySatisfying(
                                    "message",
                                    m -> assertThat((String) m)
                                            .contains(
                                                    "required MachineConfigPool master is paused and cannot sync until it"
                                                            + " is unpaused")));
            Instant degradedAt = Instant.parse(
                    (String) sim.clusterOperatorCondition("Degraded").get("lastTransitionTime"));
            assertThat(Duration.between(applied, degradedAt)).isLessThan(Duration.ofMinutes(10));
            assertThat(sim.events("machine-config", "OperatorDegraded: RequiredPoolsFailed"))
                    .isNotEmpty();

            // When the pool is unpaused, the masters update and the operator recovers
            sim.setPaused("master", false);
            await().atMost(LONG)
                    .untilAsserted(() ->
                            assertThat(sim.clusterOperatorCondition("Degraded")).containsEntry("status", "False"));
            assertThat(sim.poolStatus("master")).containsEntry("updatedMachineCount", 3);
        }
    }

    @Test
    void aMasterPoolThatDoesNotFinishWithinTenMinutesPerMasterDegradesTheOperator() {
        try (var sim = new Simulation(Topology.builder().masters(3).workers(1)).start()) {
            // Given the first master's drain is held by a budget
            sim.gate("master-0");
            sim.gate("master-1");
            sim.gate("master-2");
            Instant applied = sim.mco.clock().now();
            sim.mco.applyMachineConfig(MachineConfigs.kernelArguments("99-master-kargs", "master", List.of("nosmt")));

            // Then after 3 × 10 minutes the operator is Degraded; no pool is, so it stays Upgradeable
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.clusterOperatorCondition("Degraded"))
                            .containsEntry("status", "True")
                            .containsEntry("reason", "RequiredPoolsFailed"));
            Instant degradedAt = Instant.parse(
                    (String) sim.clusterOperatorCondition("Degraded").get("lastTransitionTime"));
            assertThat(Duration.between(applied, degradedAt)).isGreaterThanOrEqualTo(Duration.ofMinutes(30));
            assertThat((String) sim.clusterOperatorCondition("Degraded").get("message"))
                    .contains("required MachineConfigPool master is not ready");
            assertThat(sim.clusterOperatorCondition("Upgradeable")).containsEntry("status", "True");

            // When the holds go, the masters finish and the operator recovers
            for (String m : sim.nodeNames("master")) {
                sim.ungate(m);
            }
            await().atMost(LONG)
                    .untilAsserted(() ->
                            assertThat(sim.clusterOperatorCondition("Degraded")).containsEntry("status", "False"));
        }
    }

    @Test
    void aDegradedWorkerPoolMakesTheOperatorNotUpgradeableAtOnce() {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(2)).start()) {
            sim.mco.injectFault("worker-0", new Fault.ApplyFailure("failed to write /etc/foo: disk full"));

            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.clusterOperatorCondition("Upgradeable"))
                            .containsEntry("status", "False")
                            .containsEntry("reason", "DegradedPool"));

            sim.mco.clearFaults("worker-0");
            await().atMost(LONG)
                    .untilAsserted(() -> assertThat(sim.clusterOperatorCondition("Upgradeable"))
                            .containsEntry("status", "True"));
        }
    }
}
