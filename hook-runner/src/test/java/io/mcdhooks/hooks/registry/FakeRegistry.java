package io.mcdhooks.hooks.registry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A scripted HTTP server standing in for a registry that misbehaves in ways a well-kept registry
 * never would (malformed or oversized manifests, wrong digests, redirect loops): each test says what
 * each path answers. It records every request it saw. Plain HTTP on loopback; reach it through a
 * registries.conf entry marked insecure ({@link #conf}).
 */
public final class FakeRegistry implements AutoCloseable {

    /** What one request to a path gets. */
    public record Answer(int status, Map<String, String> headers, byte[] body, long streamed) {

        public static Answer of(int status) {
            return new Answer(status, Map.of(), new byte[0], -1);
        }

        public static Answer json(int status, String contentType, String body) {
            return new Answer(status, Map.of("Content-Type", contentType), body.getBytes(StandardCharsets.UTF_8), -1);
        }

        public static Answer bytes(String contentType, byte[] body) {
            return new Answer(200, Map.of("Content-Type", contentType), body, -1);
        }

        /** {@code size} bytes of JSON-looking filler, sent chunked (no Content-Length). */
        public static Answer endless(String contentType, long size) {
            return new Answer(200, Map.of("Content-Type", contentType), new byte[0], size);
        }

        public Answer with(String header, String value) {
            Map<String, String> more = new ConcurrentHashMap<>(headers);
            more.put(header, value);
            return new Answer(status, more, body, streamed);
        }
    }

    /** A request as the server saw it. */
    public record Seen(String method, String path, String query, String authorization, String body) {}

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    public FakeRegistry() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** Answers {@code method path} (path with its query, if any) with {@code answer}, every time. */
    public FakeRegistry on(String method, String path, Answer answer) {
        answers.put(method + " " + path, answer);
        return this;
    }

    /** Answers {@code method path} with {@code answer} only when it comes with {@code authorization}. */
    public FakeRegistry onAuthorized(String method, String path, String authorization, Answer answer) {
        answers.put(method + " " + path + " | " + authorization, answer);
        return this;
    }

    public String host() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    public String url() {
        return "http://" + host();
    }

    public List<Seen> seen() {
        return new ArrayList<>(seen);
    }

    /** A registries.conf that reaches this server over plain HTTP. */
    public String conf() {
        return "[[registry]]\nlocation = \"" + host() + "\"\ninsecure = true\n";
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        String query = exchange.getRequestURI().getRawQuery();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        seen.add(new Seen(
                exchange.getRequestMethod(),
                path,
                query,
                exchange.getRequestHeaders().getFirst("Authorization"),
                body));
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        String withQuery = exchange.getRequestMethod() + " " + path + (query == null ? "" : "?" + query);
        String withoutQuery = exchange.getRequestMethod() + " " + path;
        Answer answer = null;
        for (String key : List.of(
                withQuery + " | " + authorization, withoutQuery + " | " + authorization, withQuery, withoutQuery)) {
            answer = answer != null ? answer : answers.get(key);
        }
        if (answer == null) {
            answer = Answer.json(404, "application/json", "{\"errors\":[{\"code\":\"NAME_UNKNOWN\"}]}");
        }
        answer.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        if (answer.streamed() >= 0) {
            exchange.sendResponseHeaders(answer.status(), 0);
            byte[] chunk = "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]".repeat(1024).getBytes(StandardCharsets.US_ASCII);
            try (OutputStream out = exchange.getResponseBody()) {
                for (long sent = 0; sent < answer.streamed(); sent += chunk.length) {
                    out.write(chunk);
                }
            } catch (IOException e) {
                // the client stopped reading: that is what the limit is for
            }
            return;
        }
        exchange.sendResponseHeaders(answer.status(), head || answer.body().length == 0 ? -1 : answer.body().length);
        try (OutputStream out = exchange.getResponseBody()) {
            if (!head) {
                out.write(answer.body());
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
