package io.mcdhooks.sandbox.mco;

import io.fabric8.kubernetes.api.model.StatusCauseBuilder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube-apiserver's ValidatingAdmissionPolicy plugin over the policies and bindings stored in the
 * in-memory API server ({@code admission/plugin/policy/validating}: {@code dispatcher.go},
 * {@code validator.go}). For every write the matching policies are evaluated once per request; each
 * binding that also matches applies its {@code validationActions} to the failed validations. The
 * first {@code Deny} refuses the request with kube-apiserver's words:
 * {@code <resource> "<name>" is forbidden: ValidatingAdmissionPolicy '<policy>' with binding
 * '<binding>' denied request: <message>}, reason from the validation (default {@code Invalid}, 422).
 * {@code Warn} becomes a {@code Warning} response header, {@code Audit} a {@link AdmissionRecord}.
 *
 * <p>Thread-safe: policies are swapped in as one immutable snapshot, so a request sees either the old
 * or the new set. With no binding stored, {@link #enforcing()} is false and a write costs nothing.
 */
final class ValidatingAdmission {

    private static final int MAX_MESSAGE_BYTES = 5 * 1024;

    /** Admission configuration is never subject to policies ({@code rules.IsExemptAdmissionConfigurationResource}). */
    private static final Set<String> EXEMPT = Set.of(
            "validatingwebhookconfigurations",
            "mutatingwebhookconfigurations",
            "validatingadmissionpolicies",
            "validatingadmissionpolicybindings",
            "mutatingadmissionpolicies",
            "mutatingadmissionpolicybindings");

    private static final int MAX_RECORDS = 10_000;

    private final Map<String, CompiledPolicy> policies = new HashMap<>();
    private final Map<String, CompiledPolicy.Binding> bindings = new HashMap<>();
    private final Deque<AdmissionRecord> records = new ArrayDeque<>();
    private volatile List<Bound> snapshot = List.of();

    /** A policy with the bindings that enforce it, in name order. */
    private record Bound(CompiledPolicy policy, List<CompiledPolicy.Binding> bindings) {}

    /** One failed validation (or an error under failurePolicy Fail). */
    private record Failure(String message, String reason) {}

    /** What admission adds to an admitted request's response. */
    record Admitted(List<String> warnings) {
        static final Admitted NOTHING = new Admitted(List.of());
    }

    boolean enforcing() {
        return !snapshot.isEmpty();
    }

    synchronized void putPolicy(CompiledPolicy policy) {
        policies.put(policy.name(), policy);
        rebuild();
    }

    synchronized void removePolicy(String name) {
        policies.remove(name);
        rebuild();
    }

    synchronized void putBinding(CompiledPolicy.Binding binding) {
        bindings.put(binding.name(), binding);
        rebuild();
    }

    synchronized void removeBinding(String name) {
        bindings.remove(name);
        rebuild();
    }

    /** The Warn and Audit outcomes so far (the last {@value #MAX_RECORDS}). */
    synchronized List<AdmissionRecord> records() {
        return List.copyOf(records);
    }

    private void rebuild() {
        var byPolicy = new LinkedHashMap<String, List<CompiledPolicy.Binding>>();
        bindings.values().stream()
                .sorted(Comparator.comparing(CompiledPolicy.Binding::name))
                .forEach(b -> byPolicy.computeIfAbsent(b.policyName(), n -> new ArrayList<>())
                        .add(b));
        var bound = new ArrayList<Bound>();
        policies.values().stream()
                .sorted(Comparator.comparing(CompiledPolicy::name))
                .forEach(p -> {
                    List<CompiledPolicy.Binding> of = byPolicy.get(p.name());
                    if (of != null) {
                        bound.add(new Bound(p, List.copyOf(of)));
                    }
                });
        snapshot = List.copyOf(bound);
    }

    /** Admits {@code a} (with any warnings) or throws the denial. */
    Admitted validate(AdmissionAttributes a) {
        if (a.path().group().equals(CompiledPolicy.GROUP)
                && EXEMPT.contains(a.path().resource())) {
            return Admitted.NOTHING;
        }
        List<String> warnings = null;
        for (Bound bound : snapshot) {
            CompiledPolicy policy = bound.policy();
            if (!PolicyMatch.matches(policy.matchConstraints(), a)) {
                continue;
            }
            List<Failure> failures = null;
            for (CompiledPolicy.Binding binding : bound.bindings()) {
                if (!PolicyMatch.matches(binding.matchResources(), a)) {
                    continue;
                }
                if (failures == null) {
                    failures = evaluate(policy, a);
                }
                for (Failure failure : failures) {
                    for (String action : binding.actions()) {
                        switch (action) {
                            case "Deny" -> throw denial(policy, binding, failure, a);
                            case "Warn" -> {
                                if (warnings == null) {
                                    warnings = new ArrayList<>();
                                }
                                warnings.add("Validation failed for ValidatingAdmissionPolicy '" + policy.name()
                                        + "' with binding '" + binding.name() + "': " + failure.message());
                                record(policy, binding, "Warn", failure, a);
                            }
                            default -> record(policy, binding, "Audit", failure, a);
                        }
                    }
                }
            }
        }
        return warnings == null ? Admitted.NOTHING : new Admitted(List.copyOf(warnings));
    }

    private static ApiError denial(
            CompiledPolicy policy, CompiledPolicy.Binding binding, Failure failure, AdmissionAttributes a) {
        String detail = "ValidatingAdmissionPolicy '" + policy.name() + "' with binding '" + binding.name()
                + "' denied request: " + failure.message();
        String reason = failure.reason() == null ? "Invalid" : failure.reason();
        int code = switch (reason) {
            case "Forbidden" -> 403;
            case "Unauthorized" -> 401;
            case "RequestEntityTooLarge" -> 413;
            default -> 422;
        };
        String name = a.name().isEmpty() ? "Unknown" : a.name();
        return ApiError.forbidden(
                a.path(),
                name,
                detail,
                reason,
                code,
                List.of(new StatusCauseBuilder().withMessage(detail).build()));
    }

    private synchronized void record(
            CompiledPolicy policy,
            CompiledPolicy.Binding binding,
            String action,
            Failure failure,
            AdmissionAttributes a) {
        if (records.size() == MAX_RECORDS) {
            records.removeFirst();
        }
        records.addLast(new AdmissionRecord(
                policy.name(),
                binding.name(),
                action,
                failure.message(),
                a.user().username(),
                a.operation(),
                a.path().resource()
                        + (a.path().subresource().isEmpty()
                                ? ""
                                : "/" + a.path().subresource()),
                a.path().namespace(),
                a.name()));
    }

    /**
     * The failed validations of {@code policy} for this request: none if a matchCondition is false;
     * errors count as failures only under {@code failurePolicy: Fail} ({@code validator.go}).
     */
    private static List<Failure> evaluate(CompiledPolicy policy, AdmissionAttributes a) {
        Map<String, Object> input = a.celInput();
        input.put("variables", new LazyVariables(policy.variables(), input));
        var errors = new ArrayList<String>();
        for (CompiledPolicy.Named condition : policy.matchConditions()) {
            try {
                if (Boolean.FALSE.equals(condition.expression().eval(input))) {
                    return List.of();
                }
            } catch (AdmissionCel.EvaluationError e) {
                errors.add(e.getMessage());
            }
        }
        if (!errors.isEmpty()) {
            return policy.failOnError()
                    ? List.of(new Failure(
                            errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]", null))
                    : List.of();
        }
        var failures = new ArrayList<Failure>();
        for (CompiledPolicy.Check check : policy.validations()) {
            try {
                if (!Boolean.TRUE.equals(check.expression().eval(input))) {
                    failures.add(new Failure(message(check, input), check.reason()));
                }
            } catch (AdmissionCel.EvaluationError e) {
                if (policy.failOnError()) {
                    failures.add(new Failure(e.getMessage(), null));
                }
            }
        }
        for (CompiledPolicy.Named audit : policy.auditAnnotations()) {
            try {
                Object value = audit.expression().eval(input);
                if (!(value instanceof String) && value != AdmissionCel.nullValue() && policy.failOnError()) {
                    failures.add(new Failure(
                            "valueExpression '" + audit.expression().source()
                                    + "' resulted in unsupported return type; it must be string or null",
                            null));
                }
            } catch (AdmissionCel.EvaluationError e) {
                if (policy.failOnError()) {
                    failures.add(new Failure(e.getMessage(), null));
                }
            }
        }
        return failures;
    }

    /** messageExpression if it gives a usable string, else message, else the expression. */
    private static String message(CompiledPolicy.Check check, Map<String, Object> input) {
        if (check.messageExpression() != null) {
            try {
                if (check.messageExpression().eval(input) instanceof String s) {
                    String trimmed = s.trim();
                    if (!trimmed.isEmpty()
                            && trimmed.getBytes(StandardCharsets.UTF_8).length <= MAX_MESSAGE_BYTES
                            && !trimmed.contains("\n")) {
                        return trimmed;
                    }
                }
            } catch (AdmissionCel.EvaluationError e) {
                // kube-apiserver logs it and falls back to message.
            }
        }
        if (check.message() != null && !check.message().isBlank()) {
            return check.message().trim();
        }
        return "failed expression: " + check.expression().source().trim();
    }
}
