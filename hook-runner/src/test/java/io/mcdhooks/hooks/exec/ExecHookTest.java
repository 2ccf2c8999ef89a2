package io.mcdhooks.hooks.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.testing.DirectCheckContext;
import io.mcdhooks.hooks.testing.Requests;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.codec.MessageCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecHookTest {

    private final DirectCheckContext context = new DirectCheckContext(null);
    private final GateRequest request = Requests.preUpdate("node-1", Duration.ofMinutes(5));

    @AfterEach
    void close() {
        context.close();
    }

    private CheckResult check(String command, Duration recheckAfter) throws Exception {
        ExecHook hook = new ExecHook("exec-test", GateSelector.stages(Stage.PRE_UPDATE), command, recheckAfter);
        return hook.check(request, context).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void exitZeroPassesWithTheLastLineOfOutputAsMessage() throws Exception {
        CheckResult result = check(
                "echo starting >&2; echo \"gate $MCDHOOKS_GATE_ID attempt $MCDHOOKS_ATTEMPT"
                        + " on $MCDHOOKS_NODE in $MCDHOOKS_POOL ($MCDHOOKS_STAGE)\"; echo",
                null);

        assertThat(result)
                .isEqualTo(CheckResult.pass(
                        ExecHook.PASSED, "gate " + request.gateId() + " attempt 1 on node-1 in worker (pre-update)"));
    }

    @Test
    void exitOneFailsAndIsRecheckedWhenConfigured() throws Exception {
        assertThat(check("echo not ready; exit 1", null)).isEqualTo(CheckResult.fail(ExecHook.FAILED, "not ready"));
        assertThat(check("echo not ready; exit 1", Duration.ofSeconds(30)))
                .isEqualTo(CheckResult.failAndRecheck(ExecHook.FAILED, "not ready", Duration.ofSeconds(30)));
    }

    @Test
    void anyOtherExitCodeIsATransientError() {
        assertThatThrownBy(() -> check("echo registry unreachable; exit 75", null))
                .isInstanceOf(ExecutionException.class)
                .hasRootCauseInstanceOf(ExecHook.TransientCommandException.class)
                .hasMessageContaining("exit code 75: registry unreachable");
    }

    @Test
    void theRequestArrivesAsJsonOnStdinAndTheFactsAsVariables() throws Exception {
        CheckResult stdin = check("tail -n 1", null);
        CheckResult facts = check(
                "echo \"$MCDHOOKS_CLUSTER|$MCDHOOKS_TARGET_CONFIG|$MCDHOOKS_CURRENT_CONFIG"
                        + "|$MCDHOOKS_OS_IMAGE_URL|$MCDHOOKS_KERNEL_TYPE|$MCDHOOKS_EXTENSIONS|$MCDHOOKS_DEADLINE|$MCDHOOKS_HOOK\"",
                null);

        assertThat(new MessageCodec().decode(GateRequest.class, stdin.message().getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(request);
        assertThat(facts.message())
                .isEqualTo(String.join(
                        "|",
                        request.cluster(),
                        request.targetConfig(),
                        request.currentConfig(),
                        Requests.OS_IMAGE,
                        "default",
                        "usbguard",
                        request.deadline().toString(),
                        "exec-test"));
    }

    @Test
    void cancellingKillsTheWholeProcessGroupIncludingBackgroundChildren(@TempDir Path dir) throws Exception {
        // Given a command that starts a background child and then keeps running
        Path pids = dir.resolve("pids");
        CompletableFuture<CommandResult> result = CompletableFuture.supplyAsync(() -> {
            try {
                return GroupCommand.run(
                        "sleep 300 & echo $! > \"$PIDS\"; echo $$ >> \"$PIDS\"; sleep 300",
                        Map.of("PIDS", pids.toString()),
                        new byte[0],
                        context);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Files.exists(pids) && Files.readAllLines(pids).size() == 2);
        long child = Long.parseLong(Files.readAllLines(pids).get(0).trim());
        long shell = Long.parseLong(Files.readAllLines(pids).get(1).trim());
        assertThat(ProcessHandle.of(child))
                .hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());

        // When the check is cancelled
        context.cancel();

        // Then the command ends, and so does its background child
        assertThat(result.get(10, TimeUnit.SECONDS).exitCode()).isNotZero();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> ProcessHandle.of(child).map(p -> !p.isAlive()).orElse(true)
                        && ProcessHandle.of(shell).map(p -> !p.isAlive()).orElse(true));
    }

    @Test
    void aBackgroundChildLeftBehindNeitherDelaysTheVerdictNorSurvivesIt(@TempDir Path dir) throws Exception {
        // Given a command that exits at once but leaves a child holding its output open
        Path pid = dir.resolve("pid");

        CommandResult result = GroupCommand.run(
                "sleep 300 & echo $! > \"$PID\"; echo done", Map.of("PID", pid.toString()), new byte[0], context);

        // Then its result is there at once, and the child is killed with the group
        assertThat(result).isEqualTo(new CommandResult(0, "done"));
        long child = Long.parseLong(Files.readString(pid).trim());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> ProcessHandle.of(child).map(p -> !p.isAlive()).orElse(true));
    }

    @Test
    void theGuidesExampleScriptPassesAndFailsOnExtensions() throws Exception {
        Path script = Path.of("examples/exec/require-extensions.sh").toAbsolutePath();

        CommandResult present =
                GroupCommand.run(script.toString(), withFacts("REQUIRED_EXTENSIONS", "usbguard"), new byte[0], context);
        CommandResult missing = GroupCommand.run(
                script.toString(), withFacts("REQUIRED_EXTENSIONS", "usbguard,kerberos"), new byte[0], context);

        assertThat(present.exitCode()).isZero();
        assertThat(missing)
                .isEqualTo(new CommandResult(1, "target " + request.targetConfig() + " lacks extension kerberos"));
    }

    private Map<String, String> withFacts(String name, String value) {
        Map<String, String> env = new HashMap<>(RequestEnvironment.of(request, "exec-test"));
        env.put(name, value);
        return env;
    }
}
