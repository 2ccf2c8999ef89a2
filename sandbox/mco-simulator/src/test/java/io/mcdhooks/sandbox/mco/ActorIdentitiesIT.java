package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The simulated MCO's actors write under the identities the real ones have (see {@link Identities}). */
class ActorIdentitiesIT {

    private static final Duration LONG = Duration.ofSeconds(60);
    private static final String WORKER = "worker-0";

    /** One write as the API server received it. */
    private record Write(Identity by, String method, String path, String body) {}

    @Test
    void everyActorOfARolloutWritesUnderTheIdentityOfItsRealCounterpart() {
        try (var sim = new Simulation(
                Topology.builder().masters(1).workers(2).workloadPodsPerNode(1).daemonSetPodsPerNode(1))) {
            // Given every write recorded with the identity the server sees
            var writes = record(sim.cluster);
            sim.start();

            // When the worker goes through an update that drains and reboots
            rollOutAndWait(sim);

            // Then the MCD's annotation writes come from machine-config-daemon, bound to its node
            Identity mcd = Identities.machineConfigDaemon(WORKER);
            assertThat(writers(
                            writes,
                            w -> w.method().equals("PATCH")
                                    && w.path().equals("/api/v1/nodes/" + WORKER)
                                    && w.body().contains("machineconfiguration.openshift.io~1state")))
                    .containsOnly(mcd);
            // the MCC assigns the config, cordons, taints and uncordons (all Node updates)
            assertThat(writers(
                            writes,
                            w -> w.method().equals("PATCH")
                                    && w.path().equals("/api/v1/nodes/" + WORKER)
                                    && w.body().contains("machineconfiguration.openshift.io~1desiredConfig")))
                    .containsOnly(Identities.MACHINE_CONFIG_CONTROLLER);
            assertThat(writers(writes, w -> w.method().equals("PUT") && w.path().equals("/api/v1/nodes/" + WORKER)))
                    .containsOnly(Identities.MACHINE_CONFIG_CONTROLLER);
            // the node's Ready comes from its kubelet, its Unknown during the reboot from the node controller
            assertThat(writers(
                            writes,
                            w -> w.path().equals("/api/v1/nodes/" + WORKER + "/status")
                                    && w.body().contains("\"status\":\"True\"")))
                    .containsOnly(Identities.kubelet(WORKER));
            assertThat(writers(
                            writes,
                            w -> w.path().equals("/api/v1/nodes/" + WORKER + "/status")
                                    && w.body().contains("\"status\":\"Unknown\"")))
                    .containsOnly(Identities.NODE_LIFECYCLE_CONTROLLER);
            // evictions are the drain controller's, replacement pods the ReplicaSet controller's
            assertThat(writers(
                            writes, w -> w.method().equals("DELETE") && w.path().contains("/pods/")))
                    .containsOnly(Identities.MACHINE_CONFIG_CONTROLLER);
            assertThat(writers(
                            writes, w -> w.method().equals("POST") && w.path().endsWith("/pods")))
                    .containsOnly(Identities.REPLICASET_CONTROLLER);
            // pods' status comes from the kubelet of their node; the ClusterOperator's from the operator
            assertThat(writers(
                            writes,
                            w -> w.method().equals("PATCH")
                                    && w.path().contains("/pods/")
                                    && w.body().contains("\"phase\"")))
                    .isNotEmpty()
                    .allSatisfy(writer -> assertThat(writer.username()).startsWith("system:node:"));
            assertThat(writers(
                            writes,
                            w -> w.path().startsWith("/apis/config.openshift.io/v1/clusteroperators")
                                    && !w.method().equals("GET")))
                    .isNotEmpty()
                    .containsOnly(Identities.MACHINE_CONFIG_OPERATOR);
            // Events are recorded by whoever their source names: the MCD of the node, the operator, or the MCC
            // (read from one copy: the pool's last Event may still be on its way, after its status)
            List<Write> recorded = List.copyOf(writes);
            assertThat(writers(recorded, w -> w.path().endsWith("/events")))
                    .zipSatisfy(
                            recorded.stream()
                                    .filter(w -> w.path().endsWith("/events"))
                                    .map(w -> event(sim, w))
                                    .toList(),
                            (writer, event) -> assertThat(writer)
                                    .isEqualTo(
                                            switch (event.getSource().getComponent()) {
                                                case EventRecorder.MCD ->
                                                    Identities.machineConfigDaemon(
                                                            event.getSource().getHost());
                                                case EventRecorder.OPERATOR -> Identities.MACHINE_CONFIG_OPERATOR;
                                                default -> Identities.MACHINE_CONFIG_CONTROLLER;
                                            }));
            // and no actor of the simulator wrote as the administrator or anonymously
            assertThat(writes)
                    .filteredOn(w -> !w.path().startsWith("/apis/machineconfiguration.openshift.io/v1/machineconfigs"))
                    .extracting(Write::by)
                    .doesNotContain(Identity.admin(), Identity.anonymous());
        }
    }

