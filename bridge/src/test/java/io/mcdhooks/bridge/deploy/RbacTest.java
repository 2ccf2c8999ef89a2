package io.mcdhooks.bridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.mcdhooks.bridge.Leadership;
import io.mcdhooks.bridge.gate.VerificationKeys;
import io.mcdhooks.bridge.gatekeeper.EventWriter;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.mco.McoApi;
import io.mcdhooks.bridge.overrides.GateOverride;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The bridge may do exactly what its code does: fabric8 informers list and watch; {@code edit}
 * and {@code editStatus} get, then patch; the node levers get, then update under a
 * resourceVersion; gate objects are got, created and deleted; the Lease is got, created and
 * patched; Events are created.
 */
class RbacTest {

    private static final String MCO = McoApi.GROUP;
    private static final String HOOKS = UpdateHook.GROUP;

    @Test
    void clusterRoleCoversExactlyWhatTheGatekeeperTouchesClusterWide() {
        assertThat(rules(Manifests.one(ClusterRole.class, WorkloadsTest.BRIDGE).getRules()))
                .containsExactlyInAnyOrder(
                        "/nodes/get",
                        "/nodes/list",
                        "/nodes/watch",
                        "/nodes/update",
                        "/nodes/patch",
                        "admissionregistration.k8s.io/validatingadmissionpolicies/list",
                        "admissionregistration.k8s.io/validatingadmissionpolicies/watch",
                        "admissionregistration.k8s.io/validatingadmissionpolicybindings/list",
                        "admissionregistration.k8s.io/validatingadmissionpolicybindings/watch",
                        "config.openshift.io/infrastructures[cluster]/get",
                        MCO + "/machineconfigpools/get",
                        MCO + "/machineconfigpools/list",
                        MCO + "/machineconfigpools/watch",
                        MCO + "/machineconfigpools/patch",
                        MCO + "/machineconfigs/get",
                        MCO + "/machineconfigs/list",
                        MCO + "/machineconfigs/watch",
                        MCO + "/machineconfignodes/get",
                        MCO + "/machineconfignodes/list",
                        MCO + "/machineconfignodes/watch",
                        McoApi.OPERATOR_GROUP + "/machineconfigurations/get",
                        McoApi.OPERATOR_GROUP + "/machineconfigurations/list",
                        McoApi.OPERATOR_GROUP + "/machineconfigurations/watch",
                        HOOKS + "/updatehooks/get",
                        HOOKS + "/updatehooks/list",
                        HOOKS + "/updatehooks/watch",
                        HOOKS + "/updatehooks/status/patch",
                        "admissionregistration.k8s.io/validatingadmissionpolicies[" + GateOverride.POLICY + "]/get",
                        "admissionregistration.k8s.io/validatingadmissionpolicybindings[" + GateOverride.POLICY
                                + "]/get");
    }

    @Test
    void roleCoversGateObjectsAndTheLeaseInItsOwnNamespace() {
        Role role = Manifests.one(Role.class, WorkloadsTest.BRIDGE);
        assertThat(role.getMetadata().getNamespace())
                .isEqualTo(WorkloadsTest.bridge().getMetadata().getNamespace());
        assertThat(rules(role.getRules()))
                .containsExactlyInAnyOrder(
                        "/pods/create",
                        "/pods/delete",
                        "/pods/get",
                        "/pods/list",
                        "/pods/watch",
                        "/secrets[" + VerificationKeys.SECRET + "]/get",
                        "/secrets[" + VerificationKeys.SECRET + "]/list",
                        "/secrets[" + VerificationKeys.SECRET + "]/watch",
                        HOOKS + "/gateoverrides/get",
                        HOOKS + "/gateoverrides/list",
                        HOOKS + "/gateoverrides/watch",
                        HOOKS + "/gateoverrides/status/patch",
                        "policy/poddisruptionbudgets/create",
                        "policy/poddisruptionbudgets/delete",
                        "policy/poddisruptionbudgets/get",
                        "policy/poddisruptionbudgets/list",
                        "policy/poddisruptionbudgets/watch",
                        "coordination.k8s.io/leases/create",
                        "coordination.k8s.io/leases[" + Leadership.LEASE + "]/get",
                        "coordination.k8s.io/leases[" + Leadership.LEASE + "]/patch");
    }

