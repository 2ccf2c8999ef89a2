package io.mcdhooks.bridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.mcdhooks.bridge.gate.GateObjects;
import io.mcdhooks.bridge.gatekeeper.HoldPolicy;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shipped post-update hold: the names the gatekeeper looks for, its own identity and the hold
 * annotation in the CEL, and the v1beta1 copy for OpenShift 4.16 the same but for its apiVersion.
 * What the policy does is checked where it is enforced: RealMcoGapsIT and the simulator's AdmissionIT
 * apply this file as written.
 */
class AdmissionPolicyTest {

    static final Path V1 = Manifests.DEPLOY.resolve("admission/v1/post-update-hold-policy.yaml");
    static final Path V1BETA1 = Manifests.DEPLOY.resolve("admission/v1beta1/post-update-hold-policy.yaml");

    @Test
    void thePolicyAndItsBindingAreNamedAsTheGatekeeperLooksForThem() {
        List<Manifests.Document> documents = Manifests.documents(V1);
        assertThat(documents).extracting(Manifests.Document::name).containsOnly(HoldPolicy.NAME);
        JsonNode binding = documents.get(1).tree().path("spec");
        assertThat(binding.path("policyName").asText()).isEqualTo(HoldPolicy.NAME);
        assertThat(binding.path("validationActions").toString()).isEqualTo("[\"Deny\"]");
    }

    @Test
    void itExemptsTheBridgesServiceAccountAndTheBreakGlassGroupAndKeysOnTheHoldAnnotation() {
        ServiceAccountName account = ServiceAccountName.of(WorkloadsTest.bridge());
        String policy = Manifests.documents(V1).get(0).tree().toString();
        assertThat(policy)
                .contains("'system:serviceaccount:" + account.namespace() + ":" + account.name() + "'")
                .contains("'" + HoldPolicy.BREAK_GLASS_GROUP + "'")
                .contains("'" + GateObjects.HOLD + "'");
    }

    @Test
    void theV1beta1CopyIsTheSameButForItsApiVersion() {
        List<Manifests.Document> v1 = Manifests.documents(V1);
        List<Manifests.Document> beta = Manifests.documents(V1BETA1);
        assertThat(beta).hasSameSizeAs(v1);
        for (int i = 0; i < v1.size(); i++) {
            ObjectNode copy = beta.get(i).tree().deepCopy();
            assertThat(copy.path("apiVersion").asText()).isEqualTo("admissionregistration.k8s.io/v1beta1");
            copy.put("apiVersion", "admissionregistration.k8s.io/v1");
            assertThat(copy).isEqualTo(v1.get(i).tree());
        }
    }

    /** The namespace and name of the bridge's ServiceAccount. */
    private record ServiceAccountName(String namespace, String name) {
        static ServiceAccountName of(Deployment bridge) {
            return new ServiceAccountName(
                    bridge.getMetadata().getNamespace(),
                    bridge.getSpec().getTemplate().getSpec().getServiceAccountName());
        }
    }
}
