package io.mcdhooks.bridge.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import io.strimzi.api.kafka.model.user.KafkaUser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.JacksonAnnotationIntrospector;
import tools.jackson.databind.json.JsonMapper;

/**
 * The manifests under {@code deploy/}, read strictly: every document must parse into its typed
 * model (fabric8's, the Strimzi API's, or our {@link UpdateHook}) and a field the model does not
 * know is an error. The models keep unknown fields in {@code additionalProperties} through
 * {@code @JsonAnySetter}; the strict mapper ignores those setters, so unknown fields fail.
 * fabric8 8 models are read with Jackson 3 ({@code tools.jackson}), so the strict mapper is one;
 * YAML files are split into documents with Jackson 2's YAML reader.
 */
final class Manifests {

    /** deploy/, relative to the bridge module, where Surefire runs. */
    static final Path DEPLOY = Path.of("..", "deploy").toAbsolutePath().normalize();

    static final Path BASE = DEPLOY.resolve("base");

    /** The namespaces of mcd-update-hooks: Kafka, the bridge with its gate pods, the hooks. */
    static final String KAFKA_NAMESPACE = "mcdhooks-kafka";

    static final String BRIDGE_NAMESPACE = "mcdhooks";
    static final String HOOKS_NAMESPACE = "mcdhooks-hooks";
    /** Where namespaced objects may go: ours, and "default" for the Events Role. */
    static final List<String> NAMESPACES = List.of(KAFKA_NAMESPACE, BRIDGE_NAMESPACE, HOOKS_NAMESPACE, "default");

