package org.caseassignments.testkit.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import org.caseassignments.lockingsqlfixture.QuietReader;
import org.caseassignments.lockingsqlfixture.RogueWriter;
import org.caseassignments.store.lockingsqlfixture.StoreWriter;
import org.junit.jupiter.api.Test;

class LockingSqlTests {

    @Test
    void shouldCatchAClassOutsideStoreWhoseConstantsLockOrWriteAnOrderedTable() {
        // Given a compiled class outside store with a text block, a rename, a template and a concatenation of SQL
        JavaClasses classes = new ClassFileImporter().importClasses(RogueWriter.class, QuietReader.class);

        // When the rule is evaluated over it and a class without such SQL
        EvaluationResult result = LockingSql.onlyStoreLocksOrWritesTheOrderedTables().evaluate(classes);

        // Then it fails for the writer alone, naming what it found, in the order of its constant pool
        assertThat(result.getFailureReport().getDetails()).singleElement().asString()
                .contains(RogueWriter.class.getName())
                .doesNotContain(QuietReader.class.getName());
        assertThat(LockingSql.of(classes.get(RogueWriter.class))).containsExactlyInAnyOrder(
                "UPDATE placements", "ALTER TABLE case_assignments_rebuild RENAME TO case_assignments",
                "DELETE FROM %s", "FOR NO KEY UPDATE");
    }

    @Test
    void shouldLetReadsProseAShadowsTableAndAnnotationTextBe() {
        // Given a class whose constants read, name a lock in prose, write the shadow, and whose annotation holds SQL
        JavaClasses classes = new ClassFileImporter().importClasses(QuietReader.class);

        // When its SQL is looked for
        // Then none is found
        assertThat(LockingSql.of(classes.get(QuietReader.class))).isEmpty();
        assertThat(classes().should(LockingSql.issueNoSqlThatLocksOrWritesTheOrderedTables()).evaluate(classes)
                .hasViolation()).isFalse();
    }

    @Test
    void shouldLetStoreLockAndWriteTheOrderedTables() {
        // Given a class in store whose constant writes placements
        JavaClasses classes = new ClassFileImporter().importClasses(StoreWriter.class, QuietReader.class);

        // When the rule is evaluated
        EvaluationResult result = LockingSql.onlyStoreLocksOrWritesTheOrderedTables().evaluate(classes);

        // Then it passes, though the SQL is there
        assertThat(result.hasViolation()).isFalse();
        assertThat(LockingSql.of(classes.get(StoreWriter.class))).containsExactly("UPDATE placements");
    }

    @Test
    void shouldFindEachKindOfLockAndWriteOfTheOrderedTables() {
        // Given SQL of each kind the order covers, When it is looked for, Then each is found
        assertThat(LockingSql.in("SELECT 1 FROM kinship_options WHERE id = ? FOR NO KEY UPDATE"))
                .containsExactly("FOR NO KEY UPDATE");
        assertThat(LockingSql.in("SELECT 1 FROM case_assignments c WHERE c.case_id = ? FOR SHARE OF c"))
                .containsExactly("FOR SHARE");
        assertThat(LockingSql.in("SELECT * FROM (SELECT 1 FROM foster_homes FOR UPDATE SKIP LOCKED) h"))
                .containsExactly("FOR UPDATE");
        assertThat(LockingSql.in("insert into case_assignment_history (case_id) values (?)"))
                .containsExactly("insert into case_assignment_history");
        assertThat(LockingSql.in("DELETE FROM case_assignment_history h WHERE h.case_id = ANY (?)"))
                .containsExactly("DELETE FROM case_assignment_history");
        assertThat(LockingSql.in("TRUNCATE TABLE placements, kinship_options")).containsExactly("TRUNCATE TABLE placements");
        assertThat(LockingSql.in("TRUNCATE foster_homes")).containsExactly("TRUNCATE foster_homes");
        assertThat(LockingSql.in("ALTER TABLE case_assignments RENAME TO case_assignments_previous"))
                .containsExactly("ALTER TABLE case_assignments");
        assertThat(LockingSql.in("ALTER TABLE case_assignments_previous RENAME TO case_assignments"))
                .containsExactly("ALTER TABLE case_assignments_previous RENAME TO case_assignments");
        assertThat(LockingSql.in("LOCK TABLE case_assignments IN ACCESS EXCLUSIVE MODE"))
                .containsExactly("LOCK TABLE case_assignments");
        assertThat(LockingSql.in("LOCK TABLE \u0001 IN ACCESS EXCLUSIVE MODE")).containsExactly("LOCK TABLE \u0001");
        assertThat(LockingSql.in("SELECT pg_advisory_xact_lock_shared(1, 2)")).containsExactly("pg_advisory_xact_lock");
        assertThat(LockingSql.in("UPDATE %2$s SET x = 1")).containsExactly("UPDATE %2$s");
    }

    @Test
    void shouldFindNothingInReadsProseAndOtherTables() {
        // Given SQL that reads, prose that names a lock, and writes of tables the order does not cover
        // When it is looked for, Then nothing is found
        assertThat(LockingSql.in("SELECT 1 FROM placements WHERE id = ?")).isEmpty();
        assertThat(LockingSql.in("the case rows are held FOR SHARE first, then")).isEmpty();
        assertThat(LockingSql.in("INSERT INTO case_assignments_previous AS p SELECT 1")).isEmpty();
        assertThat(LockingSql.in("UPDATE case_assignments_rebuild s SET jurisdiction = NULL")).isEmpty();
        assertThat(LockingSql.in("DELETE FROM idempotency_keys WHERE created_at < ?")).isEmpty();
        assertThat(LockingSql.in("ALTER INDEX case_assignments_pkey RENAME TO case_assignments_previous_pkey")).isEmpty();
        assertThat(LockingSql.in("SELECT pg_advisory_unlock_all()")).isEmpty();
        // a claim that never waits (an Idempotency-Key's, the one rebuild's) is not a lock of the order
        assertThat(LockingSql.in("SELECT pg_try_advisory_xact_lock(1, 2)")).isEmpty();
    }
}
