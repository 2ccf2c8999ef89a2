package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchResources;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.NamedRuleWithOperations;
import java.util.List;
import java.util.Map;

/**
 * Whether a policy's {@code matchConstraints} (or a binding's {@code matchResources}) take a
 * request, as kube-apiserver's policy matcher decides ({@code admission/plugin/policy/matching},
 * {@code webhook/predicates/rules}): a resource rule must match (scope, operation, group, version,
 * resource and subresource, resource names), no exclude rule may, and the namespace and object
 * selectors must select. {@code resources: [nodes]} does not match {@code nodes/status};
 * {@code nodes/*} matches both, {@code *} every main resource, {@code *}{@code /*} everything.
 * {@code matchPolicy: Equivalent} is treated as {@code Exact} (every resource here is served in one
 * version).
 */
final class PolicyMatch {

    private PolicyMatch() {}

    static boolean matches(MatchResources match, AdmissionAttributes a) {
        if (match == null) {
            return true;
        }
        // Rules first: they read the path alone, the selectors need the objects parsed.
        if (match.getResourceRules() != null
                && !match.getResourceRules().isEmpty()
                && match.getResourceRules().stream().noneMatch(r -> ruleMatches(r, a))) {
            return false;
        }
        if (match.getExcludeResourceRules() != null
                && match.getExcludeResourceRules().stream().anyMatch(r -> ruleMatches(r, a))) {
            return false;
        }
        return selects(match.getNamespaceSelector(), a.path().namespace().isEmpty() ? null : a.namespaceLabels())
                && objectSelected(match.getObjectSelector(), a);
    }

    static boolean ruleMatches(NamedRuleWithOperations rule, AdmissionAttributes a) {
        ApiPath p = a.path();
        return scope(rule.getScope(), p)
                && anyOrContains(rule.getOperations(), a.operation())
                && anyOrContains(rule.getApiGroups(), p.group())
                && anyOrContains(rule.getApiVersions(), p.version())
                && resource(rule.getResources(), p)
                && (empty(rule.getResourceNames()) || rule.getResourceNames().contains(a.name()));
    }

    private static boolean scope(String scope, ApiPath p) {
        if (scope == null || scope.equals("*")) {
            return true;
        }
        boolean namespaced = !p.namespace().isEmpty();
        return scope.equals("Namespaced") ? namespaced : !namespaced;
    }

    private static boolean resource(List<String> resources, ApiPath p) {
        if (resources == null) {
            return false;
        }
        for (String r : resources) {
            int slash = r.indexOf('/');
            String res = slash < 0 ? r : r.substring(0, slash);
            String sub = slash < 0 ? "" : r.substring(slash + 1);
            if ((res.equals("*") || res.equals(p.resource())) && (sub.equals("*") || sub.equals(p.subresource()))) {
                return true;
            }
        }
        return false;
    }

    private static boolean anyOrContains(List<String> values, String value) {
        return values != null && (values.contains("*") || values.contains(value));
    }

    /**
     * A namespace selector on a cluster-scoped request ({@code labels == null}) always matches; an
     * absent or empty selector matches everything.
     */
    private static boolean selects(LabelSelector selector, Map<String, String> labels) {
        return selector == null || labels == null || DisruptionBudgets.selects(selector, labels);
    }

    /** The object selector matches if it selects the new object or the old one. */
    private static boolean objectSelected(LabelSelector selector, AdmissionAttributes a) {
        if (selector == null || (empty(selector.getMatchExpressions()) && empty(selector.getMatchLabels()))) {
            return true;
        }
        Map<String, String> object = a.objectLabels();
        Map<String, String> old = a.oldObjectLabels();
        return (object != null && DisruptionBudgets.selects(selector, object))
                || (old != null && DisruptionBudgets.selects(selector, old));
    }

    private static boolean empty(List<?> list) {
        return list == null || list.isEmpty();
    }

    private static boolean empty(Map<?, ?> map) {
        return map == null || map.isEmpty();
    }
}
