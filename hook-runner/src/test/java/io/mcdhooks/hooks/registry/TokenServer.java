package io.mcdhooks.hooks.registry;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLContext;

/**
 * A token server for the distribution registry's token auth, as Docker's token spec describes it:
 * {@code GET /token?service=...&scope=repository:<name>:<actions>} with basic auth answers a JWT
 * (ES256, its certificate in {@code x5c}) granting the asked actions to the one user it knows. The
 * registry trusts the signer through its {@code rootcertbundle}. Every request is recorded.
 */
public final class TokenServer implements AutoCloseable {

    public static final String SERVICE = "mcdhooks-test-registry";
    public static final String ISSUER = "mcdhooks-test-token-server";

    /** One token request as the server saw it. */
    public record Request(String scope, String authorization) {}

    private final HttpsServer server;
    private final String username;
    private final String password;
    private final PrivateKey signer;
    private final X509Certificate certificate;
    private final ObjectMapper json = new ObjectMapper();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    public TokenServer(SSLContext tls, PrivateKey signer, X509Certificate certificate, String username, String password)
            throws IOException {
        this.signer = signer;
        this.certificate = certificate;
        this.username = username;
        this.password = password;
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.createContext("/token", this::handle);
        server.start();
    }

    public URI realm() {
        return URI.create("https://127.0.0.1:" + server.getAddress().getPort() + "/token");
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    private void handle(HttpExchange exchange) throws IOException {
        Map<String, String> query = new LinkedHashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        for (String pair : raw == null ? new String[0] : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                query.put(
                        URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        requests.add(new Request(query.get("scope"), authorization));
        String expected = "Basic "
                + Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
        if (!expected.equals(authorization) || !SERVICE.equals(query.get("service"))) {
            answer(exchange, 401, "{\"details\":\"unknown user or service\"}");
            return;
        }
        try {
            answer(exchange, 200, json.writeValueAsString(Map.of("token", jwt(query.get("scope")), "expires_in", 300)));
        } catch (GeneralSecurityException e) {
            answer(exchange, 500, "{}");
        }
    }

    private String jwt(String scope) throws GeneralSecurityException, IOException {
        ObjectNode header = json.createObjectNode();
        header.put("typ", "JWT");
        header.put("alg", "ES256");
        header.putArray("x5c").add(Base64.getEncoder().encodeToString(certificate.getEncoded()));
        long now = Instant.now().getEpochSecond();
        ObjectNode claims = json.createObjectNode();
        claims.put("iss", ISSUER);
        claims.put("sub", username);
        claims.put("aud", SERVICE);
        claims.put("exp", now + 300);
        claims.put("nbf", now - 10);
        claims.put("iat", now);
        claims.put("jti", UUID.randomUUID().toString());
        ArrayNode access = claims.putArray("access");
        if (scope != null) {
            String[] parts = scope.split(":");
            ObjectNode grant = access.addObject();
            grant.put("type", parts[0]);
            grant.put("name", parts[1]);
            ArrayNode actions = grant.putArray("actions");
            for (String action : parts[2].split(",")) {
                actions.add(action);
            }
        }
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        String input = url.encodeToString(json.writeValueAsBytes(header)) + "."
                + url.encodeToString(json.writeValueAsBytes(claims));
        // JWS wants ECDSA signatures as r||s, which is Java's P1363 format.
        Signature signature = Signature.getInstance("SHA256withECDSAinP1363Format");
        signature.initSign(signer);
        signature.update(input.getBytes(StandardCharsets.US_ASCII));
        return input + "." + url.encodeToString(signature.sign());
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
