package org.caseassignments.testkit.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import java.nio.file.Files;
import java.nio.file.Path;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;

/**
 * The rules that keep {@code store}'s packages store's: {@link LockingSql} exempts a class by its package, so no other
 * module may declare one there; the operations only the backfill runs (the rebuild's tables, the history purge),
 * public since they moved into store, are called by no service; and the case queue's lock is reached only through
 * store, since {@link LockingSql} sees its namespace only as a number typed into the SQL. Evaluated over {@link #thisModule()}, the compiled
 * main classes of the module whose tests run, whatever their packages.
 */
public final class StoreBoundary {

    private static final String STORE = "org.caseassignments.store..";

    private StoreBoundary() {
    }

    /**
     * The compiled main classes of the module whose tests run (its {@code target/classes}, from the module's directory,
     * where the tests run), every package of them: a class declared in another module's package is among them.
     */
    public static JavaClasses thisModule() {
        Path classes = Path.of("target", "classes");
        if (!Files.isDirectory(classes)) {
            throw new IllegalStateException("no compiled classes at " + classes.toAbsolutePath()
                    + "; the tests run from their module's directory");
        }
        return new ClassFileImporter().importPath(classes);
    }

    /** Checks {@link #noClassResidesInStore()} over {@link #thisModule()}: what the backfill and {@code local} hold. */
    public static void checkThisModule() {
        noClassResidesInStore().check(thisModule());
    }

    /**
     * Checks the three rules over {@link #thisModule()}: what a service holds (the API, the projector, ingest), which
     * runs neither the rebuild nor the history purge, and takes the case queue's lock only through store.
     */
    public static void checkThisService() {
        CompositeArchRule.of(noClassResidesInStore()).and(noClassUsesTheBackfillsOperations())
                .and(noClassReachesTheCaseQueueLock()).check(thisModule());
    }

    /** No class of the module resides in {@code store}'s packages, where {@link LockingSql}'s rule does not look. */
    public static ArchRule noClassResidesInStore() {
        return noClasses().should().resideInAPackage(STORE)
                .because("store's packages are store's own: the rule that only store locks or writes the ordered "
                        + "tables (LockingSql) exempts them by package");
    }

    /**
     * No class of a service depends on the operations only the backfill runs: the rebuild's tables
     * ({@code store.rebuild}) and the history purge ({@code store.history}).
     */
    public static ArchRule noClassUsesTheBackfillsOperations() {
        return noClasses().should().dependOnClassesThat()
                .resideInAnyPackage("org.caseassignments.store.rebuild..", "org.caseassignments.store.history..")
                .because("the rebuild's swap and the history purge are the backfill's commands; a service that ran "
                        + "them would take an ACCESS EXCLUSIVE lock or delete history behind the projector");
    }

    /**
     * No class outside {@code store} reaches the case queue's lock ({@code AdvisoryLocks.CASE_QUEUE},
     * {@code LockOrder.queueShared}, {@code LockOrder.queueKey}): {@link LockingSql} sees a lock of that namespace only
     * where the SQL types its number in, not where {@code %s} is filled from {@code AdvisoryLocks.CASE_QUEUE.on(...)}.
     * Named by text: the testkit does not depend on store.
     */
    public static ArchRule noClassReachesTheCaseQueueLock() {
        return noClasses().that().resideOutsideOfPackage(STORE)
                .should().accessField("org.caseassignments.store.AdvisoryLocks", "CASE_QUEUE")
                .orShould().callMethod("org.caseassignments.store.LockOrder", "queueShared", "java.lang.String")
                .orShould().callMethod("org.caseassignments.store.LockOrder", "queueKey", "java.lang.String")
                .because("the case queue's lock is store's (LockOrder, CaseHold, CaseQueue): a lock on it assembled "
                        + "outside store is one the rule that only store locks (LockingSql) cannot see");
    }
}
