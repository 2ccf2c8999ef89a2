package io.mcdhooks.sandbox.mco;

import java.util.AbstractMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A policy's {@code variables}, each evaluated on first use and then kept, as kube-apiserver's
 * composition environment does: a variable may use the ones before it, and one that fails makes only
 * the expressions that read it fail ({@code composited variable "x" fails to evaluate: …}).
 */
final class LazyVariables extends AbstractMap<String, Object> {

    private final Map<String, CompiledPolicy.Named> declared = new LinkedHashMap<>();
    private final Map<String, Object> input;
    private final Map<String, Object> values = new HashMap<>();
    private final Map<String, String> errors = new HashMap<>();

    /** Thrown through CEL's evaluation when a variable fails; {@link AdmissionCel.Expression} reports it. */
    static final class Failed extends RuntimeException {
        Failed(String message) {
            super(message, null, false, false);
        }
    }

    LazyVariables(List<CompiledPolicy.Named> variables, Map<String, Object> input) {
        variables.forEach(v -> declared.put(v.name(), v));
        this.input = input;
    }

    @Override
    public boolean containsKey(Object key) {
        return declared.containsKey(key);
    }

    @Override
    public Object get(Object key) {
        CompiledPolicy.Named variable = declared.get(key);
        if (variable == null) {
            return null;
        }
        String name = variable.name();
        if (errors.containsKey(name)) {
            throw new Failed(errors.get(name));
        }
        if (!values.containsKey(name)) {
            try {
                values.put(name, variable.expression().eval(input));
            } catch (AdmissionCel.EvaluationError e) {
                String message = "composited variable \"" + name + "\" fails to evaluate: " + e.getMessage();
                errors.put(name, message);
                throw new Failed(message);
            }
        }
        return values.get(name);
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        var all = new LinkedHashMap<String, Object>();
        declared.keySet().forEach(k -> all.put(k, get(k)));
        return all.entrySet();
    }
}
