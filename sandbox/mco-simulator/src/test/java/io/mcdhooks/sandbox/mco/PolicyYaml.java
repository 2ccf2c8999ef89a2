package io.mcdhooks.sandbox.mco;

/** Test helper: ValidatingAdmissionPolicy and binding documents. */
final class PolicyYaml {

    static final String NODE_UPDATES =
            "{apiGroups: [\"\"], apiVersions: [v1], operations: [UPDATE], resources: [nodes]}";

    private PolicyYaml() {}

    /** A policy with one resource rule; {@code spec} is the rest of its spec, as YAML at spec's level. */
    static String policy(String name, String rule, String spec) {
        return """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: %s}
                spec:
                  matchConstraints:
                    resourceRules:
                      - %s
                %s""".formatted(name, rule, spec.indent(2));
    }

    /** A binding of {@code policy}, of the same name, with these validationActions. */
    static String binding(String policy, String actions) {
        return """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: %1$s}
                spec: {policyName: %1$s, validationActions: [%2$s]}
                """.formatted(policy, actions);
    }
}
