package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.AuditAnnotation;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchCondition;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchResources;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.NamedRuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.Validation;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.Variable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A ValidatingAdmissionPolicy with every CEL expression compiled, once, when it is stored. What
 * kube-apiserver's validation refuses on create ({@code admissionregistration/validation}), and what
 * this server does not support ({@code paramKind}), is refused here with the same 422 Invalid.
 */
record CompiledPolicy(
        String name,
        MatchResources matchConstraints,
        List<Named> matchConditions,
        List<Named> variables,
        List<Check> validations,
        List<Named> auditAnnotations,
        boolean failOnError) {

    static final String KIND = "ValidatingAdmissionPolicy";
    static final String BINDING_KIND = "ValidatingAdmissionPolicyBinding";
    static final String GROUP = "admissionregistration.k8s.io";
    private static final Set<String> REASONS = Set.of("Unauthorized", "Forbidden", "Invalid", "RequestEntityTooLarge");
    private static final Set<String> ACTIONS = Set.of("Deny", "Warn", "Audit");

    /** A named expression: a matchCondition, variable or audit annotation (named by its key). */
    record Named(String name, AdmissionCel.Expression expression) {}

    /** One validation. {@code message} and {@code messageExpression} may be null. */
    record Check(
            AdmissionCel.Expression expression,
            String message,
            AdmissionCel.Expression messageExpression,
            String reason) {}

    /** A binding of a policy, its actions and the resources it narrows the policy to. */
    record Binding(String name, String policyName, List<String> actions, MatchResources matchResources) {

        static Binding of(ValidatingAdmissionPolicyBinding binding) {
            String name = binding.getMetadata().getName();
            var spec = binding.getSpec();
            var errors = new ArrayList<String>();
            if (spec == null
                    || spec.getPolicyName() == null
                    || spec.getPolicyName().isBlank()) {
                errors.add("spec.policyName: Required value");
            }
            List<String> actions = spec == null || spec.getValidationActions() == null
                    ? List.of()
                    : List.copyOf(spec.getValidationActions());
            if (actions.isEmpty()) {
                errors.add("spec.validationActions: Required value: at least one validation action is required");
            }
            for (int i = 0; i < actions.size(); i++) {
                if (!ACTIONS.contains(actions.get(i))) {
                    errors.add("spec.validationActions[" + i + "]: Unsupported value: \"" + actions.get(i)
                            + "\": supported values: \"Audit\", \"Deny\", \"Warn\"");
                }
            }
            if (actions.contains("Deny") && actions.contains("Warn")) {
                errors.add("spec.validationActions: Invalid value: " + actions
                        + ": validationActions must not contain both Deny and Warn");
            }
            if (spec != null && spec.getParamRef() != null) {
                errors.add("spec.paramRef: Forbidden: parameters are not supported by the in-memory API server");
            }
            if (!errors.isEmpty()) {
                throw ApiError.invalid(BINDING_KIND, GROUP, name, errors);
            }
            return new Binding(name, spec.getPolicyName(), actions, spec.getMatchResources());
        }
    }

    /** Compiles {@code policy} or throws the 422 Invalid kube-apiserver would answer its creation with. */
    static CompiledPolicy of(ValidatingAdmissionPolicy policy) {
        String name = policy.getMetadata().getName();
        var spec = policy.getSpec();
        var errors = new ArrayList<String>();
        if (spec == null) {
            throw ApiError.invalid(KIND, GROUP, name, List.of("spec: Required value"));
        }
        if (spec.getParamKind() != null) {
            errors.add("spec.paramKind: Forbidden: parameters are not supported by the in-memory API server");
        }
        String failurePolicy = spec.getFailurePolicy() == null ? "Fail" : spec.getFailurePolicy();
        if (!failurePolicy.equals("Fail") && !failurePolicy.equals("Ignore")) {
            errors.add("spec.failurePolicy: Unsupported value: \"" + failurePolicy
                    + "\": supported values: \"Fail\", \"Ignore\"");
        }
        MatchResources match = spec.getMatchConstraints();
        if (match == null) {
            errors.add("spec.matchConstraints: Required value");
        } else if (match.getResourceRules() == null || match.getResourceRules().isEmpty()) {
            errors.add("spec.matchConstraints.resourceRules: Required value");
        } else {
            checkRules(match.getResourceRules(), "spec.matchConstraints.resourceRules", errors);
        }
        boolean noValidations =
                spec.getValidations() == null || spec.getValidations().isEmpty();
        boolean noAudit =
                spec.getAuditAnnotations() == null || spec.getAuditAnnotations().isEmpty();
        if (noValidations && noAudit) {
            errors.add(
                    "spec.validations: Required value: validations or auditAnnotations must contain at least one item");
        }
        List<MatchCondition> rawConditions = spec.getMatchConditions() == null ? List.of() : spec.getMatchConditions();
        List<Named> conditions = named(
                "spec.matchConditions",
                rawConditions.stream().map(MatchCondition::getName).toList(),
                rawConditions.stream().map(MatchCondition::getExpression).toList(),
                AdmissionCel.Result.BOOL,
                errors);
        List<Variable> rawVariables = spec.getVariables() == null ? List.of() : spec.getVariables();
        List<Named> variables = named(
                "spec.variables",
                rawVariables.stream().map(Variable::getName).toList(),
                rawVariables.stream().map(Variable::getExpression).toList(),
                AdmissionCel.Result.ANY,
                errors);
        var checks = new ArrayList<Check>();
        List<Validation> rawValidations = noValidations ? List.of() : spec.getValidations();
        for (int i = 0; i < rawValidations.size(); i++) {
            Validation v = rawValidations.get(i);
            String field = "spec.validations[" + i + "]";
            var expression = compile(v.getExpression(), AdmissionCel.Result.BOOL, field + ".expression", errors);
            AdmissionCel.Expression message = v.getMessageExpression() == null
                    ? null
                    : compile(
                            v.getMessageExpression(), AdmissionCel.Result.STRING, field + ".messageExpression", errors);
            if (v.getMessage() != null && v.getMessage().contains("\n")) {
                errors.add(field + ".message: Invalid value: \"" + v.getMessage()
                        + "\": message must not contain line breaks");
            }
            if (v.getReason() != null && !REASONS.contains(v.getReason())) {
                errors.add(
                        field + ".reason: Unsupported value: \"" + v.getReason()
                                + "\": supported values: \"Forbidden\", \"Invalid\", \"RequestEntityTooLarge\", \"Unauthorized\"");
            }
            checks.add(new Check(expression, v.getMessage(), message, v.getReason()));
        }
        var audits = new ArrayList<Named>();
        List<AuditAnnotation> rawAudits = noAudit ? List.of() : spec.getAuditAnnotations();
        for (int i = 0; i < rawAudits.size(); i++) {
            AuditAnnotation a = rawAudits.get(i);
            String field = "spec.auditAnnotations[" + i + "]";
            audits.add(new Named(
                    a.getKey(),
                    compile(a.getValueExpression(), AdmissionCel.Result.ANY, field + ".valueExpression", errors)));
        }
        if (!errors.isEmpty()) {
            throw ApiError.invalid(KIND, GROUP, name, errors);
        }
        return new CompiledPolicy(
                name,
                match,
                List.copyOf(conditions),
                List.copyOf(variables),
                List.copyOf(checks),
                List.copyOf(audits),
                failurePolicy.equals("Fail"));
    }

    /** Named expressions (matchConditions, variables): names required and unique, expressions compiled. */
    private static List<Named> named(
            String field,
            List<String> names,
            List<String> expressions,
            AdmissionCel.Result result,
            List<String> errors) {
        var seen = new HashSet<String>();
        var out = new ArrayList<Named>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            String at = field + "[" + i + "]";
            if (name == null || name.isBlank()) {
                errors.add(at + ".name: Required value");
            } else if (!seen.add(name)) {
                errors.add(at + ".name: Duplicate value: \"" + name + "\"");
            }
            out.add(new Named(name, compile(expressions.get(i), result, at + ".expression", errors)));
        }
        return out;
    }

    private static void checkRules(List<NamedRuleWithOperations> rules, String field, List<String> errors) {
        for (int i = 0; i < rules.size(); i++) {
            NamedRuleWithOperations r = rules.get(i);
            for (String required : new String[] {"apiGroups", "apiVersions", "operations", "resources"}) {
                List<String> values = switch (required) {
                    case "apiGroups" -> r.getApiGroups();
                    case "apiVersions" -> r.getApiVersions();
                    case "operations" -> r.getOperations();
                    default -> r.getResources();
                };
                if (values == null || values.isEmpty()) {
                    errors.add(field + "[" + i + "]." + required + ": Required value");
                }
            }
        }
    }

    private static AdmissionCel.Expression compile(
            String source, AdmissionCel.Result result, String field, List<String> errors) {
        try {
            return AdmissionCel.compile(source, result);
        } catch (AdmissionCel.CompileError e) {
            errors.add(
                    source == null || source.isBlank()
                            ? field + ": " + e.getMessage()
                            : field + ": Invalid value: \"" + source + "\": " + e.getMessage());
            return null;
        }
    }
}
