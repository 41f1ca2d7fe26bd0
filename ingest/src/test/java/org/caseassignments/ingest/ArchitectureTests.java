package org.caseassignments.ingest;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Fitness rules of ingest: no package cycles (decision 53). */
@AnalyzeClasses(packages = "org.caseassignments.ingest", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

    /** Every package, the root and each nested one, is a slice of its own. */
    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("org.caseassignments.(**)")
            .should().beFreeOfCycles();
}
