package org.caseassignments.testkit.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import org.caseassignments.lockingsqlfixture.QueueLocker;
import org.caseassignments.lockingsqlfixture.QuietReader;
import org.caseassignments.lockingsqlfixture.SwappingService;
import org.caseassignments.store.lockingsqlfixture.StoreWriter;
import org.junit.jupiter.api.Test;

class StoreBoundaryTests {

    @Test
    void shouldRefuseAClassOfAnotherModuleWhenItResidesInStoresPackages() {
        // Given a class declared in a package of store, among a module's others
        JavaClasses classes = new ClassFileImporter().importClasses(StoreWriter.class, QuietReader.class);

        // When the rule is evaluated
        EvaluationResult result = StoreBoundary.noClassResidesInStore().evaluate(classes);

        // Then it fails for that class alone
        assertThat(result.getFailureReport().getDetails()).singleElement().asString()
                .contains(StoreWriter.class.getName());
    }

    @Test
    void shouldRefuseAServiceClassWhenItDependsOnTheRebuildOrTheHistoryPurge() {
        // Given a class that calls an operation of store.rebuild, and one that does not
        JavaClasses classes = new ClassFileImporter().importClasses(SwappingService.class, QuietReader.class);

        // When the rule is evaluated
        EvaluationResult result = StoreBoundary.noClassUsesTheBackfillsOperations().evaluate(classes);

        // Then it fails for the caller alone
        assertThat(result.getFailureReport().getDetails()).isNotEmpty()
                .allSatisfy(detail -> assertThat(detail).contains(SwappingService.class.getName()));
    }

    @Test
    void shouldRefuseAServiceClassWhenItReachesTheCaseQueuesLockOutsideStore() {
        // Given a class that fills a lock from the case queue's namespace, and one that does not
        JavaClasses classes = new ClassFileImporter().importClasses(QueueLocker.class, QuietReader.class);

        // When the rule is evaluated
        EvaluationResult result = StoreBoundary.noClassReachesTheCaseQueueLock().evaluate(classes);

        // Then it fails for the locker alone
        assertThat(result.getFailureReport().getDetails()).isNotEmpty()
                .allSatisfy(detail -> assertThat(detail).contains(QueueLocker.class.getName()));
    }

    @Test
    void shouldImportTheCompiledMainClassesOfTheModuleWhoseTestsRun() {
        // Given the testkit's own tests, run from its directory
        // When this module's classes are imported
        JavaClasses classes = StoreBoundary.thisModule();

        // Then they are its main classes, not its tests
        assertThat(classes.contain(StoreBoundary.class)).isTrue();
        assertThat(classes.contain(StoreBoundaryTests.class)).isFalse();
    }
}
