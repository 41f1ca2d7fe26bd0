package org.caseassignments.projector;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import org.apache.kafka.streams.processor.internals.ProcessorRecordContext;
import org.caseassignments.projector.stream.BeforeCommitHook;
import org.caseassignments.testkit.architecture.StoreBoundary;
import org.junit.jupiter.api.Test;
import org.caseassignments.testkit.architecture.LockingSql;

/** Fitness rules of the projector and the modules it runs (ingest, store, schemas). */
@AnalyzeClasses(packages = "org.caseassignments", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

    /**
     * Kafka Streams' internals may change in any release: only {@link BeforeCommitHook} uses them, so an upgrade
     * has one class to check and the tests its comment names to run.
     */
    @ArchTest
    static final ArchRule onlyTheBeforeCommitHookUsesKafkaStreamsInternals = noClasses()
            .that().doNotBelongToAnyOf(BeforeCommitHook.class)
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka.streams..internals..")
            .because("the hook that runs before a task commits, and forwarding from it, are the one adapter to them");

    /**
     * Only store locks or writes the tables of the lock order: this module calls its operations (LockingSql, testkit,
     * reads the SQL in each compiled class's string constants).
     */
    @ArchTest
    static final ArchRule onlyStoreLocksOrWritesTheOrderedTables = LockingSql.onlyStoreLocksOrWritesTheOrderedTables();

    /** No package cycles (decision 53): every package, the root and each nested one, is a slice of its own. */
    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("org.caseassignments.(**)")
            .should().beFreeOfCycles();

    @Test
    void shouldCatchAClassOutsideTheHookThatUsesKafkaStreamsInternals() {
        var classes = new ClassFileImporter().importClasses(ReachingIntoInternals.class, BeforeCommitHook.class,
                BeforeCommitHook.Forwarder.class);

        assertThat(onlyTheBeforeCommitHookUsesKafkaStreamsInternals.evaluate(classes).getFailureReport().getDetails())
                .singleElement().asString().contains(ReachingIntoInternals.class.getName());
    }

    static final class ReachingIntoInternals {
        ProcessorRecordContext context;
    }

    /** No class is in store's packages, which that rule exempts, nor calls the backfill's rebuild or history purge. */
    @Test
    void shouldKeepOutOfStoresPackagesAndTheBackfillsOperations() {
        // Given this module's compiled classes, When StoreBoundary's rules are checked (testkit), Then they hold
        StoreBoundary.checkThisService();
    }
}
