package io.mcdhooks.hooks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mcdhooks.hooks.examples.ModuleCatalog;
import io.mcdhooks.hooks.testing.Requests;
import io.mcdhooks.hooks.testing.WithKafkaFixture;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.kafka.Topics;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.KeyStoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hook kinds Main hosts from configuration alone, each against a real broker. */
class BuiltInHooksIT extends WithKafkaFixture {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private void deploy(HookRunnerConfig config) throws Exception {
        fx.deploy(BuiltInHooks.create(fx.vertx(), config), config);
    }

    @Test
    void anExecHookRunsTheGuidesScriptAndItsExitCodeIsTheVerdict() throws Exception {
        // Given the guide's exec hook requiring an extension the target config has
        Path script = Path.of("examples/exec/require-extensions.sh").toAbsolutePath();
        deploy(HookRunnerConfig.fromEnvironment(fx.env(
                "extensions",
                "MCDHOOKS_HOOK_KIND",
                "exec",
                "MCDHOOKS_STAGES",
                "pre-update",
                "MCDHOOKS_EXEC_COMMAND",
                "REQUIRED_EXTENSIONS=usbguard " + script)));
        GateRequest request = Requests.preUpdate("node-1", Duration.ofMinutes(5));

        // When its request arrives
        long offset = fx.publish(request).offset();

        // Then the script's exit 0 is a PASS with its last line as the message
        Verdict verdict = fx.awaitFinalVerdict(request, WAIT);
        assertThat(verdict.outcome()).isEqualTo(Outcome.PASS);
        assertThat(verdict.reason()).isEqualTo("CommandPassed");
        assertThat(verdict.message())
                .isEqualTo("target " + request.targetConfig() + " has every required extension (usbguard)");
        await().atMost(WAIT).until(() -> fx.committed(Topics.hookGroup("extensions")) == offset + 1);
    }

    @Test
    void anHttpHookPostsAStructuredCloudEventOverTlsAndReadsTheVerdictFromTheResponse(@TempDir Path dir)
            throws Exception {
        // Given an HTTPS hook whose certificate a CA bundle vouches for, failing its first call
        Path keystore = dir.resolve("server.p12");
        Path ca = dir.resolve("ca.pem");
        keytool(
                "-genkeypair",
                "-alias",
                "hook",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "2",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=dns:localhost,ip:127.0.0.1",
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass",
                "changeit",
                "-keypass",
                "changeit");
        keytool(
                "-exportcert",
                "-rfc",
                "-alias",
                "hook",
                "-keystore",
                keystore.toString(),
                "-storepass",
                "changeit",
                "-file",
                ca.toString());
        AtomicInteger calls = new AtomicInteger();
        HttpServer server = fx.vertx()
                .createHttpServer(new HttpServerOptions()
                        .setSsl(true)
                        .setKeyCertOptions(new KeyStoreOptions()
                                .setType("PKCS12")
                                .setPath(keystore.toString())
                                .setPassword("changeit")))
                .requestHandler(req -> req.body().onSuccess(body -> {
                    if (calls.incrementAndGet() == 1) {
                        req.response().setStatusCode(503).end();
                        return;
                    }
                    JsonObject event = body.toJsonObject();
                    boolean structured = req.getHeader("content-type").startsWith("application/cloudevents+json")
                            && "1.0".equals(event.getString("specversion"))
                            && "io.mcdhooks.gate.request.v1".equals(event.getString("type"));
                    JsonObject data = event.getJsonObject("data");
                    req.response()
                            .putHeader("content-type", "application/json")
                            .end(new JsonObject()
                                    .put("outcome", structured ? "PASS" : "FAIL")
                                    .put("reason", structured ? "NodeLooksFine" : "NotACloudEvent")
                                    .put(
                                            "message",
                                            "checked "
                                                    + data.getJsonObject("node").getString("name") + " for "
                                                    + data.getString("gateId"))
                                    .encode());
                }))
                .listen(0, "localhost")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        deploy(HookRunnerConfig.fromEnvironment(fx.env(
                "http-hook",
                "MCDHOOKS_HOOK_KIND",
                "http",
                "MCDHOOKS_HTTP_URL",
                "https://localhost:" + server.actualPort() + "/check",
                "MCDHOOKS_HTTP_CA_FILE",
                ca.toString())));
        GateRequest request = Requests.preUpdate("node-1", Duration.ofMinutes(5));

        // When its request arrives
        fx.publish(request);

        // Then after one retry the response body is the verdict
        Verdict verdict = fx.awaitFinalVerdict(request, WAIT);
        assertThat(verdict.outcome()).isEqualTo(Outcome.PASS);
        assertThat(verdict.reason()).isEqualTo("NodeLooksFine");
        assertThat(verdict.message()).isEqualTo("checked node-1 for " + request.gateId());
        assertThat(calls).hasValue(2);
    }

