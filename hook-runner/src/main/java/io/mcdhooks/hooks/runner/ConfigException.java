package io.mcdhooks.hooks.runner;

/** A missing or malformed setting; the message names the variable. */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }
}
