package io.mcdhooks.hooks.exec;

/** How a command ended: its exit code and the last non-blank line it printed (stdout or stderr). */
public record CommandResult(int exitCode, String lastLine) {}
