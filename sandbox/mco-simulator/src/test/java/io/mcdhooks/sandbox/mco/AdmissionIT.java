package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.mockwebserver.http.MockResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Identity and ValidatingAdmissionPolicy enforcement of the in-memory API server, through fabric8 clients. */
class AdmissionIT {

    private static final Identity MCC = Identities.MACHINE_CONFIG_CONTROLLER;
    private static final Identity GATEKEEPER = Identity.serviceAccount("mcdhooks", "mcdhooks-bridge");
    private static final String HOLD = "mcdhooks.io/hold";
    /** The post-update hold the project ships, applied as written. */
    private static final Path SHIPPED_HOLD =
            Path.of("..", "..", "deploy", "admission", "v1", "post-update-hold-policy.yaml");

    private static final String DENIED_UNCORDON = "nodes \"worker-0\" is forbidden: ValidatingAdmissionPolicy"
            + " 'mcdhooks-post-update-hold' with binding 'mcdhooks-post-update-hold' denied request: node worker-0"
            + " is held by gate-1: only the gatekeeper may uncordon it";

    private InMemoryCluster cluster;
    private KubernetesClient admin;

    @BeforeEach
    void start() {
        cluster = InMemoryCluster.start();
        admin = cluster.client();
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void theDrainControllersUncordonOfAHeldNodeFailsWithKubeApiserversStatus() {
        // Given the post-update hold and a held, cordoned node
        install(admin, SHIPPED_HOLD);
        heldNode("worker-0");

        try (KubernetesClient mcc = cluster.clientAs(MCC)) {
            // When the drain controller uncordons it (an update of spec.unschedulable, omitted when false)
            // Then its client throws what a real API server's answer makes it throw: 422 Invalid
            assertThatThrownBy(() -> mcc.nodes().withName("worker-0").edit(this::uncordon))
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(422);
                        assertThat(e.getStatus().getReason()).isEqualTo("Invalid");
                        assertThat(e.getStatus().getMessage()).isEqualTo(DENIED_UNCORDON);
                        assertThat(e.getMessage()).contains(DENIED_UNCORDON);
                    });
            // and through the simulator's own writer, the way the drain controller writes
            var nodes = new NodeCache(admin.nodes().runnableInformer(0));
            nodes.wrote(admin.nodes().withName("worker-0").get());
            assertThatThrownBy(() -> new ClusterWriter(mcc, nodes).update("worker-0", this::uncordon))
                    .isInstanceOfSatisfying(
                            KubernetesClientException.class,
                            e -> assertThat(e.getCode()).isEqualTo(422));
        }
        assertThat(admin.nodes().withName("worker-0").get().getSpec().getUnschedulable())
                .isTrue();
    }

    @Test
    void inASimulatedRolloutTheDrainControllersUncordonOfAHeldNodeIsRefusedAndTheMcdCannotFinish() {
        try (var sim = new Simulation(Topology.builder().masters(1).workers(1))) {
            // Given the hold installed, worker-0 held by the gatekeeper, and the API's answers recorded
            install(sim.client, SHIPPED_HOLD);
            try (KubernetesClient gatekeeper = sim.cluster.clientAs(GATEKEEPER)) {
                gatekeeper.nodes().withName("worker-0").edit(n -> {
                    n.getMetadata().getAnnotations().put(HOLD, "gate-1");
                    return n;
                });
            }
            var refusals = new ConcurrentLinkedQueue<Identity>();
            sim.cluster.interceptRequests((request, proceed) -> {
                MockResponse response = proceed.get();
                if (response.code() == 422 && request.getPath().equals("/api/v1/nodes/worker-0")) {
                    refusals.add(sim.cluster.identityOf(request));
                }
                return response;
            });
            sim.start();

            // When the worker updates: drained (the cordon is allowed), rebooted, then the MCD asks for the uncordon
            sim.mco.applyMachineConfig(MachineConfigs.kernelType("99-worker-rt", "worker", "realtime"));

            // Then the drain controller's uncordon is refused, the node stays cordoned, no uncordon is
            // acknowledged, and the MCD reports FailedToUncordon when its 10 minutes are up
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> !sim.events("worker-0", "FailedToUncordon").isEmpty());
            assertThat(refusals).isNotEmpty().containsOnly(MCC);
            assertThat(sim.unschedulable("worker-0")).isTrue();
            assertThat(sim.annotation("worker-0", Mco.DESIRED_DRAIN)).startsWith("uncordon-");
            assertThat(sim.annotation("worker-0", Mco.LAST_APPLIED_DRAIN)).startsWith("drain-");
        }
    }

    @Test
    void theGatekeeperAndTheBreakGlassGroupMayReleaseAHeldNode() {
        install(admin, SHIPPED_HOLD);
        heldNode("worker-0");
        heldNode("worker-1");

        try (KubernetesClient gatekeeper = cluster.clientAs(GATEKEEPER);
                KubernetesClient breakGlass = cluster.clientAs("alice", "mcdhooks:break-glass")) {
            // release = one write: remove the hold and uncordon
            gatekeeper.nodes().withName("worker-0").edit(n -> {
                n.getMetadata().getAnnotations().remove(HOLD);
                return uncordon(n);
            });
            breakGlass.nodes().withName("worker-1").edit(this::uncordon);
        }

        assertThat(admin.nodes().withName("worker-0").get().getSpec().getUnschedulable())
                .isNull();
        assertThat(admin.nodes().withName("worker-1").get().getSpec().getUnschedulable())
                .isNull();
    }

    @Test
    void aJsonPatchAndAMergePatchAreJudgedByThePatchedResult() {
        install(admin, SHIPPED_HOLD);
        heldNode("worker-0");

        try (KubernetesClient mcc = cluster.clientAs(MCC)) {
            var node = mcc.nodes().withName("worker-0");
            // a merge patch that uncordons: refused (422, the default reason)
            assertRefused(
                    () -> node.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"unschedulable\":false}}"),
                    422,
                    DENIED_UNCORDON);
            // a JSON patch that drops the hold annotation: refused with the validation's reason Forbidden
            assertRefused(
                    () -> node.patch(
                            PatchContext.of(PatchType.JSON),
                            "[{\"op\":\"remove\",\"path\":\"/metadata/annotations/mcdhooks.io~1hold\"}]"),
                    403,
                    "denied request: only the gatekeeper may remove mcdhooks.io/hold");
            // a merge patch that leaves it held and cordoned: admitted
            node.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"seen\":\"yes\"}}}");
        }
        assertThat(admin.nodes().withName("worker-0").get().getMetadata().getLabels())
                .containsEntry("seen", "yes");
    }

    @Test
    void aRuleForNodesLeavesTheKubeletsStatusWritesAloneAndOneForNodesStatusJudgesThem() {
        // Given a policy refusing every Node update but the gatekeeper's
        install(denyUpdates("nodes-only", "nodes"));
        admin.nodes().resource(node("worker-0")).create();

        try (KubernetesClient kubelet = cluster.clientAs(Identities.kubelet("worker-0"))) {
            // the kubelet's Ready post goes to nodes/status, which "nodes" does not match
            kubelet.nodes().withName("worker-0").editStatus(this::ready);
            assertRefused(
                    () -> kubelet.nodes().withName("worker-0").edit(n -> label(n, "x")),
                    422,
                    "ValidatingAdmissionPolicy 'nodes-only' with binding 'nodes-only' denied request: no");

            // When the same policy names nodes/status
            install(denyUpdates("status-too", "nodes/status"));

            // Then the status write is judged, with the full object after the write
            assertRefused(() -> kubelet.nodes().withName("worker-0").editStatus(this::ready), 422, "'status-too'");
        }
        assertThat(admin.nodes().withName("worker-0").get().getStatus().getConditions())
                .extracting(NodeCondition::getType)
                .containsExactly("Ready");
    }

    @Test
    void aDeleteIsJudgedOnTheOldObjectWithNoObject() {
        install(bound(
                "keep-masters",
                "{apiGroups: [\"\"], apiVersions: [v1], operations: [DELETE], resources: [nodes]}",
                """
                - expression: >-
                    object == null && !(has(oldObject.metadata.labels)
                    && 'node-role.kubernetes.io/master' in oldObject.metadata.labels)
                  messageExpression: "'master ' + oldObject.metadata.name + ' stays'"
                """));
        admin.nodes()
                .resource(new NodeBuilder(node("master-0"))
                        .editMetadata()
                        .addToLabels("node-role.kubernetes.io/master", "")
                        .endMetadata()
                        .build())
                .create();
        admin.nodes().resource(node("worker-0")).create();

        assertRefused(() -> admin.nodes().withName("master-0").delete(), 422, "denied request: master master-0 stays");
        admin.nodes().withName("worker-0").delete();

        assertThat(admin.nodes().list().getItems())
                .extracting(n -> n.getMetadata().getName())
                .containsExactly("master-0");
    }

    @Test
    void anEvictionIsACreateOfThePodsEvictionSubresource() {
        install(bound(
                "no-evictions",
                "{apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE], resources: [pods/eviction]}",
                """
                - expression: "request.subResource != 'eviction' || object.kind != 'Eviction'"
                  messageExpression: "request.userInfo.username + ' may not evict ' + request.namespace + '/' + request.name"
                """));
        admin.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("apps")
                        .endMetadata()
                        .build())
                .create();
        admin.pods()
                .inNamespace("apps")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("web")
                        .endMetadata()
                        .build())
                .create();

        try (KubernetesClient mcc = cluster.clientAs(MCC)) {
            assertRefused(
                    () -> mcc.pods().inNamespace("apps").withName("web").evict(),
                    422,
                    "pods \"web\" is forbidden: ValidatingAdmissionPolicy 'no-evictions' with binding 'no-evictions'"
                            + " denied request: " + MCC.username() + " may not evict apps/web");
        }
    }

    @Test
    void aRequestWithoutCredentialsIsAnonymousAndRefused() {
        try (KubernetesClient anonymous = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(Config.empty())
                        .withMasterUrl(cluster.url())
                        .build())
                .build()) {
            assertRefused(
                    () -> anonymous.nodes().list(),
                    403,
                    "nodes is forbidden: User \"system:anonymous\" cannot list resource \"nodes\" in API group \"\" at"
                            + " the cluster scope");
            assertRefused(
                    () -> anonymous.pods().inNamespace("apps").withName("web").get(),
                    403,
                    "pods \"web\" is forbidden: User \"system:anonymous\" cannot get resource \"pods\" in API group \"\""
                            + " in the namespace \"apps\"");
        }
    }

    @Test
    void aTokenAuthenticatesAsItsIdentityWhichMayNotImpersonateUnlessAnAdmin() {
        install(admin, SHIPPED_HOLD);
        heldNode("worker-0");
        Config asGatekeeper = new ConfigBuilder(Config.empty())
                .withMasterUrl(cluster.url())
                .withOauthToken(cluster.tokenFor(GATEKEEPER))
                .build();

        try (KubernetesClient gatekeeper =
                new KubernetesClientBuilder().withConfig(asGatekeeper).build()) {
            // the gatekeeper's service account cannot act as anyone else
            assertRefused(
                    () -> MCC.client(gatekeeper).nodes().list(),
                    403,
                    "serviceaccounts \"machine-config-controller\" is forbidden: User \"" + GATEKEEPER.username()
                            + "\" cannot impersonate resource \"serviceaccounts\" in API group \"\" in the namespace"
                            + " \"openshift-machine-config-operator\"");
            // and with its own token it may release the node
            gatekeeper.nodes().withName("worker-0").edit(this::uncordon);
        }
        // an unknown token is not a credential
        try (KubernetesClient forged = new KubernetesClientBuilder()
                .withConfig(
                        new ConfigBuilder(asGatekeeper).withOauthToken("forged").build())
                .build()) {
            assertRefused(() -> forged.nodes().list(), 401, "Unauthorized");
        }
    }

    @Test
    void aKubeconfigWrittenForAnIdentityActsAsThatIdentity(@TempDir Path dir) throws IOException {
        install(admin, SHIPPED_HOLD);
        heldNode("worker-0");
        var seen = new ConcurrentLinkedQueue<Identity>();
        cluster.interceptRequests((request, proceed) -> {
            if (request.getMethod().equals("PATCH")) {
                seen.add(cluster.identityOf(request));
            }
            return proceed.get();
        });

        Path mccKubeconfig = cluster.writeKubeconfig(dir.resolve("mcc"), MCC);
        Path gatekeeperKubeconfig = cluster.writeKubeconfig(dir.resolve("gatekeeper"), GATEKEEPER);
        try (KubernetesClient mcc = fromKubeconfig(mccKubeconfig);
                KubernetesClient gatekeeper = fromKubeconfig(gatekeeperKubeconfig)) {
            assertRefused(() -> mcc.nodes().withName("worker-0").edit(this::uncordon), 422, DENIED_UNCORDON);
            gatekeeper.nodes().withName("worker-0").edit(this::uncordon);
        }

        assertThat(seen).containsExactly(MCC, GATEKEEPER);
        assertThat(Files.readString(gatekeeperKubeconfig)).contains("name: \"" + GATEKEEPER.username() + "\"");
    }

    @Test
    void impersonationCarriesGroupsAndPercentEncodedExtraClaims() {
        var seen = new ConcurrentLinkedQueue<Identity>();
        cluster.interceptRequests((request, proceed) -> {
            seen.add(cluster.identityOf(request));
            return proceed.get();
        });
        Identity mcd = Identities.machineConfigDaemon("worker-0");

        try (KubernetesClient client = cluster.clientAs(mcd)) {
            client.nodes().list();
        }
        Identity.serviceAccount("mcdhooks", "mcdhooks-bridge")
                .client(admin)
                .nodes()
                .list();

        assertThat(seen).containsExactly(mcd, GATEKEEPER);
        assertThat(mcd.extra()).containsEntry("authentication.kubernetes.io/node-name", List.of("worker-0"));
    }

    @Test
    void aPolicyThatDoesNotCompileIsRefusedOnCreateAndV1beta1IsEnforcedAsV1() {
        assertRefused(
                () -> install("""
                        apiVersion: admissionregistration.k8s.io/v1
                        kind: ValidatingAdmissionPolicy
                        metadata: {name: broken}
                        spec:
                          matchConstraints:
                            resourceRules:
                              - {apiGroups: [""], apiVersions: [v1], operations: [UPDATE], resources: [nodes]}
                          validations:
                            - expression: "object.spec +"
                        """),
                422,
                "ValidatingAdmissionPolicy.admissionregistration.k8s.io \"broken\" is invalid:"
                        + " spec.validations[0].expression: Invalid value: \"object.spec +\": compilation failed");
        assertThat(admin.admissionRegistration()
                        .v1()
                        .validatingAdmissionPolicies()
                        .list()
                        .getItems())
                .isEmpty();

        // OpenShift 4.16 serves v1beta1 only: the same shape, the same enforcement (fabric8 8 has no
        // v1beta1 model, so the objects go in as generic resources)
        String beta =
                denyUpdates("beta", "nodes").replace(CompiledPolicy.GROUP + "/v1", CompiledPolicy.GROUP + "/v1beta1");
        for (String document : beta.split("---\n")) {
            var object = admin.getKubernetesSerialization().unmarshal(document, GenericKubernetesResource.class);
            admin.genericKubernetesResources(new ResourceDefinitionContext.Builder()
                            .withGroup(CompiledPolicy.GROUP)
                            .withVersion("v1beta1")
                            .withKind(object.getKind())
                            .withPlural(
                                    object.getKind().equals(CompiledPolicy.KIND)
                                            ? "validatingadmissionpolicies"
                                            : "validatingadmissionpolicybindings")
                            .withNamespaced(false)
                            .build())
                    .resource(object)
                    .create();
        }
        admin.nodes().resource(node("worker-0")).create();
        try (KubernetesClient mcc = cluster.clientAs(MCC)) {
            assertRefused(() -> mcc.nodes().withName("worker-0").edit(n -> label(n, "x")), 422, "'beta'");
        }
    }

    @Test
    void removingTheBindingEndsEnforcementAndAWarnBindingOnlyWarns() {
        install(denyUpdates("deny-updates", "nodes"));
        admin.nodes().resource(node("worker-0")).create();
        try (KubernetesClient mcc = cluster.clientAs(MCC)) {
            assertRefused(() -> mcc.nodes().withName("worker-0").edit(n -> label(n, "a")), 422, "deny-updates");

            admin.admissionRegistration()
                    .v1()
                    .validatingAdmissionPolicyBindings()
                    .withName("deny-updates")
                    .delete();
            mcc.nodes().withName("worker-0").edit(n -> label(n, "b"));

            install(PolicyYaml.binding("deny-updates", "Warn, Audit"));
            mcc.nodes().withName("worker-0").edit(n -> label(n, "c"));
        }

        assertThat(admin.nodes().withName("worker-0").get().getMetadata().getLabels())
                .containsKeys("b", "c");
        assertThat(cluster.admissionRecords())
                .extracting(AdmissionRecord::action, AdmissionRecord::username, AdmissionRecord::message)
                .containsExactly(tuple("Warn", MCC.username(), "no"), tuple("Audit", MCC.username(), "no"));
    }

    // --- helpers

    private void install(String resourceOrYaml) {
        install(admin, resourceOrYaml);
    }

    /** The file as shipped. */
    private static void install(KubernetesClient client, Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            client.load(in).create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void install(KubernetesClient client, String resourceOrYaml) {
        try (InputStream in = resourceOrYaml.endsWith(".yaml")
                ? getClass().getClassLoader().getResourceAsStream(resourceOrYaml)
                : new ByteArrayInputStream(resourceOrYaml.getBytes(StandardCharsets.UTF_8))) {
            client.load(in).create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String denyUpdates(String name, String resource) {
        return bound(
                name,
                "{apiGroups: [\"\"], apiVersions: [v1], operations: [UPDATE], resources: [\"" + resource + "\"]}",
                "- {expression: \"request.userInfo.username == '" + GATEKEEPER.username() + "'\", message: \"no\"}\n");
    }

    /** A policy with one resource rule and these validations, and its Deny binding of the same name. */
    private static String bound(String name, String rule, String validations) {
        return PolicyYaml.policy(name, rule, "validations:\n" + validations.indent(2)) + "---\n"
                + PolicyYaml.binding(name, "Deny");
    }

    private void heldNode(String name) {
        admin.nodes()
                .resource(new NodeBuilder(node(name))
                        .editMetadata()
                        .addToAnnotations(HOLD, "gate-1")
                        .endMetadata()
                        .editSpec()
                        .withUnschedulable(true)
                        .endSpec()
                        .build())
                .create();
    }

    private static Node node(String name) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .withNewStatus()
                .endStatus()
                .build();
    }

    private Node uncordon(Node n) {
        n.getSpec().setUnschedulable(null);
        return n;
    }

    private Node label(Node n, String key) {
        var labels = new HashMap<String, String>();
        if (n.getMetadata().getLabels() != null) {
            labels.putAll(n.getMetadata().getLabels());
        }
        labels.put(key, "yes");
        n.getMetadata().setLabels(labels);
        return n;
    }

    private Node ready(Node n) {
        n.getStatus().setConditions(List.of(new NodeCondition(null, null, "ready", "KubeletReady", "True", "Ready")));
        return n;
    }

    private static KubernetesClient fromKubeconfig(Path kubeconfig) throws IOException {
        return new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig)))
                .build();
    }

    private static void assertRefused(ThrowingCallable call, int code, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(KubernetesClientException.class, e -> {
            assertThat(e.getCode()).as(e.getMessage()).isEqualTo(code);
            assertThat(e.getStatus().getMessage()).contains(message);
        });
    }
}
