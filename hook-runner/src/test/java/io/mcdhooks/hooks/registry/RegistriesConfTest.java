package io.mcdhooks.hooks.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mcdhooks.hooks.registry.RegistriesConf.Endpoint;
import java.util.List;
import org.junit.jupiter.api.Test;

class RegistriesConfTest {

    private static final String SHA = "sha256:" + "c".repeat(64);

    // As an ImageDigestMirrorSet and an ImageTagMirrorSet write it on a node, plus a blocked wildcard.
    private static final String CONF = """
            unqualified-search-registries = ["registry.access.redhat.com"]
            short-name-mode = "enforcing"

            [[registry]]
              prefix = ""
              location = "quay.io/openshift-release-dev/ocp-v4.0-art-dev"
              mirror-by-digest-only = true

              [[registry.mirror]]
                location = "mirror.example:5000/ocp/release"

            [[registry]]
              prefix = ""
              location = "registry.example.com/gpu"
              blocked = true

              [[registry.mirror]]
                location = "mirror.example:5000/gpu"
                pull-from-mirror = "tag-only"

              [[registry.mirror]]
                location = "backup.example/gpu"
                insecure = true

            [[registry]]
              prefix = "*.untrusted.example"
              blocked = true
            """;

    private static List<String> names(List<Endpoint> endpoints) {
        return endpoints.stream().map(e -> e.reference().toString()).toList();
    }

    @Test
    void aDigestMirrorServesDigestsFirstThenTheSource() {
        RegistriesConf conf = RegistriesConf.parse(CONF, "registries.conf");

        assertThat(names(conf.endpoints(ImageReference.parse("quay.io/openshift-release-dev/ocp-v4.0-art-dev@" + SHA))))
                .containsExactly(
                        "mirror.example:5000/ocp/release@" + SHA,
                        "quay.io/openshift-release-dev/ocp-v4.0-art-dev@" + SHA);
        assertThat(names(conf.endpoints(ImageReference.parse("quay.io/openshift-release-dev/ocp-v4.0-art-dev:4.16"))))
                .as("mirror-by-digest-only: a tag goes to the source")
                .containsExactly("quay.io/openshift-release-dev/ocp-v4.0-art-dev:4.16");
    }

    @Test
    void aBlockedSourceIsReachedOnlyThroughTheMirrorsThatTakeTheReferencesKind() {
        RegistriesConf conf = RegistriesConf.parse(CONF, "registries.conf");

        List<Endpoint> byTag = conf.endpoints(ImageReference.parse("registry.example.com/gpu/nvidia:5.14"));
        assertThat(names(byTag))
                .containsExactly("mirror.example:5000/gpu/nvidia:5.14", "backup.example/gpu/nvidia:5.14");
        assertThat(byTag.get(1).insecure()).isTrue();
        assertThat(byTag).allSatisfy(e -> assertThat(e.mirror()).isTrue());
        assertThat(names(conf.endpoints(ImageReference.parse("registry.example.com/gpu/nvidia@" + SHA))))
                .containsExactly("backup.example/gpu/nvidia@" + SHA);
        assertThat(conf.endpoints(ImageReference.parse("a.untrusted.example/x:1")))
                .isEmpty();
        assertThat(names(conf.endpoints(ImageReference.parse("registry.example.com/gpus/x:1"))))
                .as("a prefix ends at a path boundary")
                .containsExactly("registry.example.com/gpus/x:1");
    }

    @Test
    void theLongestPrefixWinsAndALocationRewritesTheSource() {
        RegistriesConf conf = RegistriesConf.parse("""
                [[registry]]
                prefix = "example.com"
                location = "other.example"
                [[registry]]
                prefix = "example.com/team"
                location = "team.example/mirror"
                """, "r.conf");

        assertThat(names(conf.endpoints(ImageReference.parse("example.com/team/app:1"))))
                .containsExactly("team.example/mirror/app:1");
        assertThat(names(conf.endpoints(ImageReference.parse("example.com/x/app:1"))))
                .containsExactly("other.example/x/app:1");
    }

    @Test
    void refusesWhatItWouldOtherwiseIgnoreSilently() {
        assertThatThrownBy(() -> RegistriesConf.parse(
                        "[[registry]]\nprefix = \"a.example\"\nmirror-by-digest = true\n", "r.conf"))
                .hasMessageContaining("r.conf [[registry]] #1 has an unknown key 'mirror-by-digest'");
        assertThatThrownBy(() -> RegistriesConf.parse("[registries.search]\nregistries = [\"a\"]\n", "r.conf"))
                .hasMessageContaining("version 1 format");
        assertThatThrownBy(() -> RegistriesConf.parse(
                        "[[registry]]\nprefix = \"*.a.example\"\n[[registry.mirror]]\nlocation = \"m.example/x\"\n",
                        "r.conf"))
                .hasMessageContaining("wildcard prefix");
        assertThatThrownBy(() -> RegistriesConf.parse(
                        "[[registry]]\nprefix = \"a.example/x\"\n[[registry.mirror]]\nlocation = \"m.example/x\"\n"
                                + "pull-from-mirror = \"sometimes\"\n",
                        "r.conf"))
                .hasMessageContaining("pull-from-mirror = \"sometimes\"");
        assertThatThrownBy(() -> RegistriesConf.parse("[[registry]\n", "r.conf"))
                .hasMessageContaining("not TOML");
    }
}