    @Test
    void eventsMayBeCreatedWhereTheGatekeeperWritesThem() throws Exception {
        Field field = EventWriter.class.getDeclaredField("NAMESPACE");
        field.setAccessible(true);
        String namespace = (String) field.get(null);
        List<Role> roles = Manifests.ofType(Role.class).stream()
                .filter(r ->
                        r.getRules().stream().anyMatch(p -> p.getResources().contains("events")))
                .toList();
        assertThat(roles).singleElement().satisfies(role -> {
            assertThat(role.getMetadata().getNamespace()).isEqualTo(namespace);
            assertThat(rules(role.getRules())).containsExactly("/events/create");
        });
    }

    @Test
    void overridesMayBeCreatedOnlyInTheGatekeepersNamespaceByTheOverridersGroup() {
        ClusterRole role = Manifests.one(ClusterRole.class, GateOverride.POLICY);
        assertThat(rules(role.getRules()))
                .containsExactlyInAnyOrder(
                        HOOKS + "/gateoverrides/create",
                        HOOKS + "/gateoverrides/get",
                        HOOKS + "/gateoverrides/list",
                        HOOKS + "/gateoverrides/watch",
                        HOOKS + "/gateoverrides/delete");
        RoleBinding binding = Manifests.one(RoleBinding.class, GateOverride.POLICY);
        assertThat(binding.getMetadata().getNamespace())
                .isEqualTo(WorkloadsTest.bridge().getMetadata().getNamespace());
        assertThat(binding.getRoleRef().getName()).isEqualTo(GateOverride.POLICY);
        assertThat(binding.getSubjects())
                .extracting(Subject::getKind, Subject::getName)
                .containsExactly(Tuple.tuple("Group", "mcdhooks-gate-overriders"));
        assertThat(Manifests.ofType(ClusterRoleBinding.class))
                .noneMatch(b -> b.getRoleRef().getName().equals(GateOverride.POLICY));
    }

    @Test
    void bindingsGrantTheBridgesRolesToTheBridgeOnly() {
        ServiceAccount account = Manifests.one(ServiceAccount.class, WorkloadsTest.BRIDGE);
        for (ClusterRoleBinding b : Manifests.ofType(ClusterRoleBinding.class)) {
            assertRefersToExisting(b.getRoleRef(), null);
            assertThat(b.getSubjects())
                    .extracting(Subject::getName, Subject::getNamespace)
                    .containsExactly(Tuple.tuple(
                            account.getMetadata().getName(),
                            account.getMetadata().getNamespace()));
        }
        List<RoleBinding> bindings = Manifests.ofType(RoleBinding.class).stream()
                .filter(b -> !b.getRoleRef().getName().equals(GateOverride.POLICY))
                .toList();
        assertThat(bindings).hasSize(2);
        for (RoleBinding b : bindings) {
            assertRefersToExisting(b.getRoleRef(), b.getMetadata().getNamespace());
            assertThat(b.getSubjects())
                    .extracting(Subject::getName, Subject::getNamespace)
                    .containsExactly(Tuple.tuple(
                            account.getMetadata().getName(),
                            account.getMetadata().getNamespace()));
        }
    }

    @Test
    void openShiftGrantsHostNetworkToTheNodeLocalHookOnly() {
        Path file = Manifests.DEPLOY.resolve("overlays/openshift/platform/scc-hostnetwork.yaml");
        RoleBinding binding = Manifests.parse(Manifests.documents(file).get(0), RoleBinding.class);
        assertThat(binding.getRoleRef().getName()).isEqualTo("system:openshift:scc:hostnetwork-v2");
        String account = Manifests.ofType(DaemonSet.class)
                .get(0)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getServiceAccountName();
        assertThat(binding.getSubjects()).extracting(Subject::getName).containsExactly(account);
    }

