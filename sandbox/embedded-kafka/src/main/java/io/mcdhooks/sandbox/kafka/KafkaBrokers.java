package io.mcdhooks.sandbox.kafka;

import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;

/**
 * Chooses how to get a real broker: a Testcontainers container where a Docker engine answers,
 * otherwise a forked KRaft JVM.
 *
 * <p>The system property {@value #MODE_PROPERTY} forces a path: {@code container}, {@code forked}
 * or {@code auto} (the default).
 */
public final class KafkaBrokers {

    public static final String MODE_PROPERTY = "mcdhooks.kafka.broker";
    public static final String IMAGE_PROPERTY = "mcdhooks.kafka.image";

    private static final Logger LOG = LoggerFactory.getLogger(KafkaBrokers.class);

    /** How a broker is provided. */
    public enum Mode {
        AUTO,
        CONTAINER,
        FORKED
    }

    private KafkaBrokers() {}

    public static Mode configuredMode() {
        String value = System.getProperty(MODE_PROPERTY, "auto").trim().toUpperCase(Locale.ROOT);
        try {
            return Mode.valueOf(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "system property " + MODE_PROPERTY + "='" + System.getProperty(MODE_PROPERTY)
                            + "' is not one of auto, container, forked",
                    e);
        }
    }

    /** Starts a broker the configured way. */
    public static KafkaBroker start() {
        return start(configuredMode());
    }

    public static KafkaBroker start(Mode mode) {
        return switch (mode) {
            case FORKED -> ForkedKafkaBroker.start(Map.of());
            case CONTAINER -> {
                if (!DockerProbe.available()) {
                    throw new IllegalStateException(MODE_PROPERTY + "=container, but no Docker engine answers");
                }
                yield ContainerKafkaBroker.start(
                        System.getProperty(IMAGE_PROPERTY, ContainerKafkaBroker.DEFAULT_IMAGE));
            }
            case AUTO -> {
                if (DockerProbe.available()) {
                    yield start(Mode.CONTAINER);
                }
                LOG.info("No Docker engine: using a forked KRaft broker");
                yield start(Mode.FORKED);
            }
        };
    }

    /** Asks Testcontainers, when it is on the classpath, whether a Docker engine answers. */
    static final class DockerProbe {
        private DockerProbe() {}

        static boolean available() {
            try {
                Class.forName("org.testcontainers.DockerClientFactory");
            } catch (ClassNotFoundException e) {
                return false;
            }
            return DockerClientFactory.instance().isDockerAvailable();
        }
    }
}
