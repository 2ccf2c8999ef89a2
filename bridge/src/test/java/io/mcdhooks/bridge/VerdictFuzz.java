package io.mcdhooks.bridge;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.sessions.JqwikSession;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Random and mutated records for the verdicts topic, generated with jqwik's arbitraries: pure
 * noise, and mutations of one valid FAIL verdict (its body and its CloudEvents headers). No
 * mutation can turn it into a PASS: "PASS" is never written.
 */
final class VerdictFuzz {

    private VerdictFuzz() {}

    static List<ProducerRecord<String, byte[]>> records(
            String topic, ProducerRecord<String, byte[]> valid, int count, long seed) {
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>(count);
        // Outside a jqwik property, arbitraries need a session of their own.
        JqwikSession.run(() -> generate(topic, valid, count, new Random(seed), out));
        return out;
    }

    private static void generate(
            String topic,
            ProducerRecord<String, byte[]> valid,
            int count,
            Random random,
            List<ProducerRecord<String, byte[]>> out) {
        Arbitrary<String> junk = Arbitraries.strings().all().ofMaxLength(64).filter(s -> !s.contains("PASS"));
        Arbitrary<byte[]> noise = Arbitraries.bytes().array(byte[].class).ofMaxSize(512);
        String body = new String(valid.value(), StandardCharsets.UTF_8);
        for (int i = 0; i < count; i++) {
            int kind = random.nextInt(6);
            RecordHeaders headers = new RecordHeaders(valid.headers().toArray());
            byte[] value = valid.value();
            String key = valid.key();
            switch (kind) {
                case 0 -> value = sample(noise, random);
                case 1 ->
                    value = mutateField(body, random, sample(junk, random)).getBytes(StandardCharsets.UTF_8);
                case 2 ->
                    value = body.substring(0, random.nextInt(body.length())).getBytes(StandardCharsets.UTF_8);
                case 3 -> {
                    Header[] all = headers.toArray();
                    headers.remove(all[random.nextInt(all.length)].key());
                }
                case 4 -> {
                    Header[] all = headers.toArray();
                    String name = all[random.nextInt(all.length)].key();
                    headers.remove(name);
                    headers.add(name, sample(junk, random).getBytes(StandardCharsets.UTF_8));
                }
                default -> {
                    key = sample(junk, random);
                    // A few oversized bodies: enough to test the limit, not enough to flood the broker.
                    value = random.nextInt(50) == 0 ? new byte[300 * 1024] : value;
                }
            }
            out.add(new ProducerRecord<>(topic, null, key, value, headers));
        }
    }

    /** Replaces the value of one field of the body's JSON with {@code replacement} (quoted or not). */
    private static String mutateField(String body, Random random, String replacement) {
        String[] fields = {
            "cluster", "gateId", "attempt", "hook", "stage", "pool", "targetConfig", "outcome", "reason", "producedAt"
        };
        String field = "\"" + fields[random.nextInt(fields.length)] + "\":";
        int at = body.indexOf(field);
        int end = body.indexOf(',', at);
        if (at < 0 || end < 0) {
            return body + replacement;
        }
        String value = random.nextBoolean() ? "\"" + replacement.replace("\"", "") + "\"" : replacement;
        return body.substring(0, at + field.length()) + value + body.substring(end);
    }

    private static <T> T sample(Arbitrary<T> arbitrary, Random random) {
        return arbitrary.generator(1000).next(random).value();
    }
}
