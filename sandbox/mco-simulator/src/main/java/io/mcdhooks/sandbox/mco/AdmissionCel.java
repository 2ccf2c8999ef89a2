package io.mcdhooks.sandbox.mco;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.NullValue;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelOptionalLibrary;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The CEL environment a ValidatingAdmissionPolicy's expressions are compiled in, as close to
 * kube-apiserver's as {@code dev.cel} offers: the standard macros ({@code has}, {@code all},
 * {@code exists}, {@code exists_one}, {@code map}, {@code filter}), the strings extension
 * ({@code split}, {@code lowerAscii}, {@code join}, {@code indexOf}, …), sets, optional types
 * ({@code object.?spec.?x.orValue(…)}), {@code cel.bind}, two-variable comprehensions and the lists
 * extension. Variables: {@code object}, {@code oldObject} and {@code namespaceObject} (dynamic, may be
 * {@code null}), {@code request} and {@code variables}.
 *
 * <p>Not available (an expression using them does not compile, so the policy is refused on create):
 * {@code params}, {@code authorizer}, and Kubernetes' own libraries (quantity, URL, IP/CIDR, semver,
 * format, regex {@code find}/{@code findAll}, the lists library's {@code isSorted}/{@code sum}/…).
 * Objects are plain maps, so fields are not type-checked against the resource's schema (a typo
 * fails at evaluation, under the policy's {@code failurePolicy}) and property names need no escaping.
 */
final class AdmissionCel {

    private static final CelOptions OPTIONS = CelOptions.current().build();

    private static final Cel CEL = CelFactory.standardCelBuilder()
            .setOptions(OPTIONS)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addCompilerLibraries(
                    CelExtensions.strings(),
                    CelExtensions.sets(OPTIONS),
                    CelOptionalLibrary.INSTANCE,
                    CelExtensions.bindings(),
                    CelExtensions.comprehensions(),
                    CelExtensions.lists())
            .addRuntimeLibraries(
                    CelExtensions.strings(),
                    CelExtensions.sets(OPTIONS),
                    CelOptionalLibrary.INSTANCE,
                    CelExtensions.comprehensions(),
                    CelExtensions.lists())
            .addVar("object", SimpleType.DYN)
            .addVar("oldObject", SimpleType.DYN)
            .addVar("namespaceObject", SimpleType.DYN)
            .addVar("request", MapType.create(SimpleType.STRING, SimpleType.DYN))
            .addVar("variables", MapType.create(SimpleType.STRING, SimpleType.DYN))
            .build();

    private AdmissionCel() {}

    /** What an expression must evaluate to, checked when the policy is created. */
    enum Result {
        BOOL(SimpleType.BOOL),
        STRING(SimpleType.STRING),
        ANY(SimpleType.DYN);

        private final CelType type;

        Result(CelType type) {
            this.type = type;
        }
    }

    /** A compiled expression, with its source for error messages. */
    record Expression(String source, CelRuntime.Program program) {

        /** Evaluates; a CEL error becomes {@code expression '<source>' resulted in error: <detail>}. */
        Object eval(Map<String, ?> input) throws EvaluationError {
            try {
                return program.eval(input);
            } catch (CelEvaluationException e) {
                throw new EvaluationError("expression '" + source + "' resulted in error: " + detail(e));
            } catch (RuntimeException e) {
                throw new EvaluationError("expression '" + source + "' resulted in error: " + e.getMessage());
            }
        }

        private static String detail(CelEvaluationException e) {
            // A lazily evaluated variable that failed surfaces as the cause.
            for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
                if (t instanceof LazyVariables.Failed variable) {
                    return variable.getMessage();
                }
            }
            return e.getMessage();
        }
    }

    /** A runtime error of an expression; the policy's failurePolicy decides what it means. */
    static final class EvaluationError extends Exception {
        EvaluationError(String message) {
            super(message);
        }
    }

    /** A compile or type error: the policy is refused when it is created. */
    static final class CompileError extends Exception {
        CompileError(String message) {
            super(message);
        }
    }

    static Expression compile(String source, Result result) throws CompileError {
        if (source == null || source.isBlank()) {
            throw new CompileError("Required value: an expression is required");
        }
        try {
            var ast = CEL.compile(source).getAst();
            CelType type = ast.getResultType();
            if (result != Result.ANY && type.kind() != CelKind.DYN && !type.equals(result.type)) {
                throw new CompileError("must evaluate to " + result.name().toLowerCase() + " but got " + type.name());
            }
            return new Expression(source, CEL.createProgram(ast));
        } catch (CelValidationException e) {
            String message = e.getMessage();
            for (String unsupported : new String[] {"params", "authorizer"}) {
                if (message.contains("undeclared reference to '" + unsupported + "'")) {
                    throw new CompileError(
                            "'" + unsupported + "' is not supported by the in-memory API server: " + message);
                }
            }
            throw new CompileError("compilation failed: " + message);
        } catch (CelEvaluationException e) {
            throw new CompileError("compilation failed: " + e.getMessage());
        }
    }

    /**
     * A JSON value as CEL sees it: objects as maps, arrays as lists, integers as {@code int} (Java
     * {@code long}), other numbers as {@code double}, JSON {@code null} as CEL {@code null}.
     */
    static Object value(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return NullValue.NULL_VALUE;
        }
        if (node.isObject()) {
            var map = new LinkedHashMap<String, Object>();
            node.forEachEntry((k, v) -> map.put(k, value(v)));
            return map;
        }
        if (node.isArray()) {
            var list = new ArrayList<Object>(node.size());
            node.forEach(e -> list.add(value(e)));
            return list;
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? node.longValue() : node.doubleValue();
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        return node.asString();
    }

    static Object nullValue() {
        return NullValue.NULL_VALUE;
    }
}
