package io.mcdhooks.hooks.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ImageReferenceTest {

    private static final String SHA = "sha256:" + "a".repeat(64);

    @Test
    void readsARegistryWithPortARepositoryATagAndADigest() {
        ImageReference ref = ImageReference.parse("registry.example:5000/gpu/nvidia-kmod:5.14.0-427.el9.x86_64@" + SHA);

        assertThat(ref.registry()).isEqualTo("registry.example:5000");
        assertThat(ref.repository()).isEqualTo("gpu/nvidia-kmod");
        assertThat(ref.tag()).isEqualTo("5.14.0-427.el9.x86_64");
        assertThat(ref.digest()).isEqualTo(Digest.parse(SHA));
        assertThat(ref.apiReference()).as("a digest wins over the tag").isEqualTo(SHA);
        assertThat(ref).hasToString("registry.example:5000/gpu/nvidia-kmod:5.14.0-427.el9.x86_64@" + SHA);
    }

    @Test
    void readsNamesWithoutAHostAsDockerHubsAndABareNameAsLatest() {
        assertThat(ImageReference.parse("busybox").name()).isEqualTo("docker.io/library/busybox");
        assertThat(ImageReference.parse("busybox").tag()).isEqualTo("latest");
        assertThat(ImageReference.parse("org/app:1").name()).isEqualTo("docker.io/org/app");
        assertThat(ImageReference.parse("localhost/app:1").registry()).isEqualTo("localhost");
        assertThat(ImageReference.parse("127.0.0.1:5000/os@" + SHA).pinned()).isTrue();
    }

    @Test
    void refusesWhatTheGrammarDoesNot() {
        assertThatThrownBy(() -> ImageReference.parse("quay.io/Upper/case:1")).hasMessageContaining("repository");
        assertThatThrownBy(() -> ImageReference.parse("quay.io/os:bad+tag")).hasMessageContaining("tag");
        assertThatThrownBy(() -> ImageReference.parse("quay.io/os@sha256:abc")).hasMessageContaining("digest");
        assertThatThrownBy(() -> ImageReference.parse("quay.io/os@md5:" + "a".repeat(32)))
                .hasMessageContaining("digest");
        assertThatThrownBy(() -> ImageReference.parse(" ")).hasMessageContaining("no image reference");
        assertThatThrownBy(() -> ImageReference.parse("quay.io/" + "a".repeat(300) + ":1"))
                .hasMessageContaining("longer than 255");
    }

    @Test
    void aDigestMatchesOnlyItsContent() {
        Digest digest = Digest.sha256("{}".getBytes());

        assertThat(digest.matches("{}".getBytes())).isTrue();
        assertThat(digest.matches("{ }".getBytes())).isFalse();
        assertThat(Digest.parse(digest.toString())).isEqualTo(digest);
        assertThat(Digest.parse("sha512:" + "b".repeat(128)).algorithm()).isEqualTo("sha512");
    }
}
