package io.mcdhooks.mco.disruption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code isSafeContainerRegistryConfChanges} ({@code pkg/daemon/drain.go}). */
class RegistriesConfTest {

    private static final String BASE = """
            unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]

            [[registry]]
            prefix = ""
            location = "quay.io/openshift-release-dev/ocp-release"

            [[registry.mirror]]
            location = "mirror.example.com/ocp-release"
            pull-from-mirror = "digest-only"
            """;

    @Test
    void addingADigestOnlyMirrorIsSafe() {
        String after = BASE + """

                [[registry.mirror]]
                location = "mirror2.example.com/ocp-release"
                pull-from-mirror = "digest-only"
                """;

        assertThat(RegistriesConf.isSafeChange(BASE, after)).isTrue();
    }

    @Test
    void addingAMirrorThatPullsByTagIsNotSafe() {
        String after = BASE + """

                [[registry.mirror]]
                location = "mirror2.example.com/ocp-release"
                """;

        assertThat(RegistriesConf.isSafeChange(BASE, after)).isFalse();
    }

    @Test
    void addingARegistryWhoseMirrorsAllPullByDigestIsSafeAndOneThatDoesNotIsNot() {
        String digestOnly = BASE + """

                [[registry]]
                location = "registry.redhat.io/ubi9"
                [[registry.mirror]]
                location = "mirror.example.com/ubi9"
                pull-from-mirror = "digest-only"
                """;
        String blocked = BASE + """

                [[registry]]
                location = "docker.io/library"
                blocked = true
                """;

        assertThat(RegistriesConf.isSafeChange(BASE, digestOnly)).isTrue();
        assertThat(RegistriesConf.isSafeChange(BASE, blocked)).isFalse();
    }

    @Test
    void removingOrReorderingSearchRegistriesIsNotSafeButAppendingIs() {
        String appended = BASE.replace("\"docker.io\"]", "\"docker.io\", \"quay.io\"]");
        String reordered = BASE.replace(
                "[\"registry.access.redhat.com\", \"docker.io\"]", "[\"docker.io\", \"registry.access.redhat.com\"]");
        String removed = BASE.replace(", \"docker.io\"]", "]");

        assertThat(RegistriesConf.isSafeChange(BASE, appended)).isTrue();
        assertThat(RegistriesConf.isSafeChange(BASE, reordered)).isFalse();
        assertThat(RegistriesConf.isSafeChange(BASE, removed)).isFalse();
    }

    @Test
    void removingAMirrorOrARegistryOrChangingItsLocationIsNotSafe() {
        String noMirror = """
                unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]
                [[registry]]
                prefix = ""
                location = "quay.io/openshift-release-dev/ocp-release"
                """;
        String insecure = BASE.replace(
                "location = \"quay.io/openshift-release-dev/ocp-release\"",
                "location = \"quay.io/openshift-release-dev/ocp-release\"\ninsecure = true");

        assertThat(RegistriesConf.isSafeChange(BASE, noMirror)).isFalse();
        assertThat(RegistriesConf.isSafeChange(
                        BASE, "unqualified-search-registries = [\"registry.access.redhat.com\", \"docker.io\"]"))
                .isFalse();
        assertThat(RegistriesConf.isSafeChange(BASE, insecure)).isFalse();
    }

    @Test
    void aFileThatIsNotTomlIsAnError() {
        assertThatThrownBy(() -> RegistriesConf.isSafeChange(BASE, "[[registry"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("/etc/containers/registries.conf");
    }
}
