package io.mcdhooks.schemas.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mcdhooks.schemas.GateDecision;
import io.mcdhooks.schemas.GateRequest;
import io.mcdhooks.schemas.MessageKind;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Transition;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JSON Schemas are the source of truth: the Java enums must list exactly their values. */
class SchemaConsistencyTest {

    @Test
    void stagesMatchTheSchema() throws Exception {
        assertThat(enumAt("common.v1.json", "/$defs/stage/enum"))
                .containsExactlyElementsOf(
                        Arrays.stream(Stage.values()).map(Stage::wire).toList());
    }

    @Test
    void outcomesMatchTheSchema() throws Exception {
        assertThat(enumAt("common.v1.json", "/$defs/outcome/enum"))
                .containsExactlyElementsOf(
                        Arrays.stream(Outcome.values()).map(Enum::name).toList());
    }

    @Test
    void transitionsMatchTheSchema() throws Exception {
        assertThat(enumAt(MessageKind.LIFECYCLE_EVENT.schemaFile(), "/properties/transition/enum"))
                .containsExactlyElementsOf(
                        Arrays.stream(Transition.values()).map(Transition::wire).toList());
    }

    @Test
    void decisionsAndHookStatesMatchTheSchema() throws Exception {
        String file = MessageKind.GATE_DECISION.schemaFile();
        assertThat(enumAt(file, "/properties/decision/enum"))
                .containsExactlyElementsOf(Arrays.stream(GateDecision.Decision.values())
                        .map(Enum::name)
                        .toList());
        assertThat(enumAt(file, "/properties/hooks/items/properties/state/enum"))
                .containsExactlyElementsOf(Arrays.stream(GateDecision.HookState.values())
                        .map(Enum::name)
                        .toList());
        assertThat(enumAt(file, "/properties/hooks/items/properties/mode/enum"))
                .containsExactlyElementsOf(Arrays.stream(GateDecision.Mode.values())
                        .map(Enum::name)
                        .toList());
    }

    @Test
    void disruptionKindsMatchTheSchema() throws Exception {
        assertThat(enumAt(MessageKind.GATE_REQUEST.schemaFile(), "/properties/disruption/properties/kind/enum"))
                .containsExactlyElementsOf(GateRequest.Disruption.KINDS);
    }

    @Test
    void everySchemaDeclaresItsIdUnderTheSchemaBase() throws Exception {
        for (MessageKind kind : MessageKind.values()) {
            assertThat(schema(kind.schemaFile()).path("$id").asText())
                    .isEqualTo(kind.schemaUri().toString());
        }
    }

    private static List<String> enumAt(String file, String pointer) throws Exception {
        JsonNode values = schema(file).at(pointer);
        assertThat(values.isArray()).as(file + pointer).isTrue();
        List<String> result = new ArrayList<>();
        values.forEach(v -> result.add(v.asText()));
        return result;
    }

    private static JsonNode schema(String file) throws Exception {
        try (InputStream in = SchemaConsistencyTest.class.getResourceAsStream("/schemas/" + file)) {
            return MessageCodec.newObjectMapper().readTree(in);
        }
    }
}
