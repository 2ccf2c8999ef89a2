package io.mcdhooks.bridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.mcdhooks.bridge.BridgeConfig;
import io.mcdhooks.bridge.overrides.GateOverride;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * deploy/admission/v1 and v1beta1 ship the same policies, each bound with Deny, and the overrides'
 * policy is the one the gatekeeper looks for. What each policy admits and refuses is tested against
 * the in-memory API server's evaluation (GatekeeperIT, CliIT, BridgeAdmissionTest).
 */
class AdmissionPoliciesTest {

    static final Path V1 = Manifests.DEPLOY.resolve("admission/v1");
    static final Path V1BETA1 = Manifests.DEPLOY.resolve("admission/v1beta1");

    @Test
    void v1beta1HoldsTheSamePoliciesButForTheirApiVersion() {
        assertThat(names(V1BETA1)).isEqualTo(names(V1));
        for (String file : names(V1)) {
            List<JsonNode> v1 = trees(V1.resolve(file));
            List<JsonNode> beta = trees(V1BETA1.resolve(file));
            assertThat(beta).hasSameSizeAs(v1);
            for (int i = 0; i < v1.size(); i++) {
                assertThat(beta.get(i).path("apiVersion").asText()).isEqualTo("admissionregistration.k8s.io/v1beta1");
                ((ObjectNode) beta.get(i))
                        .put("apiVersion", v1.get(i).path("apiVersion").asText());
                assertThat(beta.get(i)).as(file + "#" + i).isEqualTo(v1.get(i));
            }
        }
    }

    @Test
    void everyPolicyIsBoundOnceWithDenyAndFailsClosed() {
        List<Manifests.Document> docs = Stream.of(V1, V1BETA1)
                .flatMap(dir -> names(dir).stream().map(dir::resolve))
                .flatMap(f -> Manifests.documents(f).stream())
                .toList();
        List<ValidatingAdmissionPolicy> policies = docs.stream()
                .filter(d -> d.tree().path("kind").asText().equals("ValidatingAdmissionPolicy"))
                .map(d -> Manifests.parse(d, ValidatingAdmissionPolicy.class))
                .toList();
        List<ValidatingAdmissionPolicyBinding> bindings = docs.stream()
                .filter(d -> d.tree().path("kind").asText().equals("ValidatingAdmissionPolicyBinding"))
                .map(d -> Manifests.parse(d, ValidatingAdmissionPolicyBinding.class))
                .toList();
        assertThat(policies).isNotEmpty();
        for (ValidatingAdmissionPolicy policy : policies) {
            assertThat(policy.getSpec().getFailurePolicy())
                    .as(policy.getMetadata().getName())
                    .isEqualTo("Fail");
            assertThat(bindings)
                    .filteredOn(b -> b.getSpec()
                            .getPolicyName()
                            .equals(policy.getMetadata().getName()))
                    .hasSize(2) // one per apiVersion
                    .allSatisfy(
                            b -> assertThat(b.getSpec().getValidationActions()).containsExactly("Deny"));
        }
        assertThat(policies).extracting(p -> p.getMetadata().getName()).contains(GateOverride.POLICY);
    }

    @Test
    void theOverlaysInstallTheV1Policies() {
        for (String overlay : List.of("openshift", "kubernetes")) {
            assertThat(Manifests.read(Manifests.DEPLOY
                            .resolve("overlays")
                            .resolve(overlay)
                            .resolve("kustomization.yaml")))
                    .contains("- ../../admission/v1\n");
        }
    }

    @Test
    void gatePodsMayRunOnlyTheImageTheBridgeIsGiven() {
        String policy = Manifests.read(V1.resolve("bridge-levers-policy.yaml"));
        String fallback = BridgeConfig.GATE_POD_IMAGE.fallback();
        assertThat(policy).contains("c.image == '" + fallback + "'");
        for (String overlay : List.of("openshift/platform", "kubernetes")) {
            assertThat(Manifests.read(Manifests.DEPLOY.resolve("overlays/" + overlay + "/bridge-settings.yaml")))
                    .as("MCDHOOKS_GATE_POD_IMAGE of the %s overlay is the policy's image", overlay)
                    .containsPattern("name: MCDHOOKS_GATE_POD_IMAGE\\n\\s+value: " + Pattern.quote(fallback) + "\\n");
        }
    }

    private static List<String> names(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".yaml") && !n.equals("kustomization.yaml"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<JsonNode> trees(Path file) {
        return Manifests.documents(file).stream().map(Manifests.Document::tree).toList();
    }
}
