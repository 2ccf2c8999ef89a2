package io.mcdhooks.hooks.testing;

import io.mcdhooks.sandbox.kafka.KafkaBroker;
import io.mcdhooks.sandbox.kafka.junit.KafkaBrokerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tests of runners against the shared real broker: a fresh {@link KafkaFixture} (its own topics,
 * its own Vert.x) for each test, closed after it. A subclass's own {@code @AfterEach} runs first.
 */
@ExtendWith(KafkaBrokerExtension.class)
public abstract class WithKafkaFixture {

    protected KafkaFixture fx;

    @BeforeEach
    void openFixture(KafkaBroker broker) {
        fx = new KafkaFixture(broker);
    }

    @AfterEach
    void closeFixture() throws Exception {
        if (fx != null) {
            fx.close();
        }
    }
}
