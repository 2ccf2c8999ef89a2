package io.mcdhooks.hooks.registry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One challenge of a {@code WWW-Authenticate} header (RFC 7235): a scheme and its parameters, e.g.
 * {@code Bearer realm="https://auth.example/token",service="registry",scope="repository:a/b:pull"}.
 * Quoted values may hold commas and escaped quotes; parameter names are case-insensitive.
 */
public record AuthChallenge(String scheme, Map<String, String> params) {

    public AuthChallenge {
        params = Map.copyOf(params);
    }

    public boolean isBearer() {
        return "bearer".equalsIgnoreCase(scheme);
    }

    public boolean isBasic() {
        return "basic".equalsIgnoreCase(scheme);
    }

    public String param(String name) {
        return params.get(name.toLowerCase(Locale.ROOT));
    }

    /** All challenges in the header values; an unreadable value yields none rather than a guess. */
    public static List<AuthChallenge> parse(List<String> headerValues) {
        List<AuthChallenge> challenges = new ArrayList<>();
        for (String value : headerValues) {
            challenges.addAll(parse(value));
        }
        return challenges;
    }

    static List<AuthChallenge> parse(String header) {
        List<AuthChallenge> challenges = new ArrayList<>();
        Lexer in = new Lexer(header);
        String scheme = null;
        Map<String, String> params = new LinkedHashMap<>();
        while (in.skipSpaceAndCommas()) {
            String token = in.token();
            if (token.isEmpty()) {
                return List.of(); // not a token where one must be: give up on the whole header
            }
            in.skipSpace();
            if (in.peek() == '=' && scheme != null) {
                in.next();
                in.skipSpace();
                String value = in.peek() == '"' ? in.quoted() : in.token();
                if (value == null) {
                    return List.of();
                }
                params.put(token.toLowerCase(Locale.ROOT), value);
            } else {
                if (scheme != null) {
                    challenges.add(new AuthChallenge(scheme, params));
                }
                scheme = token;
                params = new LinkedHashMap<>();
            }
        }
        if (scheme != null) {
            challenges.add(new AuthChallenge(scheme, params));
        }
        return challenges;
    }

    private static final class Lexer {
        private final String text;
        private int pos;

        Lexer(String text) {
            this.text = text == null ? "" : text;
        }

        char peek() {
            return pos < text.length() ? text.charAt(pos) : 0;
        }

        void next() {
            pos++;
        }

        void skipSpace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        /** Skips blanks and commas; false at the end. */
        boolean skipSpaceAndCommas() {
            while (pos < text.length() && (Character.isWhitespace(text.charAt(pos)) || text.charAt(pos) == ',')) {
                pos++;
            }
            return pos < text.length();
        }

        String token() {
            int start = pos;
            while (pos < text.length()) {
                char c = text.charAt(pos);
                if (Character.isWhitespace(c) || c == ',' || c == '=' || c == '"') {
                    break;
                }
                pos++;
            }
            return text.substring(start, pos);
        }

        /** A quoted string with backslash escapes; null when it never closes. */
        String quoted() {
            StringBuilder value = new StringBuilder();
            pos++; // opening quote
            while (pos < text.length()) {
                char c = text.charAt(pos++);
                if (c == '"') {
                    return value.toString();
                }
                if (c == '\\' && pos < text.length()) {
                    c = text.charAt(pos++);
                }
                value.append(c);
            }
            return null;
        }
    }
}
