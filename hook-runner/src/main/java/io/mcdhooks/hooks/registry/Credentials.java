package io.mcdhooks.hooks.registry;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Registry credentials from a pull secret: a user and password, or an identity token (an OAuth2
 * refresh token a token server exchanges for access tokens). {@link #toString()} masks secrets.
 */
public record Credentials(String username, String password, String identityToken) {

    public boolean hasPassword() {
        return username != null && password != null;
    }

    public boolean hasIdentityToken() {
        return identityToken != null && !identityToken.isEmpty();
    }

    /** The {@code Authorization} value of HTTP basic auth. */
    String basic() {
        return "Basic "
                + Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "Credentials[username=" + username + ", password=" + (password == null ? null : "***")
                + ", identityToken=" + (identityToken == null ? null : "***") + "]";
    }
}
