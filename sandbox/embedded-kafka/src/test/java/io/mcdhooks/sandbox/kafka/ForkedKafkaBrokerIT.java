package io.mcdhooks.sandbox.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ForkedKafkaBrokerIT {

    private static ForkedKafkaBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = ForkedKafkaBroker.start(Map.of());
    }

    @AfterAll
    static void closeBroker() {
        broker.close();
    }

    @Test
    void keepsRecordsAcrossAStopAndStartOnTheSameAddress() throws Exception {
        // Given a record written to the broker
        String address = broker.bootstrapServers();
        send("survivor", "one");

        // When the broker is stopped and started again
        broker.stop();
        assertThat(broker.isRunning()).isFalse();
        broker.start();

        // Then it answers on the same address and still has the record
        assertThat(broker.bootstrapServers()).isEqualTo(address);
        send("survivor", "two");
        assertThat(readAll("survivor", 2)).containsExactly("one", "two");
    }

    @Test
    void exitsWhenClosedAndLeavesNoProcess() {
        ForkedKafkaBroker second = ForkedKafkaBroker.start(Map.of());
        assertThat(second.isRunning()).isTrue();
        second.close();
        assertThat(second.isRunning()).isFalse();
    }

    private static void send(String topic, String value) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ProducerConfig.ACKS_CONFIG,
                        "all"),
                new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "k", value)).get();
        }
    }

    private static List<String> readAll(String topic, int expected) {
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "reader-" + System.nanoTime(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    values.add(r.value());
                }
                return values.size() >= expected;
            });
        }
        return values;
    }
}
