package io.mcdhooks.schemas.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.mcdhooks.schemas.MessageKind;
import io.mcdhooks.schemas.codec.MessageCodec;
import io.mcdhooks.schemas.kafka.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** docs/asyncapi.yaml describes the topics and messages the code has, with the code's schemas. */
class AsyncApiDocumentTest {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path DOCUMENT = REPO.resolve("docs/asyncapi.yaml");

    @Test
    void itIsAsyncApi3AndItsChannelsAreTheTopicsOfTheCode() throws Exception {
        JsonNode doc = read();

        assertThat(doc.path("asyncapi").asText()).startsWith("3.");
        List<String> addresses = new ArrayList<>();
        doc.path("channels").forEach(c -> addresses.add(c.path("address").asText()));
        assertThat(addresses)
                .containsExactlyInAnyOrder(
                        Topics.LIFECYCLE,
                        Topics.GATE_REQUESTS,
                        Topics.VERDICTS,
                        Topics.GATE_DECISIONS,
                        Topics.DEAD_LETTER);
    }

    @Test
    void everyMessageKindIsDescribedWithItsOwnSchemaFile() throws Exception {
        JsonNode messages = read().path("components").path("messages");
        ObjectMapper json = MessageCodec.newObjectMapper();
        for (MessageKind kind : MessageKind.values()) {
            JsonNode message = messages.path(kind.displayName());
            assertThat(message.isMissingNode()).as(kind.displayName()).isFalse();
            Path schema = DOCUMENT.getParent()
                    .resolve(message.path("payload").path("$ref").asText())
                    .normalize();
            assertThat(schema).as("payload of %s", kind.displayName()).isRegularFile();
            assertThat(json.readTree(schema.toFile()).path("$id").asText())
                    .isEqualTo(kind.schemaUri().toString());
            assertThat(message.path("headers").path("$ref").asText())
                    .isEqualTo("#/components/schemas/CloudEventHeaders");
        }
    }

    @Test
    void theHeadersNameEveryCloudEventsTypeOfTheCode() throws Exception {
        JsonNode types = read().at("/components/schemas/CloudEventHeaders/properties/ce_type/enum");
        List<String> listed = new ArrayList<>();
        types.forEach(t -> listed.add(t.asText()));
        assertThat(listed)
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(MessageKind.values())
                        .map(MessageKind::cloudEventType)
                        .toList());
    }

    @Test
    void everyReferenceInsideTheDocumentResolves() throws Exception {
        JsonNode doc = read();
        List<String> refs = new ArrayList<>();
        collect(doc, refs);
        for (String ref : refs) {
            if (ref.startsWith("#/")) {
                assertThat(doc.at(ref.substring(1)).isMissingNode()).as(ref).isFalse();
            } else {
                assertThat(DOCUMENT.getParent().resolve(ref).normalize())
                        .as(ref)
                        .isRegularFile();
            }
        }
    }

    private static void collect(JsonNode node, List<String> refs) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                if (field.getKey().equals("$ref")) {
                    refs.add(field.getValue().asText());
                } else {
                    collect(field.getValue(), refs);
                }
            }
        } else if (node.isArray()) {
            node.forEach(n -> collect(n, refs));
        }
    }

    private static JsonNode read() throws Exception {
        return new ObjectMapper(new YAMLFactory()).readTree(Files.readString(DOCUMENT));
    }
}
