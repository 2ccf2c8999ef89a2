package io.mcdhooks.sandbox.kafka;

/**
 * A real Kafka broker that tests and the local run can use.
 *
 * <p>{@link #stop()} and {@link #start()} keep the broker's identity, address and data, so a
 * test can take the broker away mid-run and bring it back.
 */
public interface KafkaBroker extends AutoCloseable {

    /** The {@code bootstrap.servers} value clients connect with. */
    String bootstrapServers();

    /** Starts the broker (again), on the same address and data; returns once it answers. */
    void start();

    /** Stops the broker, keeping its data; clients see it as gone. */
    void stop();

    /** Whether the broker process runs. */
    boolean isRunning();

    /** Stops the broker for good and deletes its data. */
    @Override
    void close();
}
