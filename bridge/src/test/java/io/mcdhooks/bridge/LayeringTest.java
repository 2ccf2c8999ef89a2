package io.mcdhooks.bridge;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pure cores stay pure: the MCO views ({@code mco}), the transition classifiers
 * ({@code watch}) and the gatekeeper's core ({@code gate}: gate machine, gatekeeper, lever plan,
 * verdict screen, why-held line) and the rollback's plan ({@code rollback}) import nothing from Vert.x, the fabric8 client or Kafka. fabric8's
 * model types ({@code io.fabric8.kubernetes.api.model}) are data, and allowed.
 */
class LayeringTest {

    private static final String[] PURE = {
        "io.mcdhooks.bridge.mco", "io.mcdhooks.bridge.watch", "io.mcdhooks.bridge.gate", "io.mcdhooks.bridge.rollback"
    };

    private static JavaClasses bridge;

    @BeforeAll
    static void importBridge() {
        bridge = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.mcdhooks.bridge");
    }

    @Test
    void thePureCoresImportNeitherVertxNorTheKubernetesClientNorKafka() {
        pure(PURE).check(bridge);
    }

    @Test
    void theRuleCatchesAnAdapterThatDoesWhatTheCoresMustNot() {
        // The gatekeeper's adapters talk to Kubernetes and Kafka: held to the same rule, they fail it
        EvaluationResult adapters = pure("io.mcdhooks.bridge.gatekeeper").evaluate(bridge);

        assertThat(adapters.hasViolation()).isTrue();
        assertThat(adapters.getFailureReport().getDetails())
                .anyMatch(d -> d.contains("io.fabric8.kubernetes.client"))
                .anyMatch(d -> d.contains("io.vertx"))
                .anyMatch(d -> d.contains("org.apache.kafka"));
    }

    private static ArchRule pure(String... packages) {
        return noClasses()
                .that()
                .resideInAnyPackage(packages)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.vertx..", "io.fabric8.kubernetes.client..", "org.apache.kafka..")
                .because("pure cores are decided by their inputs alone, and tested without a broker or an"
                        + " API server; the adapters around them do the I/O");
    }
}
