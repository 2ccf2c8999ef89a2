package io.mcdhooks.hooks.registry;

/**
 * Something the registry said or did that keeps a read from succeeding. The subclasses say what a
 * caller may conclude: {@link Unavailable} is transient (try again later), the others are answers.
 */
public abstract sealed class RegistryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    RegistryException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Connection trouble, a timeout, 429 or 5xx: nothing was learned, try again with back-off. */
    public static final class Unavailable extends RegistryException {
        private static final long serialVersionUID = 1L;

        public Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** 401 or 403 after authenticating, a token server that refused, or no credentials where some are needed. */
    public static final class AccessDenied extends RegistryException {
        private static final long serialVersionUID = 1L;

        public AccessDenied(String message) {
            super(message, null);
        }
    }

    /** 404: the registry has no such manifest or blob (or repository). */
    public static final class NotFound extends RegistryException {
        private static final long serialVersionUID = 1L;

        public NotFound(String message) {
            super(message, null);
        }
    }

    /**
     * An answer that cannot be used: malformed, of an unknown media type, over the size limit, not
     * what its digest names, or a redirect that would downgrade to plain HTTP or never end.
     */
    public static final class BadContent extends RegistryException {
        private static final long serialVersionUID = 1L;

        public BadContent(String message) {
            super(message, null);
        }
    }
}
