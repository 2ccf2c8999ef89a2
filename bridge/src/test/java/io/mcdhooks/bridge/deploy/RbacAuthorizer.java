package io.mcdhooks.bridge.deploy;

import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Kubernetes' RBAC authorizer over the shipped Roles, ClusterRoles and bindings, to show what an
 * identity may and may not do without a cluster. It follows {@code plugin/pkg/auth/authorizer/rbac/rbac.go}
 * ({@code RuleAllows}: verb, API group, resource with subresource, resource name) and
 * {@code pkg/registry/rbac/validation/rule.go} ({@code VisitRulesFor}: every ClusterRoleBinding, then
 * the RoleBindings of the request's namespace, a RoleBinding's ClusterRole granting only there;
 * {@code appliesToUser}: User by name, Group by membership, ServiceAccount by
 * {@code system:serviceaccount:<ns>:<name>}). Deny by default; there is no deny rule. Non-resource
 * URLs and aggregated ClusterRoles are not modelled: nothing here ships them.
 */
final class RbacAuthorizer {

    /** Who asks: a user name and its groups, as the authenticator hands them to the authorizer. */
    record User(String name, List<String> groups) {
        static User serviceAccount(String namespace, String name) {
            return new User(
                    "system:serviceaccount:" + namespace + ":" + name,
                    List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace, "system:authenticated"));
        }

        static User node(String name) {
            return new User("system:node:" + name, List.of("system:nodes", "system:authenticated"));
        }

        static User of(String name, String... groups) {
            List<String> all = new ArrayList<>(List.of(groups));
            all.add("system:authenticated");
            return new User(name, all);
        }
    }

    /** A resource request; {@code namespace} empty for cluster-scoped resources, {@code name} empty for create and list. */
    record Request(String verb, String apiGroup, String resource, String subresource, String namespace, String name) {
        static Request of(String verb, String apiGroup, String resource, String namespace, String name) {
            String[] parts = resource.split("/", 2);
            return new Request(
                    verb,
                    apiGroup,
                    parts[0],
                    parts.length > 1 ? parts[1] : "",
                    namespace == null ? "" : namespace,
                    name == null ? "" : name);
        }
    }

    private final List<ClusterRole> clusterRoles;
    private final List<Role> roles;
    private final List<ClusterRoleBinding> clusterRoleBindings;
    private final List<RoleBinding> roleBindings;

    RbacAuthorizer(
            List<ClusterRole> clusterRoles,
            List<Role> roles,
            List<ClusterRoleBinding> clusterRoleBindings,
            List<RoleBinding> roleBindings) {
        this.clusterRoles = clusterRoles;
        this.roles = roles;
        this.clusterRoleBindings = clusterRoleBindings;
        this.roleBindings = roleBindings;
    }

    boolean allows(User user, Request request) {
        for (ClusterRoleBinding binding : clusterRoleBindings) {
            if (appliesTo(user, binding.getSubjects(), "") && rulesAllow(rules(binding.getRoleRef(), ""), request)) {
                return true;
            }
        }
        if (request.namespace().isEmpty()) {
            return false;
        }
        for (var binding : roleBindings) {
            String namespace = binding.getMetadata().getNamespace();
            if (namespace.equals(request.namespace())
                    && appliesTo(user, binding.getSubjects(), namespace)
                    && rulesAllow(rules(binding.getRoleRef(), namespace), request)) {
                return true;
            }
        }
        return false;
    }

    /** Every rule that could ever apply to {@code user}, anywhere: empty means no access to the API at all. */
    List<PolicyRule> everyRuleOf(User user) {
        List<PolicyRule> found = new ArrayList<>();
        clusterRoleBindings.stream()
                .filter(b -> appliesTo(user, b.getSubjects(), ""))
                .forEach(b -> found.addAll(rules(b.getRoleRef(), "")));
        roleBindings.stream()
                .filter(b -> appliesTo(user, b.getSubjects(), b.getMetadata().getNamespace()))
                .forEach(b -> found.addAll(rules(b.getRoleRef(), b.getMetadata().getNamespace())));
        return found;
    }

    /** A binding's rules; a missing role grants nothing, as the resolver skips it with an error. */
    private List<PolicyRule> rules(RoleRef ref, String bindingNamespace) {
        if (ref.getKind().equals("ClusterRole")) {
            return clusterRoles.stream()
                    .filter(r -> r.getMetadata().getName().equals(ref.getName()))
                    .findFirst()
                    .map(ClusterRole::getRules)
                    .orElse(List.of());
        }
        return roles.stream()
                .filter(r -> r.getMetadata().getName().equals(ref.getName())
                        && r.getMetadata().getNamespace().equals(bindingNamespace))
                .findFirst()
                .map(Role::getRules)
                .orElse(List.of());
    }

    private static boolean appliesTo(User user, List<Subject> subjects, String bindingNamespace) {
        for (Subject subject : subjects == null ? List.<Subject>of() : subjects) {
            boolean applies = switch (subject.getKind()) {
                case "User" -> user.name().equals(subject.getName());
                case "Group" -> user.groups().contains(subject.getName());
                case "ServiceAccount" -> {
                    String namespace = subject.getNamespace() == null
                                    || subject.getNamespace().isEmpty()
                            ? bindingNamespace
                            : subject.getNamespace();
                    yield !namespace.isEmpty()
                            && user.name().equals("system:serviceaccount:" + namespace + ":" + subject.getName());
                }
                default -> false;
            };
            if (applies) {
                return true;
            }
        }
        return false;
    }

    private static boolean rulesAllow(List<PolicyRule> rules, Request request) {
        return rules.stream().anyMatch(rule -> ruleAllows(rule, request));
    }

    static boolean ruleAllows(PolicyRule rule, Request request) {
        String combined =
                request.subresource().isEmpty() ? request.resource() : request.resource() + "/" + request.subresource();
        return matches(rule.getVerbs(), request.verb())
                && matches(rule.getApiGroups(), request.apiGroup())
                && resourceMatches(rule.getResources(), combined, request.subresource())
                && (rule.getResourceNames() == null
                        || rule.getResourceNames().isEmpty()
                        || rule.getResourceNames().contains(request.name()));
    }

    private static boolean matches(List<String> values, String requested) {
        return values != null && (values.contains("*") || values.contains(requested));
    }

    private static boolean resourceMatches(List<String> resources, String combined, String subresource) {
        for (String resource : resources == null ? List.<String>of() : resources) {
            if (resource.equals("*") || resource.equals(combined)) {
                return true;
            }
            if (!subresource.isEmpty() && Objects.equals(resource, "*/" + subresource)) {
                return true;
            }
        }
        return false;
    }
}
