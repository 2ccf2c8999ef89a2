package io.mcdhooks.hooks;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The SDK and the runner are small pure cores (the gate check and its follow-ups, the policy, the
 * offset rule, the configuration, the selector, the exec protocol, the module catalog) with I/O
 * adapters around them. Only the adapters below may touch Vert.x, the Kafka client or the
 * Kubernetes client; a new class is pure unless it joins this list, with its reason.
 */
class LayeringTest {

    private static final List<String> IO_PACKAGES =
            List.of("io.vertx", "org.apache.kafka", "io.fabric8.kubernetes.client");

    private static final Map<String, String> ADAPTERS = Map.ofEntries(
            Map.entry("io.mcdhooks.hooks.api.CheckContext", "lends the runner's Vert.x to a hook"),
            Map.entry("io.mcdhooks.hooks.runner.HookRunnerVerticle", "the runner's lifecycle, timers and records"),
            Map.entry("io.mcdhooks.hooks.runner.GateRequestLog", "the consumer as the verticle sees it"),
            Map.entry("io.mcdhooks.hooks.runner.KafkaGateRequestLog", "the Kafka consumer"),
            Map.entry("io.mcdhooks.hooks.runner.RecordPublisher", "the producer as the verticle sees it"),
            Map.entry("io.mcdhooks.hooks.runner.KafkaRecordPublisher", "the Kafka producer"),
            Map.entry("io.mcdhooks.hooks.runner.RunnerEndpoints", "the HTTP server of health and metrics"),
            Map.entry("io.mcdhooks.hooks.runner.BuiltInHooks", "builds the built-in hooks on the runner's Vert.x"),
            Map.entry("io.mcdhooks.hooks.runner.Main", "the process"),
            Map.entry("io.mcdhooks.hooks.http.HttpHook", "an HTTP client"),
            Map.entry("io.mcdhooks.hooks.http.LimitedBody", "the HTTP client's body reader"),
            Map.entry("io.mcdhooks.hooks.examples.KernelModuleReadinessHook", "fetches its catalog over HTTP"),
            Map.entry("io.mcdhooks.hooks.examples.NodeSelfCheckHook", "probes the node over HTTP"));

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.mcdhooks.hooks");

    @Test
    void pureClassesImportNothingFromVertxKafkaOrTheKubernetesClient() {
        noClasses()
                .that(DescribedPredicate.not(
                        DescribedPredicate.describe("I/O adapters", c -> ADAPTERS.containsKey(topLevelName(c)))))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(IO_PACKAGES.stream().map(p -> p + "..").toArray(String[]::new))
                .check(CLASSES);
    }

    @Test
    void everyListedAdapterExistsAndDoesIo() {
        assertThat(ADAPTERS.keySet()).allSatisfy(name -> {
            assertThat(CLASSES.contain(name)).as(name + " exists").isTrue();
            assertThat(CLASSES.stream()
                            .filter(c -> topLevelName(c).equals(name))
                            .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
                            .anyMatch(d -> isIo(d.getTargetClass())))
                    .as(name + " does I/O; if it no longer does, it is pure: take it off the list")
                    .isTrue();
        });
    }

    private static boolean isIo(JavaClass target) {
        return IO_PACKAGES.stream()
                .anyMatch(p -> target.getPackageName().equals(p)
                        || target.getPackageName().startsWith(p + "."));
    }

    /** The class itself, or the class its nested class or lambda sits in. */
    private static String topLevelName(JavaClass c) {
        int nested = c.getName().indexOf('$');
        return nested < 0 ? c.getName() : c.getName().substring(0, nested);
    }
}
