package io.mcdhooks.sandbox.kafka;

import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A broker in a container, for machines with a Docker engine. {@link #stop()} pauses the
 * container (clients see a broker that stops answering) and {@link #start()} resumes it, so the
 * address and the data survive, as with {@link ForkedKafkaBroker}.
 */
public final class ContainerKafkaBroker implements KafkaBroker {

    /** The image used unless {@code mcdhooks.kafka.image} names another. */
    public static final String DEFAULT_IMAGE = "apache/kafka:4.1.0";

    private final KafkaContainer container;
    private boolean paused;

    private ContainerKafkaBroker(KafkaContainer container) {
        this.container = container;
    }

    public static ContainerKafkaBroker start(String image) {
        KafkaContainer container = new KafkaContainer(DockerImageName.parse(image));
        container.start();
        return new ContainerKafkaBroker(container);
    }

    @Override
    public String bootstrapServers() {
        return container.getBootstrapServers();
    }

    @Override
    public synchronized void start() {
        if (paused) {
            container
                    .getDockerClient()
                    .unpauseContainerCmd(container.getContainerId())
                    .exec();
            paused = false;
        }
    }

    @Override
    public synchronized void stop() {
        if (!paused) {
            container
                    .getDockerClient()
                    .pauseContainerCmd(container.getContainerId())
                    .exec();
            paused = true;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return container.isRunning() && !paused;
    }

    @Override
    public void close() {
        container.stop();
    }
}
