package io.mcdhooks.hooks.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ManifestTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String D1 = "sha256:" + "1".repeat(64);
    private static final String D2 = "sha256:" + "2".repeat(64);
    private static final String INDEX = "{\"schemaVersion\":2,\"mediaType\":\"" + MediaTypes.OCI_INDEX
            + "\",\"manifests\":["
            + "{\"mediaType\":\"" + MediaTypes.OCI_MANIFEST + "\",\"digest\":\"" + D1 + "\",\"size\":10,"
            + "\"platform\":{\"os\":\"linux\",\"architecture\":\"amd64\"}},"
            + "{\"mediaType\":\"" + MediaTypes.OCI_MANIFEST + "\",\"digest\":\"" + D2 + "\",\"size\":11,"
            + "\"platform\":{\"os\":\"linux\",\"architecture\":\"arm64\",\"variant\":\"v8\"}}]}";

    private static Manifest parse(String body, String contentType) {
        return Manifest.parse(body.getBytes(StandardCharsets.UTF_8), contentType, JSON, "manifest m");
    }

    @Test
    void anIndexYieldsTheEntryOfEachLinuxArchitecture() {
        Manifest.Index index = (Manifest.Index) parse(INDEX, MediaTypes.OCI_INDEX + "; charset=utf-8");

        assertThat(index.platform("amd64"))
                .hasValueSatisfying(d -> assertThat(d.digest()).hasToString(D1));
        assertThat(index.platform("arm64"))
                .hasValueSatisfying(d -> assertThat(d.size()).isEqualTo(11));
        assertThat(index.platform("s390x")).isEmpty();
    }

    @Test
    void theBodysMediaTypeServesWhenTheHeaderIsGenericAndAnOciIndexMayOmitIt() {
        assertThat(parse(INDEX, "application/json")).isInstanceOf(Manifest.Index.class);
        assertThat(parse(INDEX.replace("\"mediaType\":\"" + MediaTypes.OCI_INDEX + "\",", ""), null))
                .isInstanceOf(Manifest.Index.class);
    }

    @Test
    void anImageManifestNamesItsConfig() {
        String body = "{\"schemaVersion\":2,\"mediaType\":\"" + MediaTypes.DOCKER_MANIFEST + "\",\"config\":"
                + "{\"mediaType\":\"" + MediaTypes.DOCKER_CONFIG + "\",\"digest\":\"" + D1 + "\",\"size\":3},"
                + "\"layers\":[]}";

        Manifest.Image image = (Manifest.Image) parse(body, MediaTypes.DOCKER_MANIFEST);

        assertThat(image.config().mediaType()).isEqualTo(MediaTypes.DOCKER_CONFIG);
        assertThat(image.config().digest()).hasToString(D1);
    }

    @Test
    void refusesMalformedUnknownAndContradictoryManifestsNamingWhy() {
        assertThatThrownBy(() -> parse("{not json", MediaTypes.OCI_INDEX))
                .isInstanceOf(RegistryException.BadContent.class)
                .hasMessageContaining("is not JSON");
        assertThatThrownBy(() -> parse("[]", MediaTypes.OCI_INDEX)).hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> parse(
                        "{\"schemaVersion\":1,\"name\":\"x\",\"fsLayers\":[]}",
                        "application/vnd.docker.distribution.manifest.v1+prettyjws"))
                .hasMessageContaining("schema 1 is not read");
        assertThatThrownBy(() -> parse(
                        "{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.artifact.manifest.v1+json\"}",
                        "application/json"))
                .hasMessageContaining("application/vnd.oci.artifact.manifest.v1+json");
        assertThatThrownBy(() -> parse(INDEX, MediaTypes.DOCKER_MANIFEST))
                .hasMessageContaining(
                        "served as " + MediaTypes.DOCKER_MANIFEST + " but says it is " + MediaTypes.OCI_INDEX);
        assertThatThrownBy(() -> parse(INDEX.replace(D2, "sha256:xyz"), MediaTypes.OCI_INDEX))
                .hasMessageContaining("manifests[1]")
                .hasMessageContaining("not a digest");
        assertThatThrownBy(() -> parse(INDEX.replace("\"size\":11", "\"size\":-1"), MediaTypes.OCI_INDEX))
                .hasMessageContaining("no valid size");
        assertThatThrownBy(() -> parse(
                        "{\"schemaVersion\":2,\"mediaType\":\"" + MediaTypes.OCI_MANIFEST + "\"}",
                        MediaTypes.OCI_MANIFEST))
                .hasMessageContaining("config is missing");
    }
}
