package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBindingBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The policy plugin on recorded requests: a Node before and after a write, who sent it, the path it
 * went to. No server: what kube-apiserver's matcher and validator decide, decided here.
 */
class ValidatingAdmissionTest {

    private static final KubernetesSerialization YAML = new KubernetesSerialization();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Identity DRAIN_CONTROLLER = Identities.MACHINE_CONFIG_CONTROLLER;
    private static final Identity GATEKEEPER = Identity.serviceAccount("mcdhooks", "mcdhooks-bridge");

    private static final String HOLD = onNodeUpdates("hold", """
            failurePolicy: Fail
            matchConditions:
              - name: held
                expression: "has(oldObject.metadata.annotations) && 'mcdhooks.io/hold' in oldObject.metadata.annotations"
              - name: not-the-gatekeeper
                expression: "request.userInfo.username != 'system:serviceaccount:mcdhooks:mcdhooks-bridge'"
              - name: not-break-glass
                expression: "!('mcdhooks:break-glass' in request.userInfo.groups)"
            validations:
              - expression: "!has(oldObject.spec.unschedulable) || !oldObject.spec.unschedulable || (has(object.spec.unschedulable) && object.spec.unschedulable)"
                messageExpression: "'node ' + object.metadata.name + ' is held'"
            """);

    @Test
    void anUncordonOfAHeldNodeByTheDrainControllerIsDeniedInKubeApiserversWords() {
        // Given the hold policy bound with Deny
        var admission = admission(HOLD, binding("hold-binding", "hold", "Deny"));

        // When the drain controller uncordons a held, cordoned node (omitempty: the field goes away)
        var uncordon = update(node("worker-0", true, true), node("worker-0", null, true), DRAIN_CONTROLLER);

        // Then it is refused: 422 Invalid (no reason given), message as admission.NewForbidden words it
        assertThatThrownBy(() -> admission.validate(uncordon)).isInstanceOfSatisfying(ApiError.class, e -> {
            assertThat(e.status().getCode()).isEqualTo(422);
            assertThat(e.status().getReason()).isEqualTo("Invalid");
            assertThat(e.status().getMessage())
                    .isEqualTo("nodes \"worker-0\" is forbidden: ValidatingAdmissionPolicy 'hold' with binding"
                            + " 'hold-binding' denied request: node worker-0 is held");
            assertThat(e.status().getDetails().getKind()).isEqualTo("nodes");
            assertThat(e.status().getDetails().getCauses())
                    .singleElement()
                    .satisfies(c -> assertThat(c.getMessage())
                            .startsWith("ValidatingAdmissionPolicy 'hold' with binding 'hold-binding'"));
        });
    }

    @Test
    void theGatekeeperABreakGlassAdminAndAnyoneOnANodeWithoutTheHoldMayUncordon() {
        var admission = admission(HOLD, binding("hold-binding", "hold", "Deny"));

        assertThatCode(() -> admission.validate(
                        update(node("worker-0", true, true), node("worker-0", null, true), GATEKEEPER)))
                .doesNotThrowAnyException();
        assertThatCode(() -> admission.validate(update(
                        node("worker-0", true, true),
                        node("worker-0", null, true),
                        Identity.user("alice", "mcdhooks:break-glass"))))
                .doesNotThrowAnyException();
        assertThatCode(() -> admission.validate(
                        update(node("worker-0", true, false), node("worker-0", null, false), DRAIN_CONTROLLER)))
                .doesNotThrowAnyException();
        // and an uncordoned held node may be cordoned by anyone (has() guards the absent field)
        assertThatCode(() -> admission.validate(
                        update(node("worker-0", null, true), node("worker-0", true, true), DRAIN_CONTROLLER)))
                .doesNotThrowAnyException();
    }

    @Test
    void aBindingWithoutItsPolicyAndAPolicyWithoutABindingEnforceNothing() {
        var uncordon = update(node("worker-0", true, true), node("worker-0", null, true), DRAIN_CONTROLLER);
        var unbound = new ValidatingAdmission();
        unbound.putPolicy(policy(HOLD));
        var orphan = new ValidatingAdmission();
        orphan.putBinding(binding("hold-binding", "hold", "Deny"));

        assertThat(unbound.enforcing()).isFalse();
        assertThat(orphan.enforcing()).isFalse();
        assertThatCode(() -> unbound.validate(uncordon)).doesNotThrowAnyException();
        assertThatCode(() -> orphan.validate(uncordon)).doesNotThrowAnyException();
    }

