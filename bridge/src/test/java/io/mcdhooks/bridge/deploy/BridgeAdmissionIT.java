package io.mcdhooks.bridge.deploy;

import static io.mcdhooks.bridge.rollback.MachineConfigObjects.mc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.mcdhooks.bridge.BridgeConfig;
import io.mcdhooks.bridge.TestEnvironment;
import io.mcdhooks.bridge.gate.GateObjects;
import io.mcdhooks.bridge.gate.LeverPlan;
import io.mcdhooks.bridge.gate.LeverWrites;
import io.mcdhooks.bridge.kube.McoInformers;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.rollback.Ownership;
import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.Topology;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shipped policies of deploy/admission/v1/bridge-levers-policy.yaml, evaluated by the in-memory
 * API server: the bridge's own service account may pull its levers (the very writes its code makes,
 * a pool rollback's among them) and nothing more; an administrator is judged by none of them.
 */
class BridgeAdmissionIT {

    private static final String NAMESPACE = "mcdhooks";
    private static final String IMAGE = BridgeConfig.GATE_POD_IMAGE.fallback();

    private InMemoryCluster cluster;
    private KubernetesClient admin;
    private KubernetesClient bridge;

    @BeforeEach
    void setUp() {
        cluster = InMemoryCluster.start();
        admin = cluster.client();
        Topology.builder().masters(1).workers(1).build().apply(admin);
        try (InputStream in = Files.newInputStream(AdmissionPoliciesTest.V1.resolve("bridge-levers-policy.yaml"))) {
            admin.load(in).create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        bridge = cluster.clientAs(TestEnvironment.bridgeIdentity(NAMESPACE));
    }

    @AfterEach
    void tearDown() {
        bridge.close();
        cluster.close();
    }

    @Test
    void theBridgeCreatesItsGatePodButNoPodThatIsPrivilegedMountsTheHostOrRunsElsewhere() {
        String node = Topology.workerName(0);
        bridge.pods()
                .inNamespace(NAMESPACE)
                .resource(GateObjects.pod(node, NAMESPACE, IMAGE))
                .create();

        denied(
                () -> createPod(
                        NAMESPACE,
                        p -> p.getSpec()
                                .getContainers()
                                .get(0)
                                .getSecurityContext()
                                .setPrivileged(true)),
                "a gate pod is not privileged, cannot escalate, and adds no capability");
        denied(
                () -> createPod(NAMESPACE, p -> p.getSpec().setHostNetwork(true)),
                "a gate pod uses none of the host's namespaces");
        denied(
                () -> createPod(
                        NAMESPACE,
                        p -> p.getSpec()
                                .getVolumes()
                                .add(new VolumeBuilder()
                                        .withName("root")
                                        .withNewHostPath("/", "Directory")
                                        .build())),
                "a gate pod mounts no volume (no hostPath, no Secret)");
        denied(
                () -> createPod(
                        NAMESPACE, p -> p.getSpec().getContainers().get(0).setImage("quay.io/evil/shell:latest")),
                "a gate pod runs one container of the gate-pod image, " + IMAGE);
        denied(
                () -> createPod(NAMESPACE, p -> p.getSpec().setServiceAccountName("mcdhooks-bridge")),
                "a gate pod runs as the namespace's default service account, with no token mounted");
        denied(
                () -> createPod("mcdhooks-hooks", p -> {}),
                "the bridge creates gate pods in mcdhooks only, not in mcdhooks-hooks");
        denied(
                () -> createPod("mcdhooks-kafka", p -> {}),
                "the bridge creates gate pods in mcdhooks only, not in mcdhooks-kafka");
        // an administrator is judged by none of these
        admin.pods()
                .inNamespace("mcdhooks-hooks")
                .resource(pod("mcdhooks-hooks", p -> p.getSpec().setHostNetwork(true)))
                .create();
    }

    @Test
    void theBridgeTaintsCordonsAndMarksANodeButChangesNothingElseOfIt() {
        String name = Topology.workerName(0);
        // the levers, as LeverWrites writes them
        bridge.nodes().withName(name).edit(n -> {
            LeverWrites.edit(n, new LeverPlan.NodeLevers(false, true, true, "c1/post-update/" + name + "/r2"));
            return n;
        });
        Node held = admin.nodes().withName(name).get();
        assertThat(held.getSpec().getUnschedulable()).isTrue();
        assertThat(LeverWrites.tainted(held)).isTrue();
        assertThat(held.getMetadata().getAnnotations()).containsKey(GateObjects.CORDONED_FOR);

        denied(
                () -> editNode(name, n -> n.getMetadata().getLabels().put("node-role.kubernetes.io/infra", "")),
                "the bridge may not change a Node's labels");
        denied(
                () -> editNode(name, n -> n.getSpec().setProviderID("aws:///evil")),
                "the bridge may change only spec.unschedulable and its own taint of a Node's spec");
        denied(
                () -> editNode(
                        name,
                        n -> n.getSpec()
                                .getTaints()
                                .add(new TaintBuilder()
                                        .withKey("dedicated")
                                        .withEffect("NoExecute")
                                        .build())),
                "the bridge may add or remove only the taint mcdhooks.io/post-update-gate");
        denied(
                () -> editNode(
                        name, n -> n.getMetadata().getAnnotations().put(McoApi.DESIRED_CONFIG, "rendered-worker-evil")),
                "the bridge may change only annotations under mcdhooks.io/ of a Node");
        // and lifts its own levers again
        bridge.nodes().withName(name).edit(n -> {
            LeverWrites.edit(n, new LeverPlan.NodeLevers(false, false, false, null));
            return n;
        });
        assertThat(LeverWrites.tainted(admin.nodes().withName(name).get())).isFalse();
    }

    @Test
    void theBridgePausesAPoolButChangesNothingElseOfIt() {
        var pools = bridge.genericKubernetesResources(McoInformers.context(McoApi.POOL_KIND, "v1"));
        pools.withName("worker").edit(p -> {
            LeverWrites.pause(p, true);
            return p;
        });
        assertThat(admin.genericKubernetesResources(McoInformers.context(McoApi.POOL_KIND, "v1"))
                        .withName("worker")
                        .get()
                        .<Boolean>get("spec", "paused"))
                .isTrue();

        denied(
                () -> editPool(p -> spec(p).put("maxUnavailable", 10)),
                "the bridge may change only spec.paused of a MachineConfigPool's spec");
        denied(
                () -> editPool(p -> spec(p).remove("nodeSelector")),
                "the bridge may change only spec.paused of a MachineConfigPool's spec");
        denied(
                () -> editPool(p ->
                        p.getMetadata().getLabels().put("pools.operator.machineconfiguration.openshift.io/evil", "")),
                "the bridge may not change a MachineConfigPool's labels");
        denied(
                () -> editPool(p -> p.getMetadata().getAnnotations().put("mcdhooks.io/other", "x")),
                "the bridge may change only the annotation mcdhooks.io/paused-by of a MachineConfigPool");
    }

    @Test
    void theBridgeWritesBackAnAdministratorsMachineConfigButNoControllersOrTheReleases() {
        // (the base config 00-worker as the MCO generates it, from the topology)
        var asAdmin = admin.genericKubernetesResources(McoInformers.context(McoApi.CONFIG_KIND, "v1"));
        assertThat(asAdmin.withName("00-worker").get().getMetadata().getAnnotations())
                .containsKey(Ownership.GENERATED_BY);
        asAdmin.resource(mc("99-worker-kargs", Map.of(), kargs("quiet", "nosmt")))
                .create();
        var machineConfigs = bridge.genericKubernetesResources(McoInformers.context(McoApi.CONFIG_KIND, "v1"));

        // A rollback's writes of an administrator's MachineConfig: restore, delete, recreate
        machineConfigs.withName("99-worker-kargs").edit(m -> {
            m.setAdditionalProperty("spec", kargs("quiet"));
            return m;
        });
        machineConfigs.withName("99-worker-kargs").delete();
        machineConfigs.resource(mc("99-worker-kargs", Map.of(), kargs("quiet"))).create();
        assertThat(asAdmin.withName("99-worker-kargs").get().<List<String>>get("spec", "kernelArguments"))
                .containsExactly("quiet");

        String controllers =
                "the bridge may not change or delete a MachineConfig a controller generated or the release ships";
        String marked = "the bridge may not write a MachineConfig marked as a controller's or the release's";
        denied(
                () -> machineConfigs.withName("00-worker").edit(m -> {
                    m.setAdditionalProperty("spec", kargs("quiet", "nosmt"));
                    return m;
                }),
                controllers);
        denied(() -> machineConfigs.withName("00-worker").delete(), controllers);
        denied(
                () -> machineConfigs
                        .resource(mc("99-worker-release", Map.of("release.openshift.io/version", "4.16.0"), kargs()))
                        .create(),
                marked);
        denied(
                () -> machineConfigs.withName("99-worker-kargs").edit(m -> {
                    m.getMetadata()
                            .setOwnerReferences(List.of(new OwnerReferenceBuilder()
                                    .withApiVersion("machineconfiguration.openshift.io/v1")
                                    .withKind("ControllerConfig")
                                    .withName("machine-config-controller")
                                    .withUid("u1")
                                    .build()));
                    return m;
                }),
                marked);
    }

    private static Map<String, Object> kargs(String... arguments) {
        return Map.of("kernelArguments", List.of(arguments));
    }

    private void createPod(String namespace, Consumer<Pod> change) {
        bridge.pods().inNamespace(namespace).resource(pod(namespace, change)).create();
    }

    private static Pod pod(String namespace, Consumer<Pod> change) {
        Pod pod = new PodBuilder(GateObjects.pod(Topology.workerName(0), namespace, IMAGE))
                .editMetadata()
                .withName("gate-" + Math.abs(System.nanoTime() % 100000))
                .endMetadata()
                .editSpec()
                .withVolumes(new ArrayList<>())
                .endSpec()
                .build();
        change.accept(pod);
        if (pod.getSpec().getVolumes().isEmpty()) {
            pod.getSpec().setVolumes(null);
        }
        return pod;
    }

    private void editNode(String name, Consumer<Node> change) {
        bridge.nodes().withName(name).edit(n -> {
            if (n.getMetadata().getLabels() == null) {
                n.getMetadata().setLabels(new HashMap<>());
            }
            change.accept(n);
            return n;
        });
    }

    private void editPool(Consumer<GenericKubernetesResource> change) {
        bridge.genericKubernetesResources(McoInformers.context(McoApi.POOL_KIND, "v1"))
                .withName("worker")
                .edit(p -> {
                    if (p.getMetadata().getLabels() == null) {
                        p.getMetadata().setLabels(new HashMap<>());
                    }
                    if (p.getMetadata().getAnnotations() == null) {
                        p.getMetadata().setAnnotations(new HashMap<>());
                    }
                    change.accept(p);
                    return p;
                });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource pool) {
        Map<String, Object> spec = new HashMap<>(
                (Map<String, Object>) pool.getAdditionalProperties().get("spec"));
        pool.setAdditionalProperty("spec", spec);
        return spec;
    }

    private static void denied(ThrowingCallable write, String message) {
        assertThatThrownBy(write).isInstanceOfSatisfying(KubernetesClientException.class, e -> {
            assertThat(e.getCode()).isEqualTo(403);
            assertThat(e.getStatus().getMessage())
                    .contains("ValidatingAdmissionPolicy 'mcdhooks-bridge-")
                    .endsWith(message);
        });
    }
}
