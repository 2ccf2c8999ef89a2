package io.mcdhooks.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.mcdhooks.bridge.gate.GateObjects;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.mcdhooks.bridge.gate.LeverWrites;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.bridge.mco.ChangeClassifier;
import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.kafka.junit.KafkaBrokerExtension;
import io.mcdhooks.sandbox.mco.MachineConfigs;
import io.mcdhooks.sandbox.mco.Mco;
import io.mcdhooks.sandbox.mco.SimulatedDeployment;
import io.mcdhooks.sandbox.mco.SimulatorConfig;
import io.mcdhooks.sandbox.mco.Topology;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the project's levers promise, checked on the simulator that behaves like the real MCO of
 * today (node disruption policies, Pending pods evicted without their budget, the ClusterOperator,
 * single-node clusters). Each test states the promise.
 */
@ExtendWith(KafkaBrokerExtension.class)
class RealMcoGapsIT extends GatekeeperOnSimulator {

    RealMcoGapsIT(KafkaBroker broker) {
        super(broker, "gaps");
    }

    @Test
    void aFailingPreUpdateHookHoldsAChangeThatNeedsNoDrain() {
        // Given a pre-update hook that fails on the workers
        start(Topology.builder().workers(2), SimulatorConfig.defaults(), Map.of());
        hook("node-precheck", List.of(UpdateHookSpec.StageName.PRE_UPDATE), "worker", r -> Optional.of(Outcome.FAIL));
        deployBridge();

        // When a change that only reloads CRI-O is rolled out
        String target = rollOut(
                "worker",
                MachineConfigs.file("99-worker-policy", "worker", "/etc/containers/policy.json", "{\"default\":[]}"));

        // Then no worker runs it while its pre-update gate is blocked
        await().during(Duration.ofSeconds(10))
                .atMost(Duration.ofSeconds(15))
                .until(() -> workers().stream().noneMatch(n -> target.equals(annotation(n, Mco.CURRENT_CONFIG))));
        // (and the hook was told what the change does, by the policy the operator published)
        assertThat(hook.seen())
                .filteredOn(r -> r.stage() == Stage.PRE_UPDATE)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(ChangeClassifier.describe(r.disruption()))
                        .isEqualTo("services (Reload crio.service)"));
    }

    @Test
    void aGatePodThatIsNotRunningYetStillHoldsTheDrain() {
        // Given gate pods whose image cannot be pulled, and a pre-update hook that fails
        start(
                Topology.builder().workers(2),
                SimulatorConfig.defaults().withUnpullableImages(Pattern.compile("registry\\.example/slow/.*")),
                Map.of("MCDHOOKS_GATE_POD_IMAGE", "registry.example/slow/pause:3.10"));
        hook("node-precheck", List.of(UpdateHookSpec.StageName.PRE_UPDATE), "worker", r -> Optional.of(Outcome.FAIL));
        deployBridge();

        // When a change that drains and reboots is rolled out
        String target = rollOut("worker", MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

        // Then no worker is drained past its gate
        await().during(Duration.ofSeconds(10))
                .atMost(Duration.ofSeconds(15))
                .until(() -> workers().stream().noneMatch(n -> target.equals(annotation(n, Mco.CURRENT_CONFIG))));
    }

    @Test
    void holdingTheMasterPoolBeforeItsUpdateKeepsTheClusterOperatorHealthy() {
        // Given a pool-pre-update hook on the masters that fails, and the bridge running; the master
        // pool is not paused at rest (a paused master pool turns the ClusterOperator Degraded as soon
        // as a new config is rendered), so the gate is advisory there
        start(Topology.builder().masters(3).workers(1), SimulatorConfig.defaults(), Map.of());
        hook("kmod-check", List.of(UpdateHookSpec.StageName.POOL_PRE_UPDATE), "master", r -> Optional.of(Outcome.FAIL));
        deployBridge();
        await().during(Duration.ofSeconds(2)).atMost(LONG).until(() -> !paused("master"));

        // When a master change is rendered while the gate holds the pool
        rollOut("master", MachineConfigs.kernelArguments("99-master-kargs", "master", List.of("nosmt")));

        // Then the ClusterOperator stays not Degraded, the pool unpaused, and the hook asked all the same
        await().during(Duration.ofSeconds(10))
                .atMost(Duration.ofSeconds(15))
                .until(() -> !"True".equals(clusterOperatorCondition("Degraded")) && !paused("master"));
        await().atMost(LONG)
                .until(() -> hook.seen().stream()
                        .anyMatch(r -> r.stage() == Stage.POOL_PRE_UPDATE
                                && r.pool().name().equals("master")));
    }

    @Test
    void aSingleNodePostUpdateHoldIsReleasedWhenItsHookPasses() {
        // Given a single-node cluster and a post-update hook that first fails
        start(Topology.builder().masters(1).workers(0), SimulatorConfig.defaults(), Map.of());
        installHoldPolicy();
        var outcome = new AtomicReference<>(Outcome.FAIL);
        hook("node-check", List.of(UpdateHookSpec.StageName.POST_UPDATE), "master", r -> Optional.of(outcome.get()));
        // the bridge runs as its Deployment does, tolerating only its own taint: stopped while its
        // pod could not run
        SimulatedDeployment bridgePod = mco.deployment(
                "mcdhooks-bridge",
                List.of(new TolerationBuilder()
                        .withKey(LeverPlan.POST_UPDATE_TAINT)
                        .withOperator("Exists")
                        .withEffect("NoSchedule")
                        .build()),
                Map.of());
        var deployed = new AtomicReference<String>();
        bridgePod.onChange(running -> {
            if (running && deployed.get() == null) {
                deployed.set(deployBridge());
            } else if (!running && deployed.get() != null) {
                vertx.undeploy(deployed.getAndSet(null));
            }
        });
        deployed.set(deployBridge());

        // When the node updates and its hook then passes
        String target = rollOut("master", MachineConfigs.kernelType("99-master-rt", "master", "realtime"));
        await().atMost(LONG).until(() -> "Rebooting".equals(annotation(node("master-0"), Mco.POST_CONFIG_ACTION)));
        outcome.set(Outcome.PASS);

        // Then the node finishes its update, and the hook's status says the gate held nothing here
        await().atMost(LONG)
                .until(() -> target.equals(annotation(node("master-0"), Mco.CURRENT_CONFIG))
                        && "Done".equals(annotation(node("master-0"), Mco.STATE)));
        await().atMost(LONG).until(() -> "SingleNodeAdvisory".equals(holdMode("node-check")));
        assertThat(node("master-0").getMetadata().getAnnotations()).doesNotContainKey(GateObjects.HOLD);
    }

    @Test
    void withThePolicyAFailedNodeIsHandedOverToACordonAndStaysHeldWhileNoGatekeeperRuns() {
        // Given two workers (maxUnavailable 1), the shipped hold installed, a post-update hook that fails
        start(Topology.builder().masters(1).workers(2), SimulatorConfig.defaults(), Map.of());
        installHoldPolicy();
        hook("node-check", List.of(UpdateHookSpec.StageName.POST_UPDATE), "worker", r -> Optional.of(Outcome.FAIL));
        String deployed = deployBridge();
        await().atMost(LONG).until(() -> "Admission".equals(holdMode("node-check")));

        // When a change that drains and reboots rolls out: the first worker's check fails at its uncordon
        String target = rollOut("worker", MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));
        await().atMost(LONG).until(() -> handedOver(target).size() == 1);
        String heldNode = handedOver(target).get(0);

        // Then its hold was handed over: the MCD is done with it (its drain controller's worker free)
        // and the node is cordoned under the marker, tainted; the pool
        // was paused only for that moment, and the MCC took no second worker
        await().atMost(LONG).until(() -> !paused("worker"));
        assertThat(LeverWrites.tainted(node(heldNode))).isTrue();
        assertThat(assigned(target)).isEqualTo(1);

        // When no gatekeeper runs for a while
        vertx.undeploy(deployed).await();

        // Then the node stays cordoned under the hold (kube-apiserver refuses anyone else's uncordon),
        // so the MCC takes no second worker
        await().during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(15))
                .until(() -> handedOver(target).equals(List.of(heldNode)) && assigned(target) == 1);

        // When a gatekeeper runs again and the hook passes
        hook.script(r -> Optional.of(Outcome.PASS));
        deployBridge();
        var answered = new HashSet<String>();

        // Then every worker finishes its update, released, and the pool is left unpaused
        await().atMost(LONG).until(() -> {
            for (GateRequest request : hook.seen()) {
                if (answered.add(request.gateId() + "/" + request.attempt())) {
                    hook.answer(request, Outcome.PASS);
                }
            }
            return workers().stream()
                    .allMatch(n -> target.equals(annotation(n, Mco.CURRENT_CONFIG))
                            && "Done".equals(annotation(n, Mco.STATE))
                            && !Boolean.TRUE.equals(n.getSpec().getUnschedulable()));
        });
        await().atMost(LONG).until(() -> !paused("worker"));
        assertThat(workers())
                .allSatisfy(n -> assertThat(n.getMetadata().getAnnotations()).doesNotContainKey(GateObjects.HOLD));
    }

    @Test
    void withThePolicyAHoldThatLastsIsHandedOverBeforeTheMcdsTenMinutes() {
        // Given a post-update hook that does not answer, and a handover after 1 s (20 s of the MCO's
        // time here), the MCO at 20x so that its 10 minutes are 30 s
        start(
                Topology.builder().masters(1).workers(2),
                SimulatorConfig.defaults(),
                Map.of("MCDHOOKS_UNCORDON_HANDOVER", "1s"),
                20);
        installHoldPolicy();
        hook("node-check", List.of(UpdateHookSpec.StageName.POST_UPDATE), "worker", r -> Optional.empty());
        deployBridge();
        await().atMost(LONG).until(() -> "Admission".equals(holdMode("node-check")));

        // When a change that drains and reboots rolls out
        String target = rollOut("worker", MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

        // Then the first worker, its gate still open, ends Done and cordoned under the marker, never
        // degraded for its uncordon, and the pool takes no second worker
        await().atMost(LONG).until(() -> handedOver(target).size() == 1 && !paused("worker"));
        String heldNode = handedOver(target).get(0);
        assertThat(events(heldNode, "FailedToUncordon")).isEmpty();
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(() -> assigned(target) == 1);
    }

    /** Workers the MCD is done with on {@code target}, cordoned by the gatekeeper under the hold marker. */
    private List<String> handedOver(String target) {
        return workers().stream()
                .filter(n -> n.getMetadata().getAnnotations().containsKey(GateObjects.HOLD)
                        && n.getMetadata().getAnnotations().containsKey(GateObjects.CORDONED_FOR)
                        && Boolean.TRUE.equals(n.getSpec().getUnschedulable())
                        && target.equals(annotation(n, Mco.CURRENT_CONFIG))
                        && "Done".equals(annotation(n, Mco.STATE)))
                .map(n -> n.getMetadata().getName())
                .toList();
    }
}
