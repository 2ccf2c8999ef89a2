package io.mcdhooks.schemas.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mcdhooks.schemas.Examples;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.Message;
import io.mcdhooks.schemas.MessageKind;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MessageCodecTest {

    private final MessageCodec codec = new MessageCodec();
    private final SchemaValidator validator = new SchemaValidator();

    static Stream<Path> examples() {
        return Examples.in("examples");
    }

    static Stream<Path> invalidExamples() {
        return Examples.in("invalid");
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyExampleValidatesAgainstItsSchema(Path file) {
        String json = new String(Examples.read(file), StandardCharsets.UTF_8);
        assertThat(validator.validate(Examples.kindOf(file), json)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyExampleRoundTripsThroughTheCodecToAnEqualObject(Path file) throws Exception {
        MessageKind kind = Examples.kindOf(file);
        Message decoded = codec.decode(kind, Examples.read(file));

        byte[] encoded = codec.encode(decoded);

        assertThat(decoded).isInstanceOf(kind.javaType());
        assertThat(validator.validate(kind, new String(encoded, StandardCharsets.UTF_8)))
                .isEmpty();
        assertThat(codec.decode(kind, encoded)).isEqualTo(decoded);
    }

    @ParameterizedTest
    @MethodSource("invalidExamples")
    void everyInvalidExampleIsRejectedNamingItsKind(Path file) {
        MessageKind kind = Examples.kindOf(file);
        assertThatThrownBy(() -> codec.decode(kind, Examples.read(file)))
                .isInstanceOf(InvalidMessageException.class)
                .hasMessageStartingWith("invalid " + kind.displayName() + " (SCHEMA_VIOLATION)");
    }

    @Test
    void rejectsAMissingRequiredFieldNamingTheFieldAndTheKind() {
        byte[] json = example("gate-request.v1.missing-gate-id.json", "invalid");

        assertThatThrownBy(() -> codec.decode(GateRequest.class, json))
                .isInstanceOfSatisfying(InvalidMessageException.class, e -> {
                    assertThat(e.kind()).isEqualTo(MessageKind.GATE_REQUEST);
                    assertThat(e.reason()).isEqualTo(RejectReason.SCHEMA_VIOLATION);
                    assertThat(e.getMessage()).contains("GateRequest").contains("gateId");
                });
    }

    @Test
    void rejectsGateIdsAndNamesOfAnotherShapeNamingTheField() {
        assertThatThrownBy(() ->
                        codec.decode(Verdict.class, example("verdict.v1.gate-id-of-another-shape.json", "invalid")))
                .isInstanceOfSatisfying(
                        InvalidMessageException.class,
                        e -> assertThat(e.problems())
                                .anySatisfy(p -> assertThat(p).startsWith("$.gateId")));
        assertThatThrownBy(() -> codec.decode(Verdict.class, example("verdict.v1.node-not-a-dns-name.json", "invalid")))
                .isInstanceOfSatisfying(
                        InvalidMessageException.class,
                        e -> assertThat(e.problems())
                                .anySatisfy(p -> assertThat(p).startsWith("$.node")));
    }

    @Test
    void rejectsAMistypedFieldNamingTheField() {
        byte[] json = example("verdict.v1.outcome-wrong-type.json", "invalid");

        assertThatThrownBy(() -> codec.decode(Verdict.class, json))
                .isInstanceOfSatisfying(
                        InvalidMessageException.class,
                        e -> assertThat(e.problems())
                                .anySatisfy(p -> assertThat(p).startsWith("$.outcome")));
    }

    @Test
    void theDisruptionClassAndTheLateMarkAreOptionalAdditionsReadersMayIgnore() throws Exception {
        // Given the same request with and without the fields added to v1
        byte[] with = example("gate-request.v1.post-update-late.json", "examples");
        ObjectNode without = (ObjectNode) MessageCodec.newObjectMapper().readTree(with);
        without.remove(List.of("disruption", "late"));

        // When both are decoded
        GateRequest added = codec.decode(GateRequest.class, with);
        GateRequest plain =
                codec.decode(GateRequest.class, MessageCodec.newObjectMapper().writeValueAsBytes(without));

        // Then they differ only in those fields, and a reader that knows neither sees the same request
        assertThat(added.disruption().kind()).isEqualTo("reboot");
        assertThat(added.lateGate()).isTrue();
        assertThat(plain.disruption()).isNull();
        assertThat(plain.lateGate()).isFalse();
        assertThat(added.withDisruption(null).withLate(false)).isEqualTo(plain);
    }

    @Test
    void rejectsAnUnknownDisruptionKindNamingTheField() {
        byte[] json = example("gate-request.v1.disruption-kind-unknown.json", "invalid");

        assertThatThrownBy(() -> codec.decode(GateRequest.class, json))
                .isInstanceOfSatisfying(
                        InvalidMessageException.class,
                        e -> assertThat(e.problems())
                                .anySatisfy(p -> assertThat(p).contains("disruption.kind")));
    }

    @Test
    void rejectsANodeStageVerdictWithoutItsNode() {
        byte[] json = example("verdict.v1.pre-update-without-node.json", "invalid");

        assertThatThrownBy(() -> codec.decode(Verdict.class, json))
                .isInstanceOfSatisfying(
                        InvalidMessageException.class,
                        e -> assertThat(e.getMessage()).contains("node"));
    }

    @Test
    void rejectsAnUnknownOutcomeSoNoTypoCanPassAGate() {
        String json = new String(example("verdict.v1.pass.json", "examples"), StandardCharsets.UTF_8)
                .replace("\"PASS\"", "\"PASSED\"");

        assertThatThrownBy(() -> codec.decode(Verdict.class, json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(
                        InvalidMessageException.class,
                        e -> assertThat(e.problems())
                                .anySatisfy(p -> assertThat(p).startsWith("$.outcome")));
    }

    @Test
    void rejectsABadTimestampNamingTheField() {
        String json = new String(example("verdict.v1.pass.json", "examples"), StandardCharsets.UTF_8)
                .replace("2026-11-30T10:15:04Z", "yesterday");

        assertThatThrownBy(() -> codec.decode(Verdict.class, json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(
                        InvalidMessageException.class,
                        e -> assertThat(e.problems())
                                .anySatisfy(p -> assertThat(p).startsWith("$.producedAt")));
    }

    @Test
    void toleratesUnknownExtraFields() throws Exception {
        ObjectNode json =
                (ObjectNode) MessageCodec.newObjectMapper().readTree(example("verdict.v1.pass.json", "examples"));
        json.put("addedInAFutureMinorVersion", 42);
        json.putObject("nested").put("x", "y");

        Verdict verdict =
                codec.decode(Verdict.class, MessageCodec.newObjectMapper().writeValueAsBytes(json));

        assertThat(verdict.outcome()).isEqualTo(Outcome.PASS);
    }

    @Test
    void rejectsMalformedJson() {
        assertThatThrownBy(() -> codec.decode(Verdict.class, "{\"cluster\": ".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(
                        InvalidMessageException.class,
                        e -> assertThat(e.reason()).isEqualTo(RejectReason.MALFORMED_JSON));
    }

    @Test
    void rejectsAnEmptyBody() {
        assertThatThrownBy(() -> codec.decode(Verdict.class, new byte[0]))
                .isInstanceOfSatisfying(
                        InvalidMessageException.class,
                        e -> assertThat(e.reason()).isEqualTo(RejectReason.MALFORMED_JSON));
    }

    @Test
    void rejectsOversizedBodiesBeforeParsingThem() {
        MessageCodec small = new MessageCodec(64);

        assertThatThrownBy(() -> small.decode(Verdict.class, example("verdict.v1.pass.json", "examples")))
                .isInstanceOfSatisfying(
                        InvalidMessageException.class,
                        e -> assertThat(e.reason()).isEqualTo(RejectReason.TOO_LARGE));
    }

    @Test
    void encodesWhatJavaProducersBuildIntoSchemaValidJson() throws Exception {
        GateRequest request = new GateRequest(
                "c1",
                "c1/pre-update/n1/rendered-worker-2",
                1,
                Stage.PRE_UPDATE,
                new GateRequest.PoolFacts("worker", "25%", 4),
                new GateRequest.NodeFacts("n1", "zone-a", Map.of("topology.kubernetes.io/zone", "zone-a")),
                "rendered-worker-1",
                "rendered-worker-2",
                new GateRequest.TargetFacts(
                        "quay.io/os@sha256:00", "realtime", List.of("kernel-devel"), List.of("nosmt"), null),
                Instant.parse("2026-11-30T10:00:00Z"),
                Instant.parse("2026-11-30T10:30:00Z"));
        Verdict verdict = Verdict.answering(
                request,
                "kmod-check",
                Outcome.PENDING,
                "StillBuilding",
                null,
                30,
                Instant.parse("2026-11-30T10:00:01Z"));

        for (Message message : List.of(request, verdict)) {
            byte[] json = codec.encode(message);
            assertThat(validator.validate(message.kind(), new String(json, StandardCharsets.UTF_8)))
                    .isEmpty();
            assertThat(codec.decode(message.kind(), json)).isEqualTo(message);
        }
        assertThat(verdict.key()).isEqualTo("n1");
    }

    @Test
    void recordsRefuseToBeBuiltWithoutTheirRequiredFields() {
        assertThatThrownBy(() -> new GateRequest(
                        "c1",
                        "g",
                        1,
                        Stage.PRE_UPDATE,
                        new GateRequest.PoolFacts("worker", "1", null),
                        null,
                        null,
                        "rendered-worker-2",
                        new GateRequest.TargetFacts(null, null, null, null, null),
                        Instant.EPOCH,
                        Instant.EPOCH))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("GateRequest.node is required");
    }

    private static byte[] example(String name, String folder) {
        return Examples.read(Examples.in(folder)
                .filter(p -> p.getFileName().toString().equals(name))
                .findFirst()
                .orElseThrow());
    }
}
