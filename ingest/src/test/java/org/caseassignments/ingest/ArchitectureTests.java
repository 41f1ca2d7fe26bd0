package org.caseassignments.ingest;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import org.caseassignments.testkit.architecture.LockingSql;
import org.caseassignments.testkit.architecture.StoreBoundary;
import org.junit.jupiter.api.Test;

/** Fitness rules of ingest: only store locks or writes the ordered tables; no package cycles (decision 53). */
@AnalyzeClasses(packages = "org.caseassignments.ingest", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

    /**
     * Only store locks or writes the tables of the lock order: this module calls its operations (LockingSql, testkit,
     * reads the SQL in each compiled class's string constants).
     */
    @ArchTest
    static final ArchRule onlyStoreLocksOrWritesTheOrderedTables = LockingSql.onlyStoreLocksOrWritesTheOrderedTables();

    /** Every package, the root and each nested one, is a slice of its own. */
    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("org.caseassignments.(**)")
            .should().beFreeOfCycles();

    /** No class is in store's packages, which that rule exempts, nor calls the backfill's rebuild or history purge. */
    @Test
    void shouldKeepOutOfStoresPackagesAndTheBackfillsOperations() {
        // Given this module's compiled classes, When StoreBoundary's rules are checked (testkit), Then they hold
        StoreBoundary.checkThisService();
    }
}
