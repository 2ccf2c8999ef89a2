package io.mcdhooks.hooks.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PullSecretTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String auth(String userPass) {
        return Base64.getEncoder().encodeToString(userPass.getBytes(StandardCharsets.UTF_8));
    }

    private static PullSecret parse(String json) {
        return PullSecret.parse(json.getBytes(StandardCharsets.UTF_8), "secret.json", JSON);
    }

    @Test
    void readsBase64UserPasswordUsernameAndPasswordAndIdentityTokens() {
        PullSecret secret = parse("{\"auths\":{"
                + "\"quay.io\":{\"auth\":\"" + auth("robot+ci:pa:ss") + "\",\"email\":\"x@example\"},"
                + "\"registry.example:5000\":{\"username\":\"u\",\"password\":\"p\"},"
                + "\"acr.example\":{\"identitytoken\":\"refresh-me\"}}}");

        assertThat(secret.lookup("quay.io", "org/app")).hasValueSatisfying(c -> {
            assertThat(c.username()).isEqualTo("robot+ci");
            assertThat(c.password()).as("only the first colon separates").isEqualTo("pa:ss");
        });
        assertThat(secret.lookup("registry.example:5000", "x"))
                .hasValueSatisfying(c -> assertThat(c.hasPassword()).isTrue());
        assertThat(secret.lookup("acr.example", "x")).hasValueSatisfying(c -> {
            assertThat(c.hasIdentityToken()).isTrue();
            assertThat(c.toString()).doesNotContain("refresh-me");
        });
        assertThat(secret.lookup("other.example", "x")).isEmpty();
    }

    @Test
    void theMostSpecificKeyWinsAndDockerHubsAliasesAreOneRegistry() {
        PullSecret secret = parse("{\"auths\":{"
                + "\"quay.io\":{\"auth\":\"" + auth("host:1") + "\"},"
                + "\"quay.io/team\":{\"auth\":\"" + auth("team:2") + "\"},"
                + "\"https://index.docker.io/v1/\":{\"auth\":\"" + auth("hub:3") + "\"}}}");

        assertThat(secret.lookup("quay.io", "team/app").map(Credentials::username))
                .hasValue("team");
        assertThat(secret.lookup("quay.io", "teams/app").map(Credentials::username))
                .hasValue("host");
        assertThat(secret.lookup("docker.io", "library/busybox").map(Credentials::username))
                .hasValue("hub");
    }

    @Test
    void mergesFilesTheFirstWinningForTheSameRegistry(@TempDir Path dir) throws Exception {
        Path first = dir.resolve("a.json");
        Path second = dir.resolve("b.json");
        Files.writeString(first, "{\"auths\":{\"quay.io\":{\"auth\":\"" + auth("first:1") + "\"}}}");
        Files.writeString(
                second,
                "{\"auths\":{\"quay.io\":{\"auth\":\"" + auth("second:2") + "\"},\"r.example\":{\"auth\":\""
                        + auth("r:3") + "\"}}}");

        PullSecret merged = PullSecret.read(List.of(first, second), JSON);

        assertThat(merged.lookup("quay.io", "x").map(Credentials::username)).hasValue("first");
        assertThat(merged.lookup("r.example", "x").map(Credentials::username)).hasValue("r");
    }

    @Test
    void namesTheFileAndTheKeyOfWhatItCannotRead() {
        assertThatThrownBy(() -> parse("{\"quay.io\":{\"auth\":\"x\"}}"))
                .hasMessageContaining("secret.json has no \"auths\"");
        assertThatThrownBy(() -> parse("{\"auths\":{\"quay.io\":{\"auth\":\"***\"}}}"))
                .hasMessageContaining("auths[\"quay.io\"].auth is not base64");
        assertThatThrownBy(() -> parse("{\"auths\":{\"quay.io\":{\"auth\":\"" + auth("nocolon") + "\"}}}"))
                .hasMessageContaining("does not decode to user:password");
        assertThatThrownBy(() -> parse("not json")).hasMessageContaining("secret.json is not JSON");
    }
}