    @Test
    void theKernelModuleHookFailsUntilTheModulesForTheTargetKernelAreBuiltThenPasses(@TempDir Path dir)
            throws Exception {
        // Given a catalog that knows the target image's kernel but has no nvidia build for it yet
        Path catalog = dir.resolve("catalog.json");
        String kernel = "5.14.0-427.13.1.el9_4.x86_64";
        Files.writeString(
                catalog,
                "{\"images\":{\"" + Requests.OS_IMAGE + "\":\"" + kernel + "\"}," + "\"modules\":{\"" + kernel
                        + "\":{\"default\":[\"ice\"]}}}");
        deploy(HookRunnerConfig.fromEnvironment(fx.env(
                "kmod",
                "MCDHOOKS_HOOK_KIND",
                "kmod",
                "MCDHOOKS_STAGES",
                "pool-pre-update,pre-update",
                "MCDHOOKS_KMOD_SOURCE",
                "catalog",
                "MCDHOOKS_KMOD_CATALOG",
                catalog.toString(),
                "MCDHOOKS_KMOD_MODULES",
                "nvidia,ice",
                "MCDHOOKS_RECHECK_AFTER",
                "1s")));
        GateRequest request = Requests.poolPreUpdate("gpu", Duration.ofMinutes(5));

        // When the pool's gate opens
        long offset = fx.publish(request).offset();

        // Then it FAILs naming the missing module and the kernel
        Verdict fail = fx.awaitFinalVerdict(request, WAIT);
        assertThat(fail.outcome()).isEqualTo(Outcome.FAIL);
        assertThat(fail.reason()).isEqualTo(ModuleCatalog.NOT_BUILT);
        assertThat(fail.message()).contains("nvidia").contains(kernel).doesNotContain("ice,");
        assertThat(fail.retryAfterSeconds()).isEqualTo(1);

        // When the build pipeline publishes the module
        Files.writeString(
                catalog,
                "{\"images\":{\"" + Requests.OS_IMAGE + "\":\"" + kernel + "\"}," + "\"modules\":{\"" + kernel
                        + "\":{\"default\":[\"ice\",\"nvidia\"]}}}");

        // Then the same gate and attempt PASSes, and only then is the request committed
        await().atMost(WAIT)
                .until(() -> fx.finalVerdictsFor(request).stream()
                        .anyMatch(v -> v.outcome() == Outcome.PASS && v.reason().equals(ModuleCatalog.READY)));
        await().atMost(WAIT).until(() -> fx.committed(Topics.hookGroup("kmod")) == offset + 1);
        // Repeated FAILs of the re-checks carry the same CloudEvents id: one event for the gatekeeper
        assertThat(fx.verdictRecords().stream()
                        .filter(r -> fx.verdict(r).outcome() == Outcome.FAIL)
                        .map(r -> new String(r.headers().lastHeader("ce_id").value()))
                        .distinct())
                .hasSize(1);
    }

    private static void keytool(String... args) throws Exception {
        String[] command = new String[args.length + 1];
        command[0] = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        System.arraycopy(args, 0, command, 1, args.length);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor()).as(output).isZero();
    }
}
