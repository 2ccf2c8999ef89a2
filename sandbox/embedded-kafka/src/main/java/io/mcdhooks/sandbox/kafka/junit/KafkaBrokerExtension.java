package io.mcdhooks.sandbox.kafka.junit;

import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.kafka.KafkaBrokers;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands tests a real Kafka broker: {@code @ExtendWith(KafkaBrokerExtension.class)}, then take a
 * {@link KafkaBroker} parameter in a test, a lifecycle method or a constructor.
 *
 * <p>One broker serves the whole test JVM: it is kept in the root context's store and closed when
 * the JVM's tests are done. See {@link KafkaBrokers} for how it is chosen.
 */
public final class KafkaBrokerExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(KafkaBrokerExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == KafkaBroker.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context)
            throws ParameterResolutionException {
        return broker(context);
    }

    /** The JVM-wide broker, started on first use. */
    public static KafkaBroker broker(ExtensionContext context) {
        return context.getRoot()
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(
                        SharedBroker.class, k -> new SharedBroker(KafkaBrokers.start()), SharedBroker.class)
                .broker;
    }

    /** Closed by JUnit with the root store, after the last test of the JVM. */
    private record SharedBroker(KafkaBroker broker) implements AutoCloseable {
        @Override
        public void close() {
            broker.close();
        }
    }
}
