package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.caseassignments.testkit.architecture.LockingSql;
import org.junit.jupiter.api.Test;

/**
 * The lock order holds only if every writer is one {@link LockOrder} names. Outside this module no class may issue
 * SQL that locks or writes a table the order covers (the rule {@link LockingSql} of each module's
 * {@code ArchitectureTests}); inside it, these tests read the SQL in the string constants of store's compiled classes
 * and find each such lock or write: a class that is not a named writer fails the build until it is added, with its
 * steps, to {@link LockOrder#WRITERS}, and a named writer that no longer exists or no longer locks or writes fails it
 * too.
 */
class LockOrderTests {

    @Test
    void shouldFindLocksAndWritesOfTheOrderedTablesOnlyInTheWritersTheLockOrderNames() {
        // Given store's compiled classes and the writers the order names
        Set<String> named = LockOrder.WRITERS.stream().map(LockOrder.Writer::className).collect(Collectors.toSet());

        // When their locking or writing SQL is looked for
        Map<String, List<String>> found = lockingSqlOfStore();

        // Then only named writers issue it
        assertThat(found.keySet())
                .as("store classes whose SQL locks or writes a table of the lock order; add a new writer to "
                        + "LockOrder.WRITERS, with its place in the order, and to docs/architecture.md, Locks — found: "
                        + found)
                .isSubsetOf(named);
    }

    @Test
    void shouldNameOnlyStoreClassesThatStillLockOrWrite() {
        // Given the locking or writing SQL of store's compiled classes
        Map<String, List<String>> found = lockingSqlOfStore();

        // When the writers the order names are looked up, Then each is one of them
        assertThat(LockOrder.WRITERS).extracting(LockOrder.Writer::className)
                .as("LockOrder.WRITERS names a class that is not store's or has no locking SQL (renamed or gone?)")
                .allSatisfy(name -> assertThat(found).containsKey(name));
    }

    @Test
    void shouldFindATryOfTheCaseQueueButNotOfTheOtherNamespacesWhenRenderedAsStoreRendersThem() {
        // Given a try of each namespace's lock, rendered as store renders its keys
        String queue = "SELECT pg_try_advisory_xact_lock_shared(" + AdvisoryLocks.CASE_QUEUE.on("'c'") + ")";
        String key = "SELECT pg_try_advisory_xact_lock(" + AdvisoryLocks.IDEMPOTENCY_KEY.on("'k'") + ")";
        String rebuild = "SELECT pg_try_advisory_lock(" + AdvisoryLocks.REBUILD.on("'r'") + ")";

        // When the rule's SQL is looked for in them
        // Then only the case's queue is a lock of the order: the rule knows store's namespace
        assertThat(LockingSql.CASE_QUEUE_NAMESPACE).isEqualTo(AdvisoryLocks.CASE_QUEUE.namespace());
        assertThat(LockingSql.in(queue)).hasSize(1);
        assertThat(LockingSql.in(key)).isEmpty();
        assertThat(LockingSql.in(rebuild)).isEmpty();
    }

    /** Per top-level class of store's main code (a nested class's SQL counts as its own), what it locks or writes. */
    private static Map<String, List<String>> lockingSqlOfStore() {
        Map<String, List<String>> found = new TreeMap<>();
        for (JavaClass type : new ClassFileImporter().withImportOption(new ImportOption.DoNotIncludeTests())
                .importPackages("org.caseassignments.store")) {
            List<String> sql = LockingSql.of(type);
            if (!sql.isEmpty()) {
                found.computeIfAbsent(type.getName().split("\\$")[0], name -> new ArrayList<>()).addAll(sql);
            }
        }
        assertThat(found).as("no locking SQL found at all in store's compiled classes").isNotEmpty();
        return found;
    }
}
