package io.mcdhooks.bridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The kustomizations, resolved by hand (no kustomize binary here): every path exists, the base
 * lists every manifest under it, patches aim at objects the base has, and the images it names
 * are the ones the workloads use.
 */
class KustomizeTest {

    @Test
    void everyResourceAndPatchPathExists() throws Exception {
        assertThat(Manifests.kustomizations()).hasSize(10);
        for (Path kustomization : Manifests.kustomizations()) {
            JsonNode k = Manifests.YAML.readTree(kustomization.toFile());
            Path dir = kustomization.getParent();
            for (String path : paths(k)) {
                Path target = dir.resolve(path).normalize();
                assertThat(target).as(kustomization + " → " + path).exists();
                if (Files.isDirectory(target)) {
                    assertThat(target.resolve("kustomization.yaml"))
                            .as(kustomization + " → " + path)
                            .exists();
                }
            }
            // A kustomize Component (what every OpenShift overlay adds) has an API of its own
            boolean component = k.path("kind").asText().equals("Component");
            assertThat(k.path("apiVersion").asText())
                    .isEqualTo(component ? "kustomize.config.k8s.io/v1alpha1" : "kustomize.config.k8s.io/v1beta1");
            assertThat(k.path("kind").asText()).isIn("Kustomization", "Component");
        }
    }

    @Test
    void theBaseAndTheMonitoringListEveryManifestUnderThem() throws Exception {
        for (Path dir : List.of(Manifests.BASE, Manifests.DEPLOY.resolve("monitoring"))) {
            JsonNode k =
                    Manifests.YAML.readTree(dir.resolve("kustomization.yaml").toFile());
            Set<Path> listed = new HashSet<>();
            k.path("resources").forEach(r -> {
                Path target = dir.resolve(r.asText()).normalize();
                if (!Files.isDirectory(target)) {
                    listed.add(target);
                }
            });
            Set<Path> present = Manifests.manifestFiles().stream()
                    .filter(p -> p.getParent().equals(dir) || p.startsWith(dir) && dir.equals(Manifests.BASE))
                    .collect(Collectors.toSet());
            assertThat(listed).as(dir.toString()).isEqualTo(present);
        }
    }

    @Test
    void overlaysBuildOnTheBaseAndPatchOnlyObjectsItHas() throws Exception {
        Set<String> base = Manifests.base().stream()
                .map(d -> d.kindKey() + "/"
                        + d.tree().path("metadata").path("namespace").asText() + "/" + d.name())
                .collect(Collectors.toSet());
        for (String overlay : List.of("openshift", "kubernetes")) {
            Path dir = Manifests.DEPLOY.resolve("overlays").resolve(overlay);
            JsonNode k =
                    Manifests.YAML.readTree(dir.resolve("kustomization.yaml").toFile());
            List<String> resources = new ArrayList<>();
            k.path("resources").forEach(r -> resources.add(r.asText()));
            assertThat(resources).as(overlay).contains("../../base");
            // The overlay's patches, and those of the Components it takes
            List<Path> patches = new ArrayList<>();
            k.path("patches")
                    .forEach(p -> patches.add(dir.resolve(p.path("path").asText())));
            for (JsonNode component : k.path("components")) {
                Path from = dir.resolve(component.asText()).normalize();
                Manifests.YAML
                        .readTree(from.resolve("kustomization.yaml").toFile())
                        .path("patches")
                        .forEach(p -> patches.add(from.resolve(p.path("path").asText())));
            }
            assertThat(patches).as(overlay).isNotEmpty();
            for (Path patch : patches) {
                for (Manifests.Document d : Manifests.documents(patch)) {
                    Manifests.parse(d);
                    String key = d.kindKey() + "/"
                            + d.tree().path("metadata").path("namespace").asText() + "/" + d.name();
                    assertThat(base).as(overlay + " patches " + key).contains(key);
                }
            }
        }
    }

    @Test
    void theRollbackComponentPatchesOnlyTheBridgeOfTheBase() throws Exception {
        Path dir = Manifests.DEPLOY.resolve("rollback");
        JsonNode k = Manifests.YAML.readTree(dir.resolve("kustomization.yaml").toFile());
        assertThat(k.path("kind").asText()).isEqualTo("Component");
        List<String> keys = new ArrayList<>();
        for (JsonNode patch : k.path("patches")) {
            for (Manifests.Document d :
                    Manifests.documents(dir.resolve(patch.path("path").asText()))) {
                Manifests.parse(d);
                keys.add(d.kindKey() + "/"
                        + d.tree().path("metadata").path("namespace").asText() + "/" + d.name());
            }
        }
        assertThat(keys).containsExactly("apps/v1/Deployment/mcdhooks/" + WorkloadsTest.BRIDGE);
        assertThat(Manifests.base().stream()
                        .map(d -> d.kindKey() + "/"
                                + d.tree().path("metadata").path("namespace").asText() + "/" + d.name()))
                .contains(keys.get(0));
    }

    @Test
    void imagesNamedInTheBaseAreTheOnesTheWorkloadsUse() throws Exception {
        JsonNode k = Manifests.YAML.readTree(
                Manifests.BASE.resolve("kustomization.yaml").toFile());
        Set<String> named = new HashSet<>();
        k.path("images").forEach(i -> named.add(i.path("name").asText()));
        Set<String> used = WorkloadsTest.containers().stream()
                .map(c -> c.getValue().getImage())
                .collect(Collectors.toSet());
        assertThat(used).isEqualTo(named).containsExactlyInAnyOrder("mcdhooks-bridge", "mcdhooks-hook-runner");
        for (String image : named) {
            assertThat(ContainerfileTest.containerfile(image))
                    .as(image + " is built by a Containerfile")
                    .exists();
        }
    }

    private static List<String> paths(JsonNode kustomization) {
        List<String> paths = new ArrayList<>();
        kustomization.path("resources").forEach(r -> paths.add(r.asText()));
        kustomization.path("patches").forEach(p -> paths.add(p.path("path").asText()));
        kustomization.path("components").forEach(c -> paths.add(c.asText()));
        kustomization.path("configMapGenerator").forEach(g -> g.path("files").forEach(f -> paths.add(f.asText())));
        return paths;
    }
}