    @Test
    void policiesNeverJudgeWritesOfAdmissionConfiguration() {
        var admission = admission("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: everything}
                spec:
                  matchConstraints:
                    resourceRules:
                      - {apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"]}
                  validations:
                    - expression: "false"
                """, binding("b", "everything", "Deny"));
        var deleteBinding = new AdmissionAttributes(
                "DELETE",
                new ApiPath(CompiledPolicy.GROUP, "v1", "", "validatingadmissionpolicybindings", "b", "", ""),
                DRAIN_CONTROLLER,
                null,
                JSON.readTree("{\"kind\":\"ValidatingAdmissionPolicyBinding\",\"metadata\":{\"name\":\"b\"}}"),
                null);

        assertThatCode(() -> admission.validate(deleteBinding)).doesNotThrowAnyException();
    }

    @ParameterizedTest(name = "{0} matches {1}: {2}")
    @CsvSource({
        "nodes,          '',        true",
        "nodes,          status,    false",
        "nodes/status,   status,    true",
        "nodes/status,   '',        false",
        "nodes/*,        status,    true",
        "nodes/*,        '',        true",
        "*,              '',        true",
        "*,              status,    false",
        "*/*,            status,    true",
        "*/status,       status,    true",
        "pods,           '',        false",
    })
    void aResourceRuleMatchesSubresourcesOnlyWhenItNamesThem(String resource, String subresource, boolean matches) {
        var admission = admission(denyAll("UPDATE", resource), binding("b", "deny-all", "Deny"));
        var path = new ApiPath("", "v1", "", "nodes", "worker-0", subresource, "");
        var write = new AdmissionAttributes(
                "UPDATE",
                path,
                Identities.kubelet("worker-0"),
                tree(node("worker-0", null, false)),
                tree(node("worker-0", null, false)),
                null);

        if (matches) {
            assertThatThrownBy(() -> admission.validate(write)).isInstanceOf(ApiError.class);
        } else {
            assertThatCode(() -> admission.validate(write)).doesNotThrowAnyException();
        }
    }

    @Test
    void operationsResourceNamesAndExcludeRulesNarrowWhatMatches() {
        var policy = policy("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: narrow}
                spec:
                  matchConstraints:
                    resourceRules:
                      - {apiGroups: [""], apiVersions: ["*"], operations: [UPDATE, DELETE], resources: [nodes], resourceNames: [worker-0, worker-1]}
                    excludeResourceRules:
                      - {apiGroups: [""], apiVersions: ["*"], operations: ["*"], resources: [nodes], resourceNames: [worker-1]}
                  validations:
                    - expression: "false"
                """);
        var admission = new ValidatingAdmission();
        admission.putPolicy(policy);
        admission.putBinding(binding("b", "narrow", "Deny"));
        Node n0 = node("worker-0", null, false);
        Node n1 = node("worker-1", null, false);
        Node n2 = node("worker-2", null, false);

        assertThatThrownBy(() -> admission.validate(update(n0, n0, DRAIN_CONTROLLER)))
                .isInstanceOf(ApiError.class);
        assertThatThrownBy(() -> admission.validate(delete(n0))).isInstanceOf(ApiError.class);
        assertThatCode(() -> admission.validate(create(n0))).doesNotThrowAnyException();
        assertThatCode(() -> admission.validate(update(n1, n1, DRAIN_CONTROLLER)))
                .doesNotThrowAnyException();
        assertThatCode(() -> admission.validate(update(n2, n2, DRAIN_CONTROLLER)))
                .doesNotThrowAnyException();
    }

    @Test
    void anObjectSelectorSelectsTheNewOrTheOldObjectAndANamespaceSelectorTheNamespace() {
        var admission = admission("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: labelled}
                spec:
                  matchConstraints:
                    objectSelector: {matchLabels: {guarded: "yes"}}
                    namespaceSelector: {matchExpressions: [{key: tier, operator: In, values: [prod]}]}
                    resourceRules:
                      - {apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*"]}
                  validations:
                    - expression: "false"
                """, binding("b", "labelled", "Deny"));
        Node plain = node("worker-0", null, false);
        Node guarded = new NodeBuilder(plain)
                .editMetadata()
                .addToLabels("guarded", "yes")
                .endMetadata()
                .build();

        // a cluster-scoped object: the namespace selector does not apply, the object selector does
        assertThatThrownBy(() -> admission.validate(update(guarded, plain, DRAIN_CONTROLLER)))
                .isInstanceOf(ApiError.class);
        assertThatThrownBy(() -> admission.validate(update(plain, guarded, DRAIN_CONTROLLER)))
                .isInstanceOf(ApiError.class);
        assertThatCode(() -> admission.validate(update(plain, plain, DRAIN_CONTROLLER)))
                .doesNotThrowAnyException();
        // a namespaced object: only in a namespace labelled tier=prod
        String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"%s\","
                + "\"labels\":{\"guarded\":\"yes\"}}}";
        String namespace = "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"%s\","
                + "\"labels\":{\"tier\":\"%s\"}}}";
        for (String tier : List.of("prod", "dev")) {
            var write = new AdmissionAttributes(
                    "CREATE",
                    new ApiPath("", "v1", "ns-" + tier, "pods", "", "", ""),
                    GATEKEEPER,
                    JSON.readTree(pod.formatted("ns-" + tier)),
                    null,
                    JSON.readTree(namespace.formatted("ns-" + tier, tier)));
            if (tier.equals("prod")) {
                assertThatThrownBy(() -> admission.validate(write)).isInstanceOf(ApiError.class);
            } else {
                assertThatCode(() -> admission.validate(write)).doesNotThrowAnyException();
            }
        }
    }

    @Test
    void aFalseMatchConditionSkipsThePolicyAndAnErroringOneFollowsTheFailurePolicy() {
        String template = onNodeUpdates("conditional", """
                failurePolicy: %s
                matchConditions:
                  - {name: %s, expression: "%s"}
                validations:
                  - expression: "false"
                    message: denied
                """);
        Node n = node("worker-0", null, false);
        var write = update(n, n, DRAIN_CONTROLLER);

        assertThatCode(() -> admission(
                                template.formatted("Fail", "never", "1 == 2"), binding("b", "conditional", "Deny"))
                        .validate(write))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> admission(
                                template.formatted("Fail", "always", "1 == 1"), binding("b", "conditional", "Deny"))
                        .validate(write))
                .hasMessageEndingWith("denied request: denied");
        // object.spec.nope does not exist: a runtime error
        assertThatThrownBy(() -> admission(
                                template.formatted("Fail", "broken", "object.spec.nope == 1"),
                                binding("b", "conditional", "Deny"))
                        .validate(write))
                .hasMessageContaining("denied request: expression 'object.spec.nope == 1' resulted in error: ")
                .hasMessageContaining("nope");
        assertThatCode(() -> admission(
                                template.formatted("Ignore", "broken", "object.spec.nope == 1"),
                                binding("b", "conditional", "Deny"))
                        .validate(write))
                .doesNotThrowAnyException();
    }

    @Test
    void aValidationThatErrorsDeniesUnderFailAndAdmitsUnderIgnore() {
        String template = onNodeUpdates("strict", """
                failurePolicy: %s
                validations:
                  - expression: "object.spec.unschedulable == true"
                """);
        Node n = node("worker-0", null, false);
        var write = update(n, n, DRAIN_CONTROLLER);

        assertThatThrownBy(() -> admission(template.formatted("Fail"), binding("b", "strict", "Deny"))
                        .validate(write))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.status().getCode()).isEqualTo(422);
                    assertThat(e.status().getMessage())
                            .contains(
                                    "denied request: expression 'object.spec.unschedulable == true' resulted in error");
                });
        assertThatCode(() -> admission(template.formatted("Ignore"), binding("b", "strict", "Deny"))
                        .validate(write))
                .doesNotThrowAnyException();
    }

    @Test
    void theMessageIsTheMessageExpressionElseTheMessageElseTheFailedExpression() {
        String template = onNodeUpdates("words", """
                validations:
                  - expression: "object.metadata.name == 'other'"
                    %s
                """);
        Node n = node("worker-0", null, false);
        var write = update(n, n, DRAIN_CONTROLLER);

        assertThatThrownBy(() -> admission(
                                template.formatted(
                                        "messageExpression: \"'no ' + object.metadata.name\"\n      message: static"),
                                binding("b", "words", "Deny"))
                        .validate(write))
                .hasMessageEndingWith("denied request: no worker-0");
        // a messageExpression that errors or gives a blank string falls back to message
        assertThatThrownBy(() -> admission(
                                template.formatted("messageExpression: \"object.spec.nope\"\n      message: static"),
                                binding("b", "words", "Deny"))
                        .validate(write))
                .hasMessageEndingWith("denied request: static");
        assertThatThrownBy(() -> admission(
                                template.formatted("messageExpression: \"'  '\"\n      message: static"),
                                binding("b", "words", "Deny"))
                        .validate(write))
                .hasMessageEndingWith("denied request: static");
        assertThatThrownBy(() -> admission(template.formatted(""), binding("b", "words", "Deny"))
                        .validate(write))
                .hasMessageEndingWith("denied request: failed expression: object.metadata.name == 'other'");
    }

    @ParameterizedTest(name = "reason {0} answers {1}")
    @CsvSource({"Forbidden, 403", "Invalid, 422", "Unauthorized, 401", "RequestEntityTooLarge, 413"})
    void theValidationsReasonSetsTheStatusCode(String reason, int code) {
        var admission = admission(onNodeUpdates("coded", """
                validations:
                  - {expression: "false", reason: %s}
                """).formatted(reason), binding("b", "coded", "Deny"));
        Node n = node("worker-0", null, false);

        assertThatThrownBy(() -> admission.validate(update(n, n, DRAIN_CONTROLLER)))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.status().getCode()).isEqualTo(code);
                    assertThat(e.status().getReason()).isEqualTo(reason);
                });
    }

    @Test
    void variablesAreEvaluatedWhenReadAndAFailingOneFailsOnlyWhatReadsIt() {
        String template = onNodeUpdates("vars", """
                variables:
                  - {name: name, expression: "object.metadata.name"}
                  - {name: greeting, expression: "'hello ' + variables.name"}
                  - {name: broken, expression: "object.spec.nope"}
                validations:
                  - expression: "%s"
                """);
        Node n = node("worker-0", null, false);
        var write = update(n, n, DRAIN_CONTROLLER);

        assertThatCode(() -> admission(
                                template.formatted("variables.greeting == 'hello worker-0'"),
                                binding("b", "vars", "Deny"))
                        .validate(write))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> admission(template.formatted("variables.broken == 1"), binding("b", "vars", "Deny"))
                        .validate(write))
                .hasMessageContaining("composited variable \"broken\" fails to evaluate");
    }

    @Test
    void aWarnBindingAdmitsWithAWarningAndAnAuditBindingLeavesARecord() {
        var admission = admission(denyAll("UPDATE", "nodes"), binding("warn", "deny-all", "Warn", "Audit"));
        Node n = node("worker-0", null, false);

        var admitted = admission.validate(update(n, n, DRAIN_CONTROLLER));

        assertThat(admitted.warnings())
                .containsExactly("Validation failed for ValidatingAdmissionPolicy 'deny-all' with binding 'warn': no");
        assertThat(admission.records())
                .extracting(AdmissionRecord::action, AdmissionRecord::username, AdmissionRecord::resource)
                .containsExactly(
                        tuple("Warn", DRAIN_CONTROLLER.username(), "nodes"),
                        tuple("Audit", DRAIN_CONTROLLER.username(), "nodes"));
    }

    @Test
    void aBindingsMatchResourcesNarrowThePolicy() {
        var admission = new ValidatingAdmission();
        admission.putPolicy(policy(denyAll("UPDATE", "nodes")));
        admission.putBinding(CompiledPolicy.Binding.of(YAML.unmarshal("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: workers-only}
                spec:
                  policyName: deny-all
                  validationActions: [Deny]
                  matchResources:
                    objectSelector: {matchLabels: {node-role.kubernetes.io/worker: ""}}
                """, ValidatingAdmissionPolicyBinding.class)));
        Node master = node("master-0", null, false);
        Node worker = new NodeBuilder(node("worker-0", null, false))
                .editMetadata()
                .addToLabels("node-role.kubernetes.io/worker", "")
                .endMetadata()
                .build();

        assertThatCode(() -> admission.validate(update(master, master, DRAIN_CONTROLLER)))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> admission.validate(update(worker, worker, DRAIN_CONTROLLER)))
                .hasMessageContaining("with binding 'workers-only'");
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "has(object.spec.unschedulable) | true",
                "has(object.spec.providerID) | false",
                "object.spec.taints.exists(t, t.key == 'mcdhooks.io/post-update') | true",
                "object.spec.taints.all(t, t.effect == 'NoSchedule') | false",
                "object.spec.taints.exists_one(t, t.effect == 'NoSchedule') | true",
                "object.spec.taints.filter(t, t.effect == 'PreferNoSchedule').map(t, t.key) == ['UpdateInProgress'] | true",
                "'mcdhooks.io/hold' in object.metadata.annotations | true",
                "object.metadata.annotations['mcdhooks.io/hold'] == 'gate-1' | true",
                "size(object.spec.taints) == 2 | true",
                "object.metadata.name.startsWith('worker-') && object.metadata.name.endsWith('-0') | true",
                "object.metadata.name.contains('ork') | true",
                "object.metadata.name.matches('^worker-[0-9]+$') | true",
                "request.userInfo.username.split(':')[2] == 'openshift-machine-config-operator' | true",
                "'SYSTEM:AUTHENTICATED'.lowerAscii() in request.userInfo.groups | true",
                "request.userInfo.groups.exists(g, g.startsWith('system:serviceaccounts:')) | true",
                "request.operation == 'UPDATE' && request.name == 'worker-0' && !has(request.namespace) | true",
                "request.resource.resource == 'nodes' && request.kind.kind == 'Node' && request.kind.version == 'v1' | true",
                "!has(request.subResource) && !has(request.userInfo.extra) | true",
                "object.?spec.?nope.orValue('none') == 'none' | true",
                "cel.bind(t, object.spec.taints, size(t) > 1) | true",
                "sets.contains(request.userInfo.groups, ['system:authenticated']) | true",
                "oldObject.metadata.resourceVersion == '7' && object.metadata.generation == 2 | true",
            })
    void theCelFeaturesKubernetesPoliciesUseEvaluateAsInKubeApiserver(String expression, boolean expected) {
        var admission = admission(
                onNodeUpdates("feature", """
                validations:
                  - expression: "%s"
                """).formatted(expression.replace("\"", "\\\"")),
                binding("b", "feature", "Deny"));
        Node old = new NodeBuilder(node("worker-0", true, true))
                .editMetadata()
                .withResourceVersion("7")
                .endMetadata()
                .editSpec()
                .addNewTaint()
                .withKey("mcdhooks.io/post-update")
                .withEffect("NoSchedule")
                .endTaint()
                .addNewTaint()
                .withKey("UpdateInProgress")
                .withEffect("PreferNoSchedule")
                .endTaint()
                .endSpec()
                .build();
        Node updated = new NodeBuilder(old)
                .editMetadata()
                .withGeneration(2L)
                .endMetadata()
                .build();
        var write = update(old, updated, DRAIN_CONTROLLER);

        if (expected) {
            assertThatCode(() -> admission.validate(write)).doesNotThrowAnyException();
        } else {
            assertThatThrownBy(() -> admission.validate(write))
                    .hasMessageEndingWith("denied request: failed expression: " + expression);
        }
    }

    @Test
    void aPolicyWhoseExpressionsDoNotCompileIsRefusedNamingTheField() {
        assertThatThrownBy(() -> policy(onNodeUpdates("broken", """
                        matchConditions:
                          - {name: typed, expression: "'a string'"}
                        validations:
                          - expression: "object.spec +"
                          - expression: "params.allowed"
                        """))).isInstanceOfSatisfying(ApiError.class, e -> {
            assertThat(e.status().getCode()).isEqualTo(422);
            assertThat(e.status().getMessage())
                    .startsWith("ValidatingAdmissionPolicy.admissionregistration.k8s.io \"broken\" is invalid: [")
                    .contains(
                            "spec.matchConditions[0].expression: Invalid value: \"'a string'\": must evaluate to bool")
                    .contains("spec.validations[0].expression: Invalid value: \"object.spec +\": compilation failed")
                    .contains("spec.validations[1].expression: Invalid value: \"params.allowed\": 'params' is not"
                            + " supported by the in-memory API server");
        });
    }

    @Test
    void parametersAndBindingsThatBothDenyAndWarnAreRefused() {
        assertThatThrownBy(() -> policy("""
                        apiVersion: admissionregistration.k8s.io/v1
                        kind: ValidatingAdmissionPolicy
                        metadata: {name: with-params}
                        spec:
                          paramKind: {apiVersion: v1, kind: ConfigMap}
                          matchConstraints:
                            resourceRules:
                              - {apiGroups: [""], apiVersions: [v1], operations: [UPDATE], resources: [nodes]}
                          validations:
                            - expression: "true"
                        """))
                .hasMessageContaining(
                        "spec.paramKind: Forbidden: parameters are not supported by the in-memory API server");
        assertThatThrownBy(() -> binding("b", "p", "Deny", "Warn"))
                .hasMessageContaining("validationActions must not contain both Deny and Warn");
        assertThatThrownBy(() -> binding("b", "p")).hasMessageContaining("spec.validationActions: Required value");
    }

    // --- recorded requests

    private static Node node(String name, Boolean unschedulable, boolean held) {
        var builder = new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withUid("uid-" + name)
                .endMetadata()
                .withNewSpec()
                .withUnschedulable(unschedulable)
                .endSpec();
        if (held) {
            builder.editMetadata()
                    .addToAnnotations("mcdhooks.io/hold", "gate-1")
                    .endMetadata();
        }
        return builder.build();
    }

    private static AdmissionAttributes update(Node old, Node updated, Identity by) {
        return new AdmissionAttributes("UPDATE", nodePath(updated), by, tree(updated), tree(old), null);
    }

    private static AdmissionAttributes create(Node node) {
        return new AdmissionAttributes("CREATE", nodePath(null), Identity.admin(), tree(node), null, null);
    }

    private static AdmissionAttributes delete(Node node) {
        return new AdmissionAttributes("DELETE", nodePath(node), Identity.admin(), null, tree(node), null);
    }

    private static ApiPath nodePath(Node node) {
        return new ApiPath(
                "", "v1", "", "nodes", node == null ? "" : node.getMetadata().getName(), "", "");
    }

    private static JsonNode tree(HasMetadata object) {
        return JSON.readTree(YAML.asJson(object));
    }

    // --- policies

    private static String denyAll(String operation, String resource) {
        return """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: deny-all}
                spec:
                  matchConstraints:
                    resourceRules:
                      - {apiGroups: ["*"], apiVersions: ["*"], operations: [%s], resources: ["%s"]}
                  validations:
                    - {expression: "false", message: "no"}
                """.formatted(operation, resource);
    }

    /** A policy on updates of Nodes; {@code spec} is the rest of its spec. */
    private static String onNodeUpdates(String name, String spec) {
        return PolicyYaml.policy(name, PolicyYaml.NODE_UPDATES, spec);
    }

    private static CompiledPolicy policy(String yaml) {
        return CompiledPolicy.of(YAML.unmarshal(yaml, ValidatingAdmissionPolicy.class));
    }

    private static CompiledPolicy.Binding binding(String name, String policy, String... actions) {
        var binding = new ValidatingAdmissionPolicyBindingBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withPolicyName(policy)
                .withValidationActions(actions)
                .endSpec()
                .build();
        return CompiledPolicy.Binding.of(binding);
    }

    private static ValidatingAdmission admission(String policyYaml, CompiledPolicy.Binding binding) {
        var admission = new ValidatingAdmission();
        admission.putPolicy(policy(policyYaml));
        admission.putBinding(binding);
        return admission;
    }
}
