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

    @Test
    void shouldFindATableWhenItIsQualifiedOrQuoted() {
        // Given the ordered tables named with a schema, in double quotes, or both
        // When they are written, Then each is found
        assertThat(LockingSql.in("UPDATE public.placements SET status = ?")).containsExactly("UPDATE public.placements");
        assertThat(LockingSql.in("INSERT INTO \"kinship_options\" (id) VALUES (?)"))
                .containsExactly("INSERT INTO \"kinship_options\"");
        assertThat(LockingSql.in("DELETE FROM \"public\".\"foster_homes\" WHERE id = ?"))
                .containsExactly("DELETE FROM \"public\".\"foster_homes\"");
        assertThat(LockingSql.in("UPDATE \"case_assignments\" c SET jurisdiction = ?"))
                .containsExactly("UPDATE \"case_assignments\"");
    }

    @Test
    void shouldFindMergeCopyDropAndTruncateOfTheOrderedTables() {
        // Given the other statements that write or remove a table
        // When they are looked for, Then each is found
        assertThat(LockingSql.in("MERGE INTO case_assignments t USING incoming s ON t.case_id = s.case_id"))
                .containsExactly("MERGE INTO case_assignments");
        assertThat(LockingSql.in("COPY placements FROM STDIN")).containsExactly("COPY placements");
        assertThat(LockingSql.in("COPY public.kinship_options (id, case_id) FROM STDIN WITH (FORMAT csv)"))
                .containsExactly("COPY public.kinship_options");
        assertThat(LockingSql.in("DROP TABLE IF EXISTS case_assignment_history")).containsExactly(
                "DROP TABLE IF EXISTS case_assignment_history");
        assertThat(LockingSql.in("DROP TABLE scratch, foster_homes")).containsExactly("DROP TABLE scratch, foster_homes");
        assertThat(LockingSql.in("TRUNCATE scratch, public.placements")).containsExactly("TRUNCATE scratch, public.placements");
    }

    @Test
    void shouldFindARowLockWhenALimitOrAPlaceholderFollowsIt() {
        // Given row locks of an ordered table followed by a limit, an offset, a fetch, or a piece still to come
        // When they are looked for, Then each is found
        assertThat(LockingSql.in("SELECT 1 FROM placements WHERE case_id = ? FOR UPDATE LIMIT 10"))
                .containsExactly("FOR UPDATE");
        assertThat(LockingSql.in("SELECT 1 FROM placements FOR SHARE OFFSET 5")).containsExactly("FOR SHARE");
        assertThat(LockingSql.in("SELECT 1 FROM placements FOR NO KEY UPDATE FETCH FIRST 1 ROW ONLY"))
                .containsExactly("FOR NO KEY UPDATE");
        assertThat(LockingSql.in("SELECT 1 FROM kinship_options WHERE id = ? FOR KEY SHARE \u0001"))
                .containsExactly("FOR KEY SHARE");
        assertThat(LockingSql.in("SELECT 1 FROM kinship_options WHERE id = ? FOR UPDATE %s")).containsExactly("FOR UPDATE");
    }

    @Test
    void shouldFindATryOfTheCaseQueueButNotTheClaimsOfOtherNamespaces() {
        // Given tries of advisory locks in the case queue's namespace, and the Idempotency-Key's and the rebuild's claims
        // When they are looked for
        // Then only those of the case queue are found
        assertThat(LockingSql.in("SELECT pg_try_advisory_xact_lock_shared(1668380005, hashtext((?)::text))"))
                .containsExactly("pg_try_advisory_xact_lock_shared(1668380005");
        assertThat(LockingSql.in("SELECT pg_try_advisory_lock( 1668380005, 7)"))
                .containsExactly("pg_try_advisory_lock( 1668380005");
        assertThat(LockingSql.in("SELECT pg_try_advisory_xact_lock(1768187245, hashtext(?)) AS claimed")).isEmpty();
        assertThat(LockingSql.in("SELECT pg_try_advisory_lock(1919052900, hashtext(?))")).isEmpty();
        assertThat(LockingSql.in("SELECT pg_try_advisory_xact_lock(%s) AS claimed")).isEmpty();
    }

    @Test
    void shouldCountARowLockOnlyWhenTheSameConstantNamesAnOrderedTable() {
        // Given row-lock clauses whose constant names another table, or no table at all
        // When they are looked for, Then none is found
        assertThat(LockingSql.in("SELECT 1 FROM idempotency_keys WHERE key = ? FOR UPDATE")).isEmpty();
        assertThat(LockingSql.in("SELECT 1 FROM case_assignments_rebuild FOR SHARE")).isEmpty();
        assertThat(LockingSql.in(" FOR UPDATE")).isEmpty();
        // And Given the same clauses over an ordered table, a placeholder where the table goes, or a query still to come
        // Then each is found
        assertThat(LockingSql.in("SELECT 1 FROM public.\"placements\" FOR UPDATE")).containsExactly("FOR UPDATE");
        assertThat(LockingSql.in("SELECT 1 FROM %1$s WHERE id = ? FOR NO KEY UPDATE")).containsExactly("FOR NO KEY UPDATE");
        assertThat(LockingSql.in("SELECT 1 FROM a JOIN \u0001 b ON true FOR SHARE")).containsExactly("FOR SHARE");
        assertThat(LockingSql.in("\u0001 FOR NO KEY UPDATE")).containsExactly("FOR NO KEY UPDATE");
    }

    @Test
    void shouldLetAMessageThatSaysUpdateBeWhenItIsNotAnUpdateStatement() {
        // Given messages concatenated with a value, and updates of another table
        // When they are looked for, Then none is found
        assertThat(LockingSql.in("could not update \u0001")).isEmpty();
        assertThat(LockingSql.in("could not update %s: it changed")).isEmpty();
        assertThat(LockingSql.in("failed to update placements for case \u0001")).isEmpty();
        // And Given updates of the ordered tables, by name with an alias or through placeholders
        // Then each is found
        assertThat(LockingSql.in("UPDATE placements AS p SET status = ?")).containsExactly("UPDATE placements");
        assertThat(LockingSql.in("UPDATE \u0001 SET x = 1")).containsExactly("UPDATE \u0001");
        assertThat(LockingSql.in("UPDATE %1$s%2$s")).containsExactly("UPDATE %1$s");
    }
}
