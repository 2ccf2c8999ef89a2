package io.mcdhooks.bridge.rollback;

import static io.mcdhooks.bridge.rollback.MachineConfigObjects.mc;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SnapshotTakerTest {

    private static final Instant NOW = Instant.parse("2026-12-03T11:00:00Z");

    @Test
    void aNewTargetIsSnapshottedWithItsSourcesAsTheyAreNowOwnersIncluded() {
        Map<String, GenericKubernetesResource> store = new HashMap<>();
        store.put("00-worker", mc("00-worker", Map.of(Ownership.GENERATED_BY, "abc"), Map.of("osImageURL", "a")));
        store.put("99-worker-kargs", mc("99-worker-kargs", Map.of(), Map.of("kernelArguments", List.of("nosmt"))));

        var snapshot = SnapshotTaker.take(
                "c1", pool("rendered-worker-2222", "00-worker", "99-worker-kargs"), store::get, key -> false, NOW);

        assertThat(snapshot).hasValueSatisfying(s -> {
            assertThat(s.key()).isEqualTo("c1/worker/rendered-worker-2222");
            assertThat(s.takenAt()).isEqualTo(NOW);
            assertThat(s.sources()).extracting(SourceConfig::name).containsExactly("00-worker", "99-worker-kargs");
            SourceConfig base = s.source("00-worker").orElseThrow();
            assertThat(base.administrators()).isFalse();
            // Only the administrator's are kept whole: a base config holds every file of the OS
            assertThat(base.spec()).isEmpty();
            assertThat(base.digest())
                    .isEqualTo(SnapshotTaker.source(store.get("00-worker")).digest())
                    .hasSize(64);
            assertThat(s.source("99-worker-kargs").orElseThrow().spec())
                    .isEqualTo(Map.of("kernelArguments", List.of("nosmt")));
        });
    }

    @Test
    void nothingIsTakenTwiceNorBeforeEverySourceIsKnown() {
        Map<String, GenericKubernetesResource> store = new HashMap<>();
        store.put("00-worker", mc("00-worker", Map.of(), Map.of()));
        GenericKubernetesResource pool = pool("rendered-worker-2222", "00-worker", "99-worker-kargs");

        // a source not in the informer's store yet: asked again on the next event
        assertThat(SnapshotTaker.take("c1", pool, store::get, key -> false, NOW))
                .isEmpty();
        // recorded already
        store.put("99-worker-kargs", mc("99-worker-kargs", Map.of(), Map.of()));
        assertThat(SnapshotTaker.take("c1", pool, store::get, "c1/worker/rendered-worker-2222"::equals, NOW))
                .isEmpty();
        assertThat(SnapshotTaker.take("c1", pool, store::get, key -> false, NOW))
                .isPresent();
    }

    private static GenericKubernetesResource pool(String target, String... sources) {
        return new GenericKubernetesResourceBuilder()
                .withApiVersion("machineconfiguration.openshift.io/v1")
                .withKind("MachineConfigPool")
                .withNewMetadata()
                .withName("worker")
                .endMetadata()
                .addToAdditionalProperties(
                        "spec",
                        Map.of(
                                "configuration",
                                Map.of(
                                        "name",
                                        target,
                                        "source",
                                        List.of(sources).stream()
                                                .map(s -> Map.of("kind", "MachineConfig", "name", s))
                                                .toList())))
                .build();
    }
}
