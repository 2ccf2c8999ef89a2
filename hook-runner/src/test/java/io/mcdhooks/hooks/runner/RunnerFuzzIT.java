package io.mcdhooks.hooks.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mcdhooks.hooks.api.CheckResult;
import io.mcdhooks.hooks.api.GateSelector;
import io.mcdhooks.hooks.testing.Requests;
import io.mcdhooks.hooks.testing.WithKafkaFixture;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.CloudEventsKafka;
import io.mcdhooks.schemas.kafka.Topics;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.sessions.JqwikSession;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** 10,000 random and mutated gate requests through a real runner's consumer: it never stops, and loses none. */
class RunnerFuzzIT extends WithKafkaFixture {

    private static final int COUNT = 10_000;

    @Test
    void randomAndMutatedRequestsNeverStopTheConsumerAndAreAllTakenIn() throws Exception {
        // Given a runner whose hook passes whatever it is asked
        JavaHookRunnerIT.TestHook hook = new JavaHookRunnerIT.TestHook(
                GateSelector.stages(Stage.PRE_UPDATE, Stage.POST_UPDATE, Stage.POOL_PRE_UPDATE),
                (r, c) -> CompletableFuture.completedFuture(CheckResult.pass("Fine", "fuzzed")));
        fx.deploy(hook, HookRunnerConfig.fromEnvironment(fx.env("fuzz")));
        GateRequest valid = Requests.preUpdate("node-1", Duration.ofMinutes(5));
        ProducerRecord<String, byte[]> template = new CloudEventsKafka(new MessageCodec())
                .toRecord(fx.requestsTopic, valid, "template", URI.create("/fuzz"), OffsetDateTime.now(), Map.of());

        // When 10,000 random and mutated requests arrive
        List<ProducerRecord<byte[], byte[]>> fuzz = new ArrayList<>();
        JqwikSession.run(() -> generate(template, new Random(7), fuzz));
        long lastOffset = -1;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", fx.bootstrapServers(), "linger.ms", 20),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            fuzz.forEach(r -> sends.add(producer.send(r)));
            producer.flush();
            for (var send : sends) {
                lastOffset = Math.max(lastOffset, send.get().offset());
            }
        }

        // Then every one of them is taken in (committed), the refused ones dead-lettered, and a
        // real request after them all is still answered
        long end = lastOffset + 1;
        await().atMost(Duration.ofSeconds(180)).until(() -> fx.committed(Topics.hookGroup("fuzz")) >= end);
        await().atMost(Duration.ofSeconds(60)).until(() -> fx.deadLetters().size() > COUNT / 2);
        GateRequest after = Requests.preUpdate("node-after", Duration.ofMinutes(5));
        fx.publish(after);
        assertThat(fx.awaitFinalVerdict(after, Duration.ofSeconds(60)).outcome().name())
                .isEqualTo("PASS");
    }

    private static void generate(
            ProducerRecord<String, byte[]> template, Random random, List<ProducerRecord<byte[], byte[]>> out) {
        Arbitrary<String> junk = Arbitraries.strings().all().ofMaxLength(48);
        Arbitrary<byte[]> noise = Arbitraries.bytes().array(byte[].class).ofMaxSize(512);
        String body = new String(template.value(), StandardCharsets.UTF_8);
        String[] fields = {"cluster", "gateId", "attempt", "stage", "pool", "targetConfig", "requestedAt", "deadline"};
        for (int i = 0; i < COUNT; i++) {
            RecordHeaders headers = new RecordHeaders(template.headers().toArray());
            byte[] value = template.value();
            byte[] key = template.key().getBytes(StandardCharsets.UTF_8);
            switch (random.nextInt(5)) {
                case 0 -> value = noise.generator(1000).next(random).value();
                case 1 -> {
                    String field = "\"" + fields[random.nextInt(fields.length)] + "\":";
                    int at = body.indexOf(field);
                    int comma = body.indexOf(',', at);
                    if (at < 0) {
                        at = 0;
                        field = "";
                    }
                    if (comma < 0) {
                        comma = body.lastIndexOf('}');
                    }
                    String replacement =
                            junk.generator(1000).next(random).value().replace("\"", "");
                    value = (body.substring(0, at + field.length()) + "\"" + replacement + "\"" + body.substring(comma))
                            .getBytes(StandardCharsets.UTF_8);
                }
                case 2 ->
                    value = body.substring(0, random.nextInt(body.length())).getBytes(StandardCharsets.UTF_8);
                case 3 -> {
                    Header[] all = headers.toArray();
                    headers.remove(all[random.nextInt(all.length)].key());
                }
                default -> key = junk.generator(1000).next(random).value().getBytes(StandardCharsets.UTF_8);
            }
            out.add(new ProducerRecord<>(template.topic(), null, key, value, headers));
        }
    }
}
