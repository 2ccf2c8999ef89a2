package io.mcdhooks.hooks.kmod;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The variable substitution KMM applies to a kernel mapping's {@code containerImage} (its {@code
 * internal/utils} {@code KernelComponentsAsEnvVars} and {@code ReplaceInTemplates}, through
 * a8m/envsubst): {@code $VAR}, {@code ${VAR}}, {@code $$} for a literal {@code $}, and {@code
 * ${VAR-word}}, {@code ${VAR:-word}}, {@code ${VAR=word}}, {@code ${VAR:=word}}, {@code ${VAR+word}},
 * {@code ${VAR:+word}}.
 *
 * <p>The variables are KMM's: {@code KERNEL_FULL_VERSION} and its deprecated alias {@code
 * KERNEL_VERSION} (the kernel version, normalized: every character but letters, digits, {@code -},
 * {@code .} and {@code _} becomes {@code _}, so {@code 5.14.0-427.el9.x86_64+rt} gives {@code
 * 5.14.0-427.el9.x86_64_rt}), {@code KERNEL_XYZ} ({@code 5.14.0}), {@code KERNEL_X}, {@code KERNEL_Y},
 * {@code KERNEL_Z} (the first three components, split at {@code .}, {@code ,} and {@code -}), {@code
 * MOD_NAME} and {@code MOD_NAMESPACE}. KMM substitutes an unknown variable with the empty string;
 * this hook refuses such a template when it starts, since the image it names cannot be the one meant.
 */
public final class KmmTemplate {

    public static final Set<String> VARIABLES = Set.of(
            "KERNEL_FULL_VERSION",
            "KERNEL_VERSION",
            "KERNEL_XYZ",
            "KERNEL_X",
            "KERNEL_Y",
            "KERNEL_Z",
            "MOD_NAME",
            "MOD_NAMESPACE");

    private static final Pattern COMPONENT_SEPARATORS = Pattern.compile("[.,-]");

    private KmmTemplate() {}

    /** KMM's {@code kernel.NormalizeVersion}. */
    public static String normalize(String kernel) {
        StringBuilder out = new StringBuilder(kernel.length());
        for (char c : kernel.toCharArray()) {
            boolean kept = (c >= 'A' && c <= 'Z')
                    || (c >= 'a' && c <= 'z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '.'
                    || c == '_';
            out.append(kept ? c : '_');
        }
        return out.toString();
    }

    /** The variables for {@code kernel} (the raw version, as the node reports it) and a module. */
    public static Map<String, String> variables(String kernel, String moduleName, String moduleNamespace) {
        String normalized = normalize(kernel);
        List<String> components = Arrays.asList(COMPONENT_SEPARATORS.split(normalized, -1));
        if (components.size() < 3) {
            throw new IllegalArgumentException(
                    "invalid kernel version " + kernel + ": expected at least three components (major.minor.patch)");
        }
        Map<String, String> vars = new LinkedHashMap<>();
        vars.put("KERNEL_FULL_VERSION", normalized);
        vars.put("KERNEL_VERSION", normalized);
        vars.put("KERNEL_XYZ", String.join(".", components.subList(0, 3)));
        vars.put("KERNEL_X", components.get(0));
        vars.put("KERNEL_Y", components.get(1));
        vars.put("KERNEL_Z", components.get(2));
        vars.put("MOD_NAME", moduleName == null ? "" : moduleName);
        vars.put("MOD_NAMESPACE", moduleNamespace == null ? "" : moduleNamespace);
        return vars;
    }

    /** Checks the syntax and the variable names; throws {@link IllegalArgumentException} naming the problem. */
    public static void validate(String template) {
        Map<String, String> sample = new LinkedHashMap<>();
        VARIABLES.forEach(v -> sample.put(v, "x"));
        expand(template, sample);
    }

    /** Substitutes {@code vars} into {@code template}. */
    public static String expand(String template, Map<String, String> vars) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c != '$' || i + 1 >= template.length()) {
                out.append(c);
                i++;
                continue;
            }
            char next = template.charAt(i + 1);
            if (next == '$') {
                out.append('$');
                i += 2;
            } else if (next == '{') {
                int close = matchingBrace(template, i + 1);
                out.append(substitution(template.substring(i + 2, close), vars, template));
                i = close + 1;
            } else if (isNameChar(next)) {
                int end = i + 1;
                while (end < template.length() && isNameChar(template.charAt(end))) {
                    end++;
                }
                String name = template.substring(i + 1, end);
                out.append("_".equals(name) ? "$_" : value(name, vars, template));
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The inside of {@code ${...}}: a name, optionally an operator and a word. */
    private static String substitution(String inside, Map<String, String> vars, String template) {
        int end = 0;
        while (end < inside.length() && isNameChar(inside.charAt(end))) {
            end++;
        }
        String name = inside.substring(0, end);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("'${" + inside + "}' in '" + template + "' names no variable");
        }
        String value = value(name, vars, template);
        String rest = inside.substring(end);
        if (rest.isEmpty()) {
            return value;
        }
        boolean colon = rest.startsWith(":");
        String op = colon ? rest.substring(0, Math.min(2, rest.length())) : rest.substring(0, 1);
        String word = expand(rest.substring(op.length()), vars);
        return switch (op) {
            // A KMM variable is always set, and empty only for a module without a namespace.
            case "-", "=" -> value;
            case ":-", ":=" -> value.isEmpty() ? word : value;
            case "+" -> word;
            case ":+" -> value.isEmpty() ? "" : word;
            default ->
                throw new IllegalArgumentException(
                        "'${" + inside + "}' in '" + template + "': '" + op + "' is not one of - = + :- := :+");
        };
    }

    private static String value(String name, Map<String, String> vars, String template) {
        String value = vars.get(name);
        if (value == null) {
            throw new IllegalArgumentException("'" + template + "' uses $" + name + ", which KMM does not set (it sets "
                    + VARIABLES.stream().sorted().toList() + ")");
        }
        return value;
    }

    private static int matchingBrace(String template, int open) {
        int depth = 0;
        for (int i = open; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("'" + template + "' has a '${' that is never closed");
    }

    private static boolean isNameChar(char c) {
        return c == '_' || Character.isLetterOrDigit(c);
    }
}
