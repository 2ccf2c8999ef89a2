package io.mcdhooks.schemas.settings;

/**
 * A setting a process cannot start with. The message is one line that names the variable, the
 * value given (unless it is secret) and what is accepted; each process's {@code Main} prints it
 * and exits with status {@value #EXIT_STATUS}.
 */
public final class ConfigException extends RuntimeException {

    /** The exit status of a process stopped by a configuration error. */
    public static final int EXIT_STATUS = 2;

    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    static ConfigException invalid(Setting<?> setting, String value, String detail) {
        return new ConfigException(setting.name() + "=" + setting.shown(value) + " is invalid"
                + (detail == null || detail.isBlank() ? "" : " (" + detail + ")") + ": expected "
                + setting.grammar().accepted());
    }

    static ConfigException missing(Setting<?> setting) {
        return new ConfigException(
                setting.name() + " is required: expected " + setting.grammar().accepted());
    }
}
