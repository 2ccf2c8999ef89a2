package io.mcdhooks.sandbox.registry.junit;

import io.mcdhooks.sandbox.registry.ForkedRegistry;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands tests a real registry: {@code @ExtendWith(RegistryExtension.class)}, then take a
 * {@link ForkedRegistry} parameter. One registry (TLS, basic auth as {@value #USERNAME}) serves the
 * whole test JVM, kept in the root context's store and closed after the JVM's last test.
 *
 * <p>Where Debian's {@code docker-registry} is not installed, the class's tests are skipped with a
 * message saying so.
 */
public final class RegistryExtension implements BeforeAllCallback, ParameterResolver {

    public static final String USERNAME = "pipeline";
    public static final String PASSWORD = "s3cret-for-tests";

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(RegistryExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        Assumptions.assumeTrue(ForkedRegistry.installed(), ForkedRegistry.MISSING);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ForkedRegistry.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
            throws ParameterResolutionException {
        return registry(context);
    }

    /** The JVM-wide registry, started on first use. */
    public static ForkedRegistry registry(ExtensionContext context) {
        return context.getRoot()
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(
                        Shared.class,
                        k -> new Shared(ForkedRegistry.start(ForkedRegistry.Options.basic(USERNAME, PASSWORD))),
                        Shared.class)
                .registry;
    }

    /** Closed by JUnit with the root store. */
    private record Shared(ForkedRegistry registry) implements AutoCloseable {
        @Override
        public void close() {
            registry.close();
        }
    }
}
