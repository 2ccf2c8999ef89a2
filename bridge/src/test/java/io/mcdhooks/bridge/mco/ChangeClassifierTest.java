package io.mcdhooks.bridge.mco;

import static org.assertj.core.api.Assertions.assertThat;

import io.mcdhooks.mco.disruption.NodeDisruptionPolicy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The class of a change as the bridge tells it, and when it cannot. */
class ChangeClassifierTest {

    private static final RenderedConfig OLD = config("rendered-worker-1", "default", null);
    private static final RenderedConfig RT = config("rendered-worker-2", "realtime", null);
    private static final RenderedConfig POLICY = config("rendered-worker-3", "default", "/etc/containers/policy.json");

    @Test
    void aChangeIsClassifiedByThePolicyTheClusterPublishes() {
        assertThat(ChangeClassifier.describe(ChangeClassifier.classify(OLD, POLICY, NodeDisruptionPolicy.defaults())))
                .isEqualTo("services (Reload crio.service)");
    }

    @Test
    void withoutAPolicyOnlyAnOsChangeIsKnownForItRebootsWhateverThePolicy() {
        assertThat(ChangeClassifier.classify(OLD, RT, null).kind()).isEqualTo("reboot");
        assertThat(ChangeClassifier.classify(OLD, POLICY, null)).isNull();
        assertThat(ChangeClassifier.describe(null)).isEqualTo("unknown");
    }

    @Test
    void aConfigWhoseSpecWasNotReadOrARegistriesFileThatIsNotTomlIsUnknown() {
        RenderedConfig factsOnly =
                new RenderedConfig("rendered-worker-4", "quay.io/os", "default", List.of(), List.of());
        RenderedConfig bad = new RenderedConfig(
                "rendered-worker-5",
                "quay.io/os",
                "default",
                List.of(),
                List.of(),
                spec("default", "/etc/containers/registries.conf", "data:,%5B%5Bnot%20toml"));

        assertThat(ChangeClassifier.classify(OLD, factsOnly, NodeDisruptionPolicy.defaults()))
                .isNull();
        assertThat(ChangeClassifier.classify(OLD, bad, NodeDisruptionPolicy.defaults()))
                .isNull();
        assertThat(ChangeClassifier.drains(null)).isFalse();
    }

    private static RenderedConfig config(String name, String kernelType, String file) {
        return new RenderedConfig(
                name, "quay.io/os", kernelType, List.of(), List.of(), spec(kernelType, file, "data:,x"));
    }

    private static Map<String, Object> spec(String kernelType, String file, String source) {
        List<Object> files =
                file == null ? List.of() : List.of(Map.of("path", file, "contents", Map.of("source", source)));
        return Map.of(
                "osImageURL",
                "quay.io/os",
                "kernelType",
                kernelType,
                "config",
                Map.of("storage", Map.of("files", files)));
    }
}
