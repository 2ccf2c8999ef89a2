package io.mcdhooks.sandbox.mco;

import java.util.Objects;

/**
 * A pool's {@code spec.maxUnavailable}: an int or a percentage such as {@code "10%"}.
 *
 * <p>Resolved as the MCO does: a percentage of the pool's node count rounded down, and never less
 * than 1 (so {@code 0} and {@code "5%"} of 10 nodes both allow one node at a time).
 */
public record MaxUnavailable(int value, boolean percent) {

    /** The MCO's default when the field is absent. */
    public static final MaxUnavailable DEFAULT = new MaxUnavailable(1, false);

    public MaxUnavailable {
        if (value < 0 || (percent && value > 100)) {
            throw new IllegalArgumentException("maxUnavailable out of range: " + value + (percent ? "%" : ""));
        }
    }

    public static MaxUnavailable of(int value) {
        return new MaxUnavailable(value, false);
    }

    public static MaxUnavailable percent(int value) {
        return new MaxUnavailable(value, true);
    }

    /** Parses the field as stored: an Integer, a numeric string, or {@code "NN%"}; null → default. */
    public static MaxUnavailable parse(Object raw) {
        if (raw == null) {
            return DEFAULT;
        }
        if (raw instanceof Number n) {
            return of(n.intValue());
        }
        String s = raw.toString().trim();
        try {
            return s.endsWith("%")
                    ? percent(Integer.parseInt(s.substring(0, s.length() - 1)))
                    : of(Integer.parseInt(s));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("maxUnavailable is neither an int nor a percentage: " + s, e);
        }
    }

    /** The number of nodes that may be unavailable at once in a pool of {@code nodeCount} nodes. */
    public int resolve(int nodeCount) {
        int n = percent ? (int) Math.floor(value * (double) nodeCount / 100.0) : value;
        return Math.max(1, n);
    }

    /** The value as written into a pool: an Integer or a {@code "NN%"} string. */
    public Object toFieldValue() {
        return percent ? value + "%" : (Object) Integer.valueOf(value);
    }

    @Override
    public String toString() {
        return Objects.toString(toFieldValue());
    }
}