    /** kind (apiVersion group/version) → model. */
    static final Map<String, Class<? extends HasMetadata>> MODELS = Map.ofEntries(
            Map.entry("v1/Namespace", Namespace.class),
            Map.entry("v1/ServiceAccount", ServiceAccount.class),
            Map.entry("v1/ConfigMap", ConfigMap.class),
            Map.entry("v1/Service", Service.class),
            Map.entry("apps/v1/Deployment", Deployment.class),
            Map.entry("apps/v1/DaemonSet", DaemonSet.class),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
            Map.entry("rbac.authorization.k8s.io/v1/ClusterRole", ClusterRole.class),
            Map.entry("rbac.authorization.k8s.io/v1/ClusterRoleBinding", ClusterRoleBinding.class),
            Map.entry("rbac.authorization.k8s.io/v1/Role", Role.class),
            Map.entry("rbac.authorization.k8s.io/v1/RoleBinding", RoleBinding.class),
            Map.entry("apiextensions.k8s.io/v1/CustomResourceDefinition", CustomResourceDefinition.class),
            Map.entry("admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy", ValidatingAdmissionPolicy.class),
            Map.entry(
                    "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding",
                    ValidatingAdmissionPolicyBinding.class),
            // v1beta1 (OpenShift 4.16) has the fields of v1: read strictly as v1, it has no other (fabric8 has no
            // v1beta1 model; AdmissionPoliciesTest keeps the shipped copies equal).
            Map.entry(
                    "admissionregistration.k8s.io/v1beta1/ValidatingAdmissionPolicy", ValidatingAdmissionPolicy.class),
            Map.entry(
                    "admissionregistration.k8s.io/v1beta1/ValidatingAdmissionPolicyBinding",
                    ValidatingAdmissionPolicyBinding.class),
            Map.entry(UpdateHook.GROUP + "/" + UpdateHook.VERSION + "/UpdateHook", UpdateHook.class),
            Map.entry("kafka.strimzi.io/v1beta2/Kafka", Kafka.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaNodePool", KafkaNodePool.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaTopic", KafkaTopic.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaUser", KafkaUser.class));

    static final JsonMapper STRICT = strictMapper();
    private static final JsonMapper LENIENT = JsonMapper.builder().build();
    static final YAMLMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One YAML document of one file. */
    record Document(Path file, int index, JsonNode tree) {
        String kindKey() {
            return tree.path("apiVersion").asText() + "/" + tree.path("kind").asText();
        }

        String name() {
            return tree.path("metadata").path("name").asText();
        }

        @Override
        public String toString() {
            return DEPLOY.relativize(file) + "#" + index + " "
                    + tree.path("kind").asText() + " " + name();
        }
    }

    private Manifests() {}

    static JsonMapper strictMapper() {
        return JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .annotationIntrospector(new JacksonAnnotationIntrospector() {
                    @Override
                    public Boolean hasAnySetter(MapperConfig<?> config, Annotated a) {
                        return Boolean.FALSE;
                    }
                })
                .build();
    }

    /** {@code tree} read strictly as {@code type}; throws naming the first unknown or malformed field. */
    static <T> T strict(JsonNode tree, Class<T> type) {
        try {
            return STRICT.readValue(JSON.writeValueAsString(tree), type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every YAML file under deploy/ that is not a kustomization. */
    static List<Path> manifestFiles() {
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                    .filter(p -> !p.getFileName().toString().equals("kustomization.yaml"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Path> kustomizations() {
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            return files.filter(p -> p.getFileName().toString().equals("kustomization.yaml"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Document> documents(Path file) {
        List<Document> documents = new ArrayList<>();
        try (var parser = YAML.getFactory().createParser(file.toFile())) {
            var it = YAML.readValues(parser, JsonNode.class);
            int i = 0;
            while (it.hasNext()) {
                JsonNode node = it.next();
                if (node != null && !node.isNull() && !node.isEmpty()) {
                    documents.add(new Document(file, i, node));
                }
                i++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return documents;
    }

    /** Every document of every manifest file. */
    static List<Document> all() {
        return manifestFiles().stream().flatMap(f -> documents(f).stream()).toList();
    }

    /** The documents the base kustomization deploys (not the overlays' additions and patches). */
    static List<Document> base() {
        return all().stream().filter(d -> d.file().startsWith(BASE)).toList();
    }

    static <T extends HasMetadata> T parse(Document document, Class<T> type) {
        try {
            return strict(document.tree(), type);
        } catch (JacksonException e) {
            throw new AssertionError(
                    document + " does not parse as " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The document as its typed model, or, for a kind of another project's CRD, checked against
     * that CRD's schema ({@link CrdSchemas}) and read as a generic resource.
     */
    static HasMetadata parse(Document document) {
        if (CrdSchemas.knows(document.kindKey())) {
            List<String> problems = CrdSchemas.problems(document.kindKey(), document.tree());
            if (!problems.isEmpty()) {
                throw new AssertionError(document + " breaks the schema of its CRD: " + problems);
            }
            // Checked already: read with its fields kept, as the generic model keeps them.
            return LENIENT.readValue(document.tree().toString(), GenericKubernetesResource.class);
        }
        Class<? extends HasMetadata> type = MODELS.get(document.kindKey());
        if (type == null) {
            throw new AssertionError(document + ": no model known for " + document.kindKey());
        }
        return parse(document, type);
    }

    /** Whether objects of the document's kind live in a namespace. */
    static boolean namespaced(Document document) {
        if (CrdSchemas.knows(document.kindKey())) {
            return CrdSchemas.namespaced(document.kindKey());
        }
        Class<? extends HasMetadata> type = MODELS.get(document.kindKey());
        return type != null && Namespaced.class.isAssignableFrom(type);
    }

    /** Every kind a manifest may have: those with a model and those with a vendored CRD. */
    static boolean known(String kindKey) {
        return MODELS.containsKey(kindKey) || CrdSchemas.knows(kindKey);
    }

    /** The base's objects of {@code type}. */
    static <T extends HasMetadata> List<T> ofType(Class<T> type) {
        return base().stream()
                .filter(d -> type.equals(MODELS.get(d.kindKey())))
                .map(d -> parse(d, type))
                .toList();
    }

    static <T extends HasMetadata> T one(Class<T> type, String name) {
        Optional<T> found = ofType(type).stream()
                .filter(o -> o.getMetadata().getName().equals(name))
                .findFirst();
        return found.orElseThrow(
                () -> new AssertionError("no " + type.getSimpleName() + " " + name + " in deploy/base"));
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
