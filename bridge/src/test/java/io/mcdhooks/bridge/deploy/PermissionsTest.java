package io.mcdhooks.bridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.mcdhooks.bridge.deploy.RbacAuthorizer.Request;
import io.mcdhooks.bridge.deploy.RbacAuthorizer.User;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the shipped RBAC lets each identity do, evaluated as Kubernetes' RBAC authorizer does
 * ({@link RbacAuthorizer}), and the table of denials in docs/operations.md ("Permissions and
 * admission denials"): every RBAC row is refused by the evaluator, every admission row names a
 * shipped policy and one of its messages.
 */
class PermissionsTest {

    private static final User BRIDGE = User.serviceAccount("mcdhooks", "mcdhooks-bridge");
    private static final User OVERRIDER = User.of("alice", "mcdhooks-gate-overriders");
    private static final String HOOKS_GROUP = "mcdhooks.io";
    /** The groups of our own kinds, where the table names them without one. */
    private static final Map<String, String> OUR_GROUPS =
            Map.of("gateoverrides", HOOKS_GROUP, "updatehooks", HOOKS_GROUP);

    private final RbacAuthorizer rbac = new RbacAuthorizer(
            Manifests.ofType(ClusterRole.class),
            Manifests.ofType(Role.class),
            Manifests.ofType(ClusterRoleBinding.class),
            Manifests.ofType(RoleBinding.class));

    @Test
    void theEvaluatorMatchesSubresourcesNamesAndNamespacesAsKubernetesDoes() {
        PolicyRule pods = new PolicyRuleBuilder()
                .withApiGroups("")
                .withResources("pods")
                .withVerbs("get", "create")
                .build();
        PolicyRule named = new PolicyRuleBuilder()
                .withApiGroups("")
                .withResources("secrets")
                .withResourceNames("a")
                .withVerbs("get", "create")
                .build();
        PolicyRule anyStatus = new PolicyRuleBuilder()
                .withApiGroups("*")
                .withResources("*/status")
                .withVerbs("*")
                .build();
        assertThat(RbacAuthorizer.ruleAllows(pods, Request.of("get", "", "pods", "ns", "p")))
                .isTrue();
        assertThat(RbacAuthorizer.ruleAllows(pods, Request.of("create", "", "pods/exec", "ns", "p")))
                .isFalse();
        assertThat(RbacAuthorizer.ruleAllows(pods, Request.of("get", "apps", "pods", "ns", "p")))
                .isFalse();
        assertThat(RbacAuthorizer.ruleAllows(named, Request.of("get", "", "secrets", "ns", "a")))
                .isTrue();
        assertThat(RbacAuthorizer.ruleAllows(named, Request.of("get", "", "secrets", "ns", "b")))
                .isFalse();
        assertThat(RbacAuthorizer.ruleAllows(named, Request.of("create", "", "secrets", "ns", "")))
                .as("a create has no name, so resourceNames never allow it")
                .isFalse();
        assertThat(RbacAuthorizer.ruleAllows(anyStatus, Request.of("patch", "x.io", "things/status", "", "t")))
                .isTrue();
        assertThat(RbacAuthorizer.ruleAllows(anyStatus, Request.of("patch", "x.io", "things", "", "t")))
                .isFalse();
        // a RoleBinding of a ClusterRole grants it in the binding's namespace only
        assertThat(rbac.allows(OVERRIDER, Request.of("create", HOOKS_GROUP, "gateoverrides", "mcdhooks", "")))
                .isTrue();
        assertThat(rbac.allows(OVERRIDER, Request.of("create", HOOKS_GROUP, "gateoverrides", "mcdhooks-hooks", "")))
                .isFalse();
    }

    @Test
    void theBridgeMayPullItsLeversAndReadItsKeys() {
        assertThat(rbac.allows(BRIDGE, Request.of("create", "", "pods", "mcdhooks", "")))
                .isTrue();
        assertThat(rbac.allows(BRIDGE, Request.of("update", "", "nodes", "", "worker-0")))
                .isTrue();
        assertThat(rbac.allows(
                        BRIDGE,
                        Request.of("patch", "machineconfiguration.openshift.io", "machineconfigpools", "", "worker")))
                .isTrue();
        for (String verb : List.of("get", "list", "watch")) {
            assertThat(rbac.allows(BRIDGE, Request.of(verb, "", "secrets", "mcdhooks", "mcdhooks-verification-keys")))
                    .as(verb)
                    .isTrue();
        }
        assertThat(rbac.allows(BRIDGE, Request.of("patch", HOOKS_GROUP, "gateoverrides/status", "mcdhooks", "o")))
                .isTrue();
    }

    @Test
    void hooksHaveNoPermissionAndNoTokenToUseOne() {
        List<ServiceAccount> accounts = Manifests.ofType(ServiceAccount.class).stream()
                .filter(a -> a.getMetadata().getNamespace().equals("mcdhooks-hooks"))
                .toList();
        assertThat(accounts).hasSize(2);
        for (ServiceAccount account : accounts) {
            User hook =
                    User.serviceAccount("mcdhooks-hooks", account.getMetadata().getName());
            assertThat(rbac.everyRuleOf(hook))
                    .as(account.getMetadata().getName())
                    .isEmpty();
            assertThat(account.getAutomountServiceAccountToken()).isFalse();
        }
        Stream.concat(
                        Manifests.ofType(Deployment.class).stream()
                                .filter(d -> d.getMetadata().getNamespace().equals("mcdhooks-hooks"))
                                .map(d -> d.getSpec().getTemplate().getSpec()),
                        Manifests.ofType(DaemonSet.class).stream()
                                .map(d -> d.getSpec().getTemplate().getSpec()))
                .map(PodSpec::getAutomountServiceAccountToken)
                .forEach(mount -> assertThat(mount).isFalse());
    }

    @Test
    void everyRbacDenialTheOperationsGuideListsIsRefused() {
        List<String[]> rows = denials();
        assertThat(rows).filteredOn(r -> r[4].equals("RBAC")).hasSizeGreaterThan(10);
        for (String[] row : rows) {
            if (!row[4].equals("RBAC")) {
                continue;
            }
            Request request = request(row[2], row[3]);
            assertThat(rbac.allows(user(row[1]), request))
                    .as("docs/operations.md says RBAC refuses %s to %s", String.join(" | ", row), row[1])
                    .isFalse();
        }
    }

    @Test
    void everyAdmissionDenialTheOperationsGuideListsIsAMessageOfThatPolicy() {
        String policies = Manifests.read(AdmissionPoliciesTest.V1.resolve("bridge-levers-policy.yaml"))
                + Manifests.read(AdmissionPoliciesTest.V1.resolve("gate-override-policy.yaml"));
        List<String[]> admission =
                denials().stream().filter(r -> !r[4].equals("RBAC")).toList();
        assertThat(admission).hasSizeGreaterThan(8);
        for (String[] row : admission) {
            assertThat(row[4]).as(String.join(" | ", row)).matches("`mcdhooks-[a-z-]+`");
            String policy = row[4].replace("`", "");
            assertThat(policies).contains("name: " + policy + "\n");
            String message = row[5].replace("`", "");
            assertThat(policies).as("%s says %s", policy, message).contains(message);
        }
    }

    /** Rows of the denials table: | identity | request | namespace | refused by | answer |, cells trimmed. */
    private static List<String[]> denials() {
        List<String[]> rows = new ArrayList<>();
        boolean inSection = false;
        for (String line :
                Manifests.read(Path.of("..", "docs", "operations.md")).lines().toList()) {
            if (line.startsWith("#")) {
                inSection = line.matches("#+ Permissions and admission denials");
                continue;
            }
            if (inSection && line.startsWith("| `")) {
                rows.add(Arrays.stream(line.split("\\|", -1)).map(String::trim).toArray(String[]::new));
            }
        }
        return rows;
    }

    private static User user(String cell) {
        String name = cell.replace("`", "");
        if (name.startsWith("system:serviceaccount:")) {
            String[] parts = name.split(":");
            return User.serviceAccount(parts[2], parts[3]);
        }
        if (name.startsWith("system:node:")) {
            return User.node(name.substring("system:node:".length()));
        }
        return User.of(name);
    }

    /** "`get secrets mcdhooks-bridge`" or "`create gateoverrides.mcdhooks.io`", in namespace "`ns`" or "cluster". */
    private static Request request(String cell, String namespaceCell) {
        String[] words = cell.replace("`", "").split(" ");
        String[] resource = words[1].split("/", 2);
        int dot = resource[0].indexOf('.');
        String group = dot < 0 ? OUR_GROUPS.getOrDefault(resource[0], "") : resource[0].substring(dot + 1);
        String plural = (dot < 0 ? resource[0] : resource[0].substring(0, dot))
                + (resource.length > 1 ? "/" + resource[1] : "");
        String namespace = namespaceCell.equals("cluster") ? "" : namespaceCell.replace("`", "");
        return Request.of(words[0], group, plural, namespace, words.length > 2 ? words[2] : "");
    }
}
