package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

class AssignmentWriterIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    private final JdbcTemplate jdbc = DB.jdbc();
    private final AssignmentWriter writer = new AssignmentWriter(jdbc);

    @Test
    void shouldApplyAStrictlyNewerRevisionAndIgnoreEqualOrLowerOnes() {
        UUID caseId = UUID.randomUUID();
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-5", "s-5", 5)));

        ApplyResult equal = writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-x", "s-x", 5)));
        ApplyResult lower = writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-4", "s-4", 4)));
        ApplyResult higher = writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-6", "s-6", 6)));

        assertThat(equal.unchanged()).isEqualTo(1);
        assertThat(lower.unchanged()).isEqualTo(1);
        assertThat(higher.advancedCases()).containsExactly(caseId);
        assertThat(projection(caseId)).containsEntry("assigned_worker_sub", "w-6").containsEntry("assignment_revision", 6L);
    }

    @Test
    void shouldTakeTheJurisdictionWithItsRevisionAndNeverClearItWithAnEventThatCarriesNone() {
        UUID caseId = UUID.randomUUID();
        writer.apply(List.of(AssignmentUpdate.created(caseId, "w-0", "s-0").withJurisdiction("georgia")));

        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-1", "s-1", 1)));
        ApplyResult equal = writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-1", "s-1", 1).withJurisdiction("texas")));

        assertThat(equal.unchanged()).isEqualTo(1);
        assertThat(projection(caseId)).containsEntry("assignment_revision", 1L).containsEntry("jurisdiction", "georgia");

        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-2", "s-2", 2).withJurisdiction("texas")));

        assertThat(projection(caseId)).containsEntry("jurisdiction", "texas");
    }

    @Test
    void shouldFillInAnUnknownJurisdictionFromASnapshotRowAtTheSameRevisionWithoutMovingAnything() {
        UUID caseId = UUID.randomUUID();
        UUID placement = Rows.placement(caseId).worker("w-3").supervisor("s-3").revision(3).insert(jdbc);
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-3", "s-3", 3)));
        assertThat(projection(caseId)).containsEntry("jurisdiction", null);

        ApplyResult filled = writer.apply(List.of(AssignmentUpdate.snapshot(caseId, "w-3", "s-3", 3).withJurisdiction("georgia")));
        ApplyResult again = writer.apply(List.of(AssignmentUpdate.snapshot(caseId, "w-3", "s-3", 3).withJurisdiction("georgia")));
        ApplyResult without = writer.apply(List.of(AssignmentUpdate.snapshot(caseId, "w-3", "s-3", 3)));

        assertThat(filled.outcomes()).containsEntry(caseId, Outcome.CONVERGED);
        assertThat(again.unchanged()).isEqualTo(1);
        assertThat(without.unchanged()).isEqualTo(1);
        assertThat(projection(caseId)).containsEntry("assignment_revision", 3L).containsEntry("jurisdiction", "georgia");
        assertThat(jdbc.queryForObject("SELECT row_version FROM placements WHERE id = ?", Long.class, placement)).isEqualTo(1L);
    }

    @Test
    void shouldRefuseToStoreAJurisdictionThatIsNotAJurisdictionName() {
        UUID caseId = UUID.randomUUID();

        assertThatThrownBy(() ->
                        writer.apply(List.of(AssignmentUpdate.created(caseId, "w", "s").withJurisdiction("Georgia"))))
                .hasMessageContaining("case_assignments_jurisdiction_form");
    }

    @Test
    void shouldNeverLetAReplayedCreationDisplaceANewerAssignment() {
        UUID caseId = UUID.randomUUID();
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-2", "s-2", 2)));

        ApplyResult replayed = writer.apply(List.of(AssignmentUpdate.created(caseId, "w-0", "s-0")));

        assertThat(replayed.unchanged()).isEqualTo(1);
        assertThat(projection(caseId)).containsEntry("assigned_worker_sub", "w-2");
    }

    @Test
    void shouldReplaceAPlaceholderWithTheCreationAndHealRowsBornWhileUnknown() {
        UUID caseId = UUID.randomUUID();
        Rows.assignment(caseId).placeholder().insert(jdbc);
        UUID placement = Rows.placement(caseId).bornUnknown().insert(jdbc);

        ApplyResult result = writer.apply(List.of(AssignmentUpdate.created(caseId, "w-0", "s-0")));

        assertThat(result.advancedCases()).containsExactly(caseId);
        assertThat(result.entityRowsHealed()).isEqualTo(1);
        assertThat(projection(caseId)).containsEntry("assignment_revision", 0L).containsEntry("supervisor_sub", "s-0");
        assertThat(jdbc.queryForMap("SELECT assigned_worker_sub, row_version FROM placements WHERE id = ?", placement))
                .containsEntry("assigned_worker_sub", "w-0").containsEntry("row_version", 2L);
    }

    @Test
    void shouldMoveEntityRowsForwardAndBumpTheirRowVersionButNeverBackwards() {
        UUID caseId = UUID.randomUUID();
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-1", "s-1", 1)));
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        UUID kinship = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);

        ApplyResult forward = writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-3", "s-3", 3)));
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-2", "s-2", 2)));

        assertThat(forward.placementsUpdated()).isEqualTo(1);
        assertThat(forward.kinshipOptionsUpdated()).isEqualTo(1);
        for (String table : List.of("placements", "kinship_options")) {
            UUID id = table.equals("placements") ? placement : kinship;
            assertThat(jdbc.queryForMap("SELECT assigned_worker_sub, assignment_revision, row_version FROM "
                    + table + " WHERE id = ?", id))
                    .containsEntry("assigned_worker_sub", "w-3")
                    .containsEntry("assignment_revision", 3L)
                    .containsEntry("row_version", 2L);
        }
    }

    @Test
    void shouldConvergeAtAnEqualRevisionOnlyUnderTheSnapshotGuard() {
        UUID caseId = UUID.randomUUID();
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-4", "s-4", 4)));

        ApplyResult strict = writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-other", "s-4", 4)));
        ApplyResult same = writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-4", "s-4", 4)));
        ApplyResult converge = writer.apply(List.of(AssignmentUpdate.snapshot(caseId, "w-truth", "s-4", 4)));
        ApplyResult older = writer.apply(List.of(AssignmentUpdate.snapshot(caseId, "w-old", "s-4", 3)));

        assertThat(strict.outcomes()).containsExactly(Map.entry(caseId, Outcome.CONFLICTING));
        assertThat(same.outcomes()).containsExactly(Map.entry(caseId, Outcome.UNCHANGED));
        assertThat(converge.advancedCases()).containsExactly(caseId);
        assertThat(older.unchanged()).isEqualTo(1);
        assertThat(projection(caseId)).containsEntry("assigned_worker_sub", "w-truth").containsEntry("assignment_revision", 4L);
    }

    @Test
    void shouldClassifyEachUpdateOfAStrictlyNewerBatch() {
        // Given cases stored at revision 4, a placeholder, and none
        UUID equal = Rows.assignment(UUID.randomUUID()).revision(4).insert(jdbc);
        UUID older = Rows.assignment(UUID.randomUUID()).revision(4).insert(jdbc);
        UUID newer = Rows.assignment(UUID.randomUUID()).revision(4).insert(jdbc);
        UUID placeholder = Rows.assignment(UUID.randomUUID()).placeholder().insert(jdbc);
        UUID absent = UUID.randomUUID();

        // When one batch proposes an equal revision with another pair, a lower and a higher revision, a creation over the placeholder, and a new case
        ApplyResult result = writer.apply(List.of(
                AssignmentUpdate.changed(equal, "w-x", "s-x", 4),
                AssignmentUpdate.changed(older, "w-x", "s-x", 3),
                AssignmentUpdate.changed(newer, "w-x", "s-x", 5),
                AssignmentUpdate.created(placeholder, "w-0", "s-0"),
                AssignmentUpdate.changed(absent, "w-1", "s-1", 1)));

        // Then
        assertThat(result.outcomes()).containsOnly(
                Map.entry(equal, Outcome.CONFLICTING), Map.entry(older, Outcome.SKIPPED_OLDER),
                Map.entry(newer, Outcome.ADVANCED), Map.entry(placeholder, Outcome.ADVANCED),
                Map.entry(absent, Outcome.INSERTED));
        assertThat(List.copyOf(result.outcomes().keySet())).isSortedAccordingTo(CaseIds.POSTGRES_ORDER);
        assertThat(result.insertedCases()).containsExactly(absent);
        assertThat(result.advancedCases()).containsExactlyInAnyOrder(newer, placeholder);
        assertThat(result.unchanged()).isEqualTo(2);
    }

    @Test
    void shouldJudgeTheNewestCommittedRowWhenAConcurrentWriterHeldItsLock() throws Exception {
        // Given a case at revision 3, and a live writer that moved it to 6 and has not committed yet
        UUID caseId = Rows.assignment(UUID.randomUUID()).worker("w-3").supervisor("s-3").revision(3).insert(jdbc);
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(DB.dataSource()));
        ExecutorService threads = Executors.newFixedThreadPool(2);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            Future<?> live = threads.submit(() -> transaction.executeWithoutResult(status -> {
                writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-6", "s-6", 6)));
                holding.countDown();
                awaitLatch(release);
            }));
            assertThat(holding.await(30, TimeUnit.SECONDS)).as("the live writer applied its batch").isTrue();

            // When a snapshot row at revision 5 is applied meanwhile, and the live writer commits while it waits
            Future<ApplyResult> snapshot = threads.submit(() -> transaction.execute(status ->
                    writer.apply(List.of(AssignmentUpdate.snapshot(caseId, "w-5", "s-5", 5)))));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject("""
                    SELECT count(*) FROM pg_stat_activity
                     WHERE datname = current_database() AND wait_event_type = 'Lock'
                    """, Integer.class) == 1);
            release.countDown();
            live.get(30, TimeUnit.SECONDS);

            // Then the snapshot row is judged against revision 6, not the revision 3 its statement started with
            assertThat(snapshot.get(30, TimeUnit.SECONDS).outcomes()).containsExactly(Map.entry(caseId, Outcome.SKIPPED_OLDER));
            assertThat(projection(caseId)).containsEntry("assigned_worker_sub", "w-6").containsEntry("assignment_revision", 6L);
        } finally {
            release.countDown();
            threads.shutdownNow();
        }
    }

    @Test
    void shouldReadStoredProjectionRowsByKeyEvenWhileTheStatisticsSayTheTableIsEmpty() {
        // Given a new database whose tables were analyzed while empty, so the planner would rather scan them
        TestDatabase fresh = TestDatabase.migrated();
        JdbcTemplate freshJdbc = fresh.jdbc();
        freshJdbc.execute("ANALYZE case_assignments, placements, kinship_options");
        UUID known = Rows.assignment(UUID.randomUUID()).worker("w-1").supervisor("s-1").revision(1).insert(freshJdbc);
        Rows.placement(known).worker("w-1").supervisor("s-1").revision(1).insert(freshJdbc);
        AssignmentWriter freshWriter = new AssignmentWriter(freshJdbc);
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(fresh.dataSource()));

        // When a batch that moves a known case and creates a new one is applied
        Map<String, Object> scans = transaction.execute(status -> {
            ApplyResult result = freshWriter.apply(List.of(AssignmentUpdate.changed(known, "w-2", "s-2", 2),
                    AssignmentUpdate.changed(UUID.randomUUID(), "w-1", "s-1", 1)));
            assertThat(result.advancedCases()).containsExactly(known);
            assertThat(result.entityRowsUpdated()).isEqualTo(1);
            return freshJdbc.queryForMap("""
                    SELECT seq_scan AS seq_scans, idx_scan AS index_scans
                      FROM pg_stat_xact_user_tables
                     WHERE relname = 'case_assignments'""");
        });

        // Then it read the stored projection rows through the primary key and never scanned the table
        assertThat(((Number) scans.get("seq_scans")).longValue()).as("sequential scans").isZero();
        assertThat(((Number) scans.get("index_scans")).longValue()).as("index scans").isPositive();
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            if (!latch.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the live writer");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private Map<String, Object> projection(UUID caseId) {
        return jdbc.queryForMap("SELECT * FROM case_assignments WHERE case_id = ?", caseId);
    }
}
