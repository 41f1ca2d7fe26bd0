package org.caseassignments.store;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import org.apache.kafka.common.header.Headers;
import org.junit.jupiter.api.Test;

/** Fitness rules of the store: the write leg takes updates, never records; no package cycles (decision 53). */
@AnalyzeClasses(packages = "org.caseassignments.store", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

    /**
     * The store owns the write leg whole (the rule, the batch writer, the SQL and the lock protocol) and is handed
     * updates already decoded: Kafka and Avro stay in ingest and the projector, which frame what the store refuses.
     */
    @ArchTest
    static final ArchRule storeDependsOnNoKafkaNorAvroType = noClasses()
            .that().resideInAPackage("org.caseassignments.store..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka..", "org.apache.avro..")
            .because("the write leg takes updates, never records: what knows Kafka or Avro is ingest's and the "
                    + "projector's");

    @Test
    void shouldCatchAStoreClassThatUsesAKafkaType() {
        var classes = new ClassFileImporter().importClasses(HoldingARecordsHeaders.class);

        assertThat(storeDependsOnNoKafkaNorAvroType.evaluate(classes).getFailureReport().getDetails())
                .singleElement().asString().contains(HoldingARecordsHeaders.class.getName());
    }

    static final class HoldingARecordsHeaders {
        Headers headers;
    }

    /** Every package, the root and each nested one, is a slice of its own. */
    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("org.caseassignments.(**)")
            .should().beFreeOfCycles();
}
