package io.mcdhooks.schemas;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The wire contract is pure: the records, the codec, the signatures, the settings parser and the MCO's rules import
 * nothing from Vert.x, the Kafka client or the Kubernetes client. Kafka is met only in
 * {@code io.mcdhooks.schemas.kafka}, whose helpers put messages on records and read them back.
 */
class LayeringTest {

    private static final String[] PURE = {
        "io.mcdhooks.schemas",
        "io.mcdhooks.schemas.codec",
        "io.mcdhooks.schemas.sign",
        "io.mcdhooks.schemas.settings",
        "io.mcdhooks.mco.."
    };

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.mcdhooks.schemas", "io.mcdhooks.mco");

    @Test
    void theContractTheCodecTheSignaturesAndTheSettingsImportNoClientLibrary() {
        noClasses()
                .that()
                .resideInAnyPackage(PURE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.vertx..", "org.apache.kafka..", "io.fabric8.kubernetes.client..")
                .check(CLASSES);
    }

    @Test
    void theKafkaSettingsAndTopicNamesArePureToo() {
        classes()
                .that()
                .haveSimpleNameEndingWith("Settings")
                .or()
                .haveSimpleName("Topics")
                .should()
                .onlyDependOnClassesThat()
                .resideOutsideOfPackages("io.vertx..", "org.apache.kafka..", "io.fabric8.kubernetes.client..")
                .check(CLASSES);
    }
}
