package io.mcdhooks.schemas;

import java.util.List;
import java.util.Map;

/** Checks the records run in their compact constructors; messages name kind and field. */
final class Require {

    private Require() {}

    static <T> T present(T value, String kind, String field) {
        if (value == null) {
            throw new IllegalArgumentException(kind + "." + field + " is required");
        }
        return value;
    }

    static String text(String value, String kind, String field) {
        if (present(value, kind, field).isBlank()) {
            throw new IllegalArgumentException(kind + "." + field + " must not be blank");
        }
        return value;
    }

    static int attempt(int value, String kind) {
        if (value < 1) {
            throw new IllegalArgumentException(kind + ".attempt must be at least 1, was " + value);
        }
        return value;
    }

    static <T> List<T> list(List<T> value) {
        return value == null ? List.of() : List.copyOf(value);
    }

    static Map<String, String> map(Map<String, String> value) {
        return value == null ? Map.of() : Map.copyOf(value);
    }
}