    @Test
    void theRollbackComponentLetsTheBridgeWriteMachineConfigsAndNothingElse() {
        Path file = Manifests.DEPLOY.resolve("rollback/rbac.yaml");
        List<Manifests.Document> documents = Manifests.documents(file);
        ClusterRole role = Manifests.parse(documents.get(0), ClusterRole.class);
        // what MachineConfigWrites calls beyond the base's get: create, edit (get, then patch), delete
        assertThat(rules(role.getRules()))
                .containsExactlyInAnyOrder(
                        MCO + "/machineconfigs/create", MCO + "/machineconfigs/patch", MCO + "/machineconfigs/delete");
        ClusterRoleBinding binding = Manifests.parse(documents.get(1), ClusterRoleBinding.class);
        assertThat(binding.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
        assertThat(binding.getSubjects())
                .singleElement()
                .satisfies(s -> assertThat(s.getName() + "/" + s.getNamespace())
                        .isEqualTo(WorkloadsTest.bridge()
                                        .getSpec()
                                        .getTemplate()
                                        .getSpec()
                                        .getServiceAccountName() + "/"
                                + WorkloadsTest.bridge().getMetadata().getNamespace()));
        assertThat(Manifests.read(Manifests.DEPLOY.resolve("rollback/enable.yaml")))
                .contains("MCDHOOKS_ROLLBACK", "\"true\"");
    }

    @Test
    void theOperationsGuideListsExactlyThesePermissions() {
        // docs/operations.md, section "Permissions": | resource | API group | verbs | where | why |
        Set<String> documented = new TreeSet<>();
        boolean inSection = false;
        for (String line :
                Manifests.read(Path.of("..", "docs", "operations.md")).lines().toList()) {
            if (line.startsWith("#")) {
                inSection = line.matches("#+ Permissions");
                continue;
            }
            if (!inSection || !line.startsWith("| `")) {
                continue;
            }
            String[] cells = Arrays.stream(line.split("\\|")).map(String::trim).toArray(String[]::new);
            String resource = cells[1].replace("`", "");
            String group = cells[2].replace("`", "").replace("(core)", "").trim();
            for (String verb : cells[3].split(",")) {
                documented.add(group + "/" + resource + "/" + verb.trim());
            }
        }
        Set<String> granted = new TreeSet<>();
        for (HasMetadata role : List.<HasMetadata>copyOf(Manifests.ofType(ClusterRole.class))) {
            granted.addAll(rules(((ClusterRole) role).getRules()));
        }
        Manifests.ofType(Role.class).forEach(r -> granted.addAll(rules(r.getRules())));
        assertThat(documented).isEqualTo(granted);
    }

    private static void assertRefersToExisting(RoleRef ref, String namespace) {
        if (ref.getKind().equals("ClusterRole")) {
            Manifests.one(ClusterRole.class, ref.getName());
        } else {
            assertThat(Manifests.one(Role.class, ref.getName()).getMetadata().getNamespace())
                    .isEqualTo(namespace);
        }
    }

    /** Each granted (group, resource[name], verb) as "group/resource/verb". */
    static Set<String> rules(List<PolicyRule> rules) {
        Set<String> out = new TreeSet<>();
        for (PolicyRule rule : rules) {
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    String names = rule.getResourceNames() == null
                                    || rule.getResourceNames().isEmpty()
                            ? ""
                            : rule.getResourceNames().stream().collect(Collectors.joining(",", "[", "]"));
                    for (String verb : rule.getVerbs()) {
                        out.add(group + "/" + resource + names + "/" + verb);
                    }
                }
            }
        }
        return out;
    }
}
