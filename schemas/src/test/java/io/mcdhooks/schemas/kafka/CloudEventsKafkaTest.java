package io.mcdhooks.schemas.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mcdhooks.schemas.Examples;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.MessageKind;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.codec.InvalidMessageException;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.codec.RejectReason;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class CloudEventsKafkaTest {

    private static final OffsetDateTime TIME = OffsetDateTime.parse("2026-11-30T10:15:04Z");
    private static final URI SOURCE = URI.create("/hooks/kmod-check");

    private final MessageCodec codec = new MessageCodec();
    private final CloudEventsKafka cloudEvents = new CloudEventsKafka(codec);

    @Test
    void writesBinaryModeHeadersAndKeysByNode() throws Exception {
        Verdict verdict = verdict();

        ProducerRecord<String, byte[]> record = cloudEvents.toRecord(
                Topics.VERDICTS,
                verdict,
                "v-1",
                SOURCE,
                TIME,
                Map.of(CloudEventsKafka.JWS_EXTENSION, "eyJhbGciOiJFZERTQSJ9..c2ln"));

        assertThat(record.key()).isEqualTo("ip-10-0-23-47.ec2.internal");
        assertThat(header(record, "ce_specversion")).isEqualTo("1.0");
        assertThat(header(record, "ce_id")).isEqualTo("v-1");
        assertThat(header(record, "ce_type")).isEqualTo("io.mcdhooks.gate.verdict.v1");
        assertThat(header(record, "ce_source")).isEqualTo("/hooks/kmod-check");
        assertThat(header(record, "ce_cluster")).isEqualTo("prod-east-1");
        assertThat(header(record, "ce_partitionkey")).isEqualTo("ip-10-0-23-47.ec2.internal");
        assertThat(header(record, "ce_jws")).isEqualTo("eyJhbGciOiJFZERTQSJ9..c2ln");
        assertThat(header(record, "content-type")).isEqualTo("application/json");
        assertThat(header(record, "ce_dataschema"))
                .isEqualTo(MessageKind.VERDICT.schemaUri().toString());

        CloudEventsKafka.Received back = cloudEvents.fromRecord(record.key(), record.headers(), record.value());
        assertThat(back.message()).isEqualTo(verdict);
        assertThat(back.id()).isEqualTo("v-1");
        assertThat(back.jws()).isEqualTo("eyJhbGciOiJFZERTQSJ9..c2ln");
    }

    @Test
    void readsARecordHeldAsPlainHeadersInTheirOrderAsKafkasOwn() throws Exception {
        // Given a verdict's record, its headers copied out of Kafka's types, and a later ce_id repeated
        ProducerRecord<String, byte[]> record = record(verdict());
        List<CloudEventsKafka.Header> headers = new ArrayList<>();
        record.headers().forEach(h -> headers.add(new CloudEventsKafka.Header(h.key(), h.value())));
        headers.add(new CloudEventsKafka.Header("ce_id", "id-2".getBytes(StandardCharsets.UTF_8)));

        // When it is read back from the plain headers
        CloudEventsKafka.Received back = cloudEvents.fromRecord(record.key(), headers, record.value());

        // Then it reads as the record does, the last of a repeated header winning as with Kafka's headers
        RecordHeaders kafka = new RecordHeaders(record.headers().toArray());
        kafka.add("ce_id", "id-2".getBytes(StandardCharsets.UTF_8));
        assertThat(back).isEqualTo(cloudEvents.fromRecord(record.key(), kafka, record.value()));
        assertThat(back.message()).isEqualTo(verdict());
    }

    @Test
    void refusesARecordWithoutCloudEventsHeaders() {
        byte[] body = codec.encode(verdict());

        assertThatThrownBy(() -> cloudEvents.fromRecord(null, new RecordHeaders(), body))
                .isInstanceOfSatisfying(
                        InvalidMessageException.class,
                        e -> assertThat(e.reason()).isEqualTo(RejectReason.NOT_A_CLOUDEVENT));
    }

    @Test
    void refusesAnUnknownSchemaVersion() {
        ProducerRecord<String, byte[]> record = record(verdict());
        record.headers()
                .remove("ce_type")
                .add("ce_type", "io.mcdhooks.gate.verdict.v2".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> cloudEvents.fromRecord(record.key(), record.headers(), record.value()))
                .isInstanceOfSatisfying(InvalidMessageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(RejectReason.UNKNOWN_TYPE);
                    assertThat(e.getMessage()).contains("io.mcdhooks.gate.verdict.v2");
                });
    }

    @Test
    void refusesANonJsonContentType() {
        ProducerRecord<String, byte[]> record = record(verdict());
        record.headers().remove("content-type").add("content-type", "application/xml".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> cloudEvents.fromRecord(record.key(), record.headers(), record.value()))
                .isInstanceOfSatisfying(
                        InvalidMessageException.class,
                        e -> assertThat(e.reason()).isEqualTo(RejectReason.UNSUPPORTED_CONTENT_TYPE));
    }

    @Test
    void refusesARecordWhoseKeyDisagreesWithItsBody() {
        ProducerRecord<String, byte[]> record = record(verdict());

        assertThatThrownBy(() -> cloudEvents.fromRecord("another-node", record.headers(), record.value()))
                .isInstanceOfSatisfying(
                        InvalidMessageException.class,
                        e -> assertThat(e.reason()).isEqualTo(RejectReason.INCONSISTENT));
    }

    @Test
    void refusesARecordWhoseClusterHeaderDisagreesWithItsBody() {
        ProducerRecord<String, byte[]> record = record(verdict());
        record.headers().remove("ce_cluster").add("ce_cluster", "other".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> cloudEvents.fromRecord(record.key(), record.headers(), record.value()))
                .isInstanceOfSatisfying(InvalidMessageException.class, e -> {
                    assertThat(e.reason()).isEqualTo(RejectReason.INCONSISTENT);
                    assertThat(e.getMessage()).contains("$.cluster");
                });
    }

    private ProducerRecord<String, byte[]> record(Message message) {
        return cloudEvents.toRecord(Topics.VERDICTS, message, "id-1", SOURCE, TIME, Map.of());
    }

    private Verdict verdict() {
        try {
            return codec.decode(
                    Verdict.class,
                    Examples.read(Examples.in("examples")
                            .filter(p -> p.getFileName().toString().equals("verdict.v1.pass.json"))
                            .findFirst()
                            .orElseThrow()));
        } catch (InvalidMessageException e) {
            throw new AssertionError(e);
        }
    }

    private static String header(ProducerRecord<String, byte[]> record, String name) {
        return CloudEventsKafka.header(record.headers(), name);
    }
}
