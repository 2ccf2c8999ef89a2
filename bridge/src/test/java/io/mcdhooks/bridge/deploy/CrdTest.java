package io.mcdhooks.bridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.mcdhooks.bridge.hooks.UpdateHook;
import io.mcdhooks.bridge.hooks.UpdateHookParser;
import io.mcdhooks.bridge.hooks.UpdateHookSpec;
import io.mcdhooks.bridge.hooks.UpdateHookStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The deployed UpdateHook CRD is the generated one, and agrees with the Java model. */
class CrdTest {

    private static final String FILE = "updatehooks.mcdhooks.io-v1.yml";
    /** Where fabric8's crd-generator-maven-plugin writes it (process-classes, before tests). */
    private static final Path GENERATED = Path.of("target", "classes", "META-INF", "fabric8", FILE);

    private static final Path DEPLOYED = Manifests.BASE.resolve("crds").resolve(FILE);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void deployedCrdIsExactlyWhatTheBuildGenerates() throws Exception {
        assertThat(GENERATED).as("the build generates the CRD").exists();
        assertThat(Files.readString(DEPLOYED))
                .as(
                        "deploy/base/crds/%s is a copy of bridge/%s; copy it again after changing the model",
                        FILE, GENERATED)
                .isEqualTo(Files.readString(GENERATED));
    }

    @Test
    void crdNamesTheModelsGroupVersionKindAndScope() {
        CustomResourceDefinition crd = crd();
        assertThat(crd.getMetadata().getName()).isEqualTo("updatehooks." + UpdateHook.GROUP);
        assertThat(crd.getSpec().getGroup()).isEqualTo(UpdateHook.GROUP);
        assertThat(crd.getSpec().getNames().getKind()).isEqualTo("UpdateHook");
        assertThat(crd.getSpec().getNames().getPlural()).isEqualTo("updatehooks");
        assertThat(crd.getSpec().getScope())
                .isEqualTo(Namespaced.class.isAssignableFrom(UpdateHook.class) ? "Namespaced" : "Cluster");
        assertThat(crd.getSpec().getVersions())
                .extracting(CustomResourceDefinitionVersion::getName)
                .containsExactly(UpdateHook.VERSION);
        CustomResourceDefinitionVersion version = version();
        assertThat(version.getServed()).isTrue();
        assertThat(version.getStorage()).isTrue();
        assertThat(version.getSubresources().getStatus())
                .as("status is a subresource: the gatekeeper patches it")
                .isNotNull();
    }

    @Test
    void specAndStatusPropertiesAreTheModelsFields() {
        Map<String, JSONSchemaProps> top =
                version().getSchema().getOpenAPIV3Schema().getProperties();
        assertThat(top.get("spec").getProperties().keySet()).isEqualTo(properties(UpdateHookSpec.class));
        assertThat(top.get("status").getProperties().keySet()).isEqualTo(properties(UpdateHookStatus.class));
        assertThat(top.get("status")
                        .getProperties()
                        .get("lastVerdicts")
                        .getItems()
                        .getSchema()
                        .getProperties()
                        .keySet())
                .isEqualTo(properties(UpdateHookStatus.LastVerdict.class));
        assertThat(top.get("spec").getRequired()).containsExactly("stages");
    }

    @Test
    void enumerationsAndDefaultsAreTheModels() {
        Map<String, JSONSchemaProps> spec = version()
                .getSchema()
                .getOpenAPIV3Schema()
                .getProperties()
                .get("spec")
                .getProperties();
        assertThat(values(spec.get("stages").getItems().getSchema())).isEqualTo(wire(UpdateHookSpec.StageName.class));
        assertThat(values(spec.get("failurePolicy"))).isEqualTo(wire(UpdateHookSpec.FailurePolicy.class));
        assertThat(values(spec.get("mode"))).isEqualTo(wire(UpdateHookSpec.Mode.class));
        assertThat(values(spec.get("postUpdateFailureAction")))
                .isEqualTo(wire(UpdateHookSpec.PostUpdateFailureAction.class));
        UpdateHookSpec defaults = new UpdateHookSpec();
        assertThat(spec.get("timeoutSeconds").getDefault().asInt()).isEqualTo(defaults.getTimeoutSeconds());
        assertThat(spec.get("maxExtensionSeconds").getDefault().asInt()).isEqualTo(defaults.getMaxExtensionSeconds());
        assertThat(spec.get("failurePolicy").getDefault().asString())
                .isEqualTo(defaults.getFailurePolicy().name());
        assertThat(spec.get("mode").getDefault().asString())
                .isEqualTo(defaults.getMode().name());
        assertThat(spec.get("postUpdateFailureAction").getDefault().asString())
                .isEqualTo(defaults.getPostUpdateFailureAction().name());
    }

    @Test
    void everyDeployedUpdateHookIsAcceptedByTheGatekeeperAndTheCrd() {
        List<UpdateHook> hooks = Manifests.ofType(UpdateHook.class);
        assertThat(hooks).isNotEmpty();
        Map<String, JSONSchemaProps> spec = version()
                .getSchema()
                .getOpenAPIV3Schema()
                .getProperties()
                .get("spec")
                .getProperties();
        for (UpdateHook hook : hooks) {
            UpdateHookParser.parse(hook); // throws, naming the problem, if the gatekeeper would ignore it
            assertThat(hook.getSpec().getTimeoutSeconds())
                    .as(hook.getMetadata().getName())
                    .isBetween(
                            spec.get("timeoutSeconds").getMinimum().intValue(),
                            spec.get("timeoutSeconds").getMaximum().intValue());
            if (hook.getSpec().getStages().contains(UpdateHookSpec.StageName.PRE_UPDATE)) {
                // A pre-update gate holds a drain; the MCD degrades the node after one hour of it.
                assertThat(hook.getSpec().getTimeoutSeconds() + hook.getSpec().getMaxExtensionSeconds())
                        .as(
                                "%s holds drains: its deadline must stay well under the MCD's hour",
                                hook.getMetadata().getName())
                        .isLessThanOrEqualTo(45 * 60);
            }
        }
    }

    static CustomResourceDefinition crd() {
        return Manifests.one(CustomResourceDefinition.class, "updatehooks." + UpdateHook.GROUP);
    }

    private static CustomResourceDefinitionVersion version() {
        return crd().getSpec().getVersions().get(0);
    }

    private static Set<String> properties(Class<?> type) {
        JavaType javaType = JSON.constructType(type);
        return JSON.getSerializationConfig().introspect(javaType).findProperties().stream()
                .map(BeanPropertyDefinition::getName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> values(JSONSchemaProps props) {
        return props.getEnum().stream().map(n -> n.asString()).collect(Collectors.toCollection(TreeSet::new));
    }

    private static <E extends Enum<E>> Set<String> wire(Class<E> type) {
        return Arrays.stream(type.getEnumConstants())
                .map(e -> {
                    try {
                        JsonProperty p = type.getField(e.name()).getAnnotation(JsonProperty.class);
                        return p == null ? e.name() : p.value();
                    } catch (NoSuchFieldException x) {
                        throw new IllegalStateException(x);
                    }
                })
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
