package io.mcdhooks.bridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.strimzi.api.kafka.model.user.KafkaUser;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every manifest parses into its typed model, with no field the model does not know. */
class ManifestsTest {

    static Stream<Manifests.Document> documents() {
        return Manifests.all().stream();
    }

    @Test
    void deployHoldsManifests() {
        // Given the deploy/ tree; a wrong working directory would make every other test vacuous.
        assertThat(Manifests.DEPLOY.resolve("base/kustomization.yaml")).exists();
        assertThat(Manifests.all()).hasSizeGreaterThan(20);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("documents")
    void parsesIntoItsTypedModelWithNoUnknownField(Manifests.Document document) {
        HasMetadata object = Manifests.parse(document);
        assertThat(object.getMetadata().getName()).as(document.toString()).isNotBlank();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("documents")
    void namespacedObjectsNameTheirNamespace(Manifests.Document document) {
        // No namespace transformer is used (the Events Role must stay in "default"), so every
        // namespaced object says where it goes, and cluster-scoped ones say nothing.
        HasMetadata object = Manifests.parse(document);
        if (Manifests.namespaced(document)) {
            assertThat(object.getMetadata().getNamespace())
                    .as(document.toString())
                    .isIn(Manifests.NAMESPACES);
        } else {
            assertThat(object.getMetadata().getNamespace())
                    .as(document.toString())
                    .isNull();
        }
    }

    @Test
    void kafkaTheBridgeAndTheHooksEachHaveANamespaceOfTheirOwn() {
        assertThat(Manifests.ofType(Namespace.class))
                .extracting(n -> n.getMetadata().getName())
                .containsExactlyInAnyOrder(
                        Manifests.KAFKA_NAMESPACE, Manifests.BRIDGE_NAMESPACE, Manifests.HOOKS_NAMESPACE);
        for (Manifests.Document d : Manifests.base()) {
            String namespace = d.tree().path("metadata").path("namespace").asText();
            String file = Manifests.BASE.relativize(d.file()).toString();
            if (file.startsWith("kafka/")) {
                assertThat(namespace).as(d.toString()).isEqualTo(Manifests.KAFKA_NAMESPACE);
            } else if (file.startsWith("hooks/") && Manifests.namespaced(d)) {
                assertThat(namespace).as(d.toString()).isEqualTo(Manifests.HOOKS_NAMESPACE);
            } else if (file.startsWith("bridge/") && Manifests.namespaced(d)) {
                assertThat(namespace).as(d.toString()).isIn(Manifests.BRIDGE_NAMESPACE, "default");
            }
        }
    }

    @Test
    void namesAreUniquePerKindAndNamespace() {
        List<String> keys = Manifests.base().stream()
                .map(d -> d.kindKey() + "/"
                        + d.tree().path("metadata").path("namespace").asText() + "/" + d.name())
                .toList();
        assertThat(keys).doesNotHaveDuplicates();
    }

    @Test
    void anUnknownFieldOfAKubernetesObjectFails() throws Exception {
        JsonNode deployment = Manifests.YAML.readTree("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: x}
                spec:
                  replicaz: 2
                """);
        assertThatThrownBy(() -> Manifests.strict(deployment, Deployment.class)).hasMessageContaining("replicaz");
    }

    @Test
    void anUnknownFieldOfAStrimziObjectFails() throws Exception {
        JsonNode user = Manifests.YAML.readTree("""
                apiVersion: kafka.strimzi.io/v1beta2
                kind: KafkaUser
                metadata: {name: x}
                spec:
                  authorization:
                    type: simple
                    acls:
                      - resource: {type: topic, name: t}
                        operations: [Read]
                        hots: "*"
                """);
        assertThatThrownBy(() -> Manifests.strict(user, KafkaUser.class)).hasMessageContaining("hots");
    }

    @Test
    void everyKindInUseHasAModelOrAVendoredSchema() {
        assertThat(Manifests.all())
                .allSatisfy(d -> assertThat(Manifests.known(d.kindKey()))
                        .as(d.toString())
                        .isTrue());
    }

    @Test
    void anUnknownFieldOfAServiceMonitorFailsItsCrdSchema() throws Exception {
        JsonNode monitor = Manifests.YAML.readTree("""
                apiVersion: monitoring.coreos.com/v1
                kind: ServiceMonitor
                metadata: {name: x, namespace: mcdhooks}
                spec:
                  selector: {matchLabels: {a: b}}
                  endpoints:
                    - port: http
                      intervall: 30s
                """);
        assertThat(CrdSchemas.problems("monitoring.coreos.com/v1/ServiceMonitor", monitor))
                .singleElement()
                .asString()
                .contains("intervall");
    }

    @Test
    void aRuleWithoutAnExpressionFailsThePrometheusRuleSchema() throws Exception {
        JsonNode rule = Manifests.YAML.readTree("""
                apiVersion: monitoring.coreos.com/v1
                kind: PrometheusRule
                metadata: {name: x, namespace: mcdhooks}
                spec:
                  groups:
                    - name: g
                      rules:
                        - alert: A
                          for: 5m
                """);
        assertThat(CrdSchemas.problems("monitoring.coreos.com/v1/PrometheusRule", rule))
                .anySatisfy(p -> assertThat(p).contains("expr"));
    }
}