    @Test
    void theMcosOwnMcnGuardsPolicyAdmitsTheWholeRolloutAndRefusesAWriteFromAnotherNode() {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(2))) {
            // Given the MCO's mcn-guards policy, which binds MCD writes of a MachineConfigNode to its node
            try (InputStream policy = getClass().getClassLoader().getResourceAsStream("admission/mcn-guards.yaml")) {
                sim.client.load(policy).create();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            var writes = record(sim.cluster);
            sim.start();

            // When both workers update
            rollOutAndWait(sim);

            // Then every MCD write of a MachineConfigNode was admitted: the MCD wrote its own node's
            assertThat(writes)
                    .filteredOn(w -> w.path().contains("/machineconfignodes/"))
                    .extracting(Write::by)
                    .contains(Identities.machineConfigDaemon("worker-0"), Identities.machineConfigDaemon("worker-1"));
            assertThat(sim.cluster.admissionRecords()).isEmpty();
            // and the policy refuses worker-0's MCD writing worker-1's, and the bare service account
            for (var forged : Map.of(
                            Identities.machineConfigDaemon("worker-0"),
                            "updates to MCN worker-1 can only be done from the MCN's owner node",
                            Identity.serviceAccount(Mco.NAMESPACE, "machine-config-daemon"),
                            "this user must have a \"authentication.kubernetes.io/node-name\" claim")
                    .entrySet()) {
                try (KubernetesClient client = sim.cluster.clientAs(forged.getKey())) {
                    assertThatThrownBy(() -> Mco.machineConfigNodes(client)
                                    .withName("worker-1")
                                    .edit(mcn -> {
                                        mcn.getMetadata().setLabels(Map.of("forged", "yes"));
                                        return mcn;
                                    }))
                            .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                                assertThat(e.getCode()).isEqualTo(422);
                                assertThat(e.getStatus().getMessage())
                                        .isEqualTo(
                                                "machineconfignodes.machineconfiguration.openshift.io \"worker-1\" is"
                                                        + " forbidden: ValidatingAdmissionPolicy 'mcn-guards' with binding"
                                                        + " 'mcn-guards-binding' denied request: " + forged.getValue());
                            });
                }
            }
        }
    }

    private static ConcurrentLinkedQueue<Write> record(InMemoryCluster cluster) {
        var writes = new ConcurrentLinkedQueue<Write>();
        cluster.interceptRequests((request, proceed) -> {
            if (!request.getMethod().equals("GET")) {
                writes.add(new Write(
                        cluster.identityOf(request),
                        request.getMethod(),
                        request.getPath(),
                        // getUtf8Body() would take the body away from the server
                        new String(request.getBody().getBytes(), StandardCharsets.UTF_8)));
            }
            return proceed.get();
        });
        return writes;
    }

    private static void rollOutAndWait(Simulation sim) {
        String before = sim.poolTarget("worker");
        sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));
        await().atMost(LONG).until(() -> !sim.poolTarget("worker").equals(before));
        String target = sim.poolTarget("worker");
        await().atMost(LONG).untilAsserted(() -> {
            for (String node : sim.nodeNames("worker")) {
                assertThat(sim.annotation(node, Mco.CURRENT_CONFIG)).as(node).isEqualTo(target);
                assertThat(sim.annotation(node, Mco.STATE)).as(node).isEqualTo("Done");
            }
        });
    }

    private static List<Identity> writers(Collection<Write> writes, Predicate<Write> which) {
        List<Identity> writers = writes.stream().filter(which).map(Write::by).toList();
        assertThat(writers).as("writes that match").isNotEmpty();
        return writers;
    }

    private static Event event(Simulation sim, Write write) {
        return sim.client.getKubernetesSerialization().unmarshal(write.body(), Event.class);
    }
}
