package io.mcdhooks.hooks.exec;

import io.mcdhooks.hooks.api.CheckContext;
import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.api.Hook;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.codec.MessageCodec;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * A hook that is any command: the GateRequest as JSON on stdin, its key facts as
 * {@code MCDHOOKS_*} variables ({@link RequestEnvironment}). Exit 0 is PASS, exit
 * {@value #FAIL_EXIT_CODE} is FAIL, any other exit code a transient error the runner retries with
 * back-off. The last non-blank line of output is the verdict's message.
 */
public final class ExecHook implements Hook {

    public static final int FAIL_EXIT_CODE = 1;
    public static final String PASSED = "CommandPassed";
    public static final String FAILED = "CommandFailed";

    private final String name;
    private final GateSelector selector;
    private final String command;
    private final Duration recheckAfter;
    private final MessageCodec codec = new MessageCodec();

    /** @param recheckAfter after a FAIL, run the command again this much later; {@code null}: the FAIL stands */
    public ExecHook(String name, GateSelector selector, String command, Duration recheckAfter) {
        this.name = name;
        this.selector = selector;
        this.command = command;
        this.recheckAfter = recheckAfter;
    }

    @Override
    public GateSelector selector() {
        return selector;
    }

    @Override
    public CompletionStage<CheckResult> check(GateRequest request, CheckContext context) {
        byte[] json = codec.encode(request);
        return context.blocking(() -> GroupCommand.run(command, RequestEnvironment.of(request, name), json, context))
                .thenApply(this::decide);
    }

    CheckResult decide(CommandResult result) {
        String message = result.lastLine();
        if (result.exitCode() == 0) {
            return CheckResult.pass(PASSED, message);
        }
        if (result.exitCode() == FAIL_EXIT_CODE) {
            return recheckAfter == null
                    ? CheckResult.fail(FAILED, message)
                    : CheckResult.failAndRecheck(FAILED, message, recheckAfter);
        }
        throw new TransientCommandException(
                "exit code " + result.exitCode() + (message.isEmpty() ? "" : ": " + message));
    }

    /** An exit code other than 0 and 1: try again later. */
    public static final class TransientCommandException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public TransientCommandException(String message) {
            super(message);
        }
    }
}
