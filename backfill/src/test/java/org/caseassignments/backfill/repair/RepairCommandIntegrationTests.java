package org.caseassignments.backfill.repair;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.caseassignments.backfill.Cli;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import picocli.CommandLine;

@RealDatabaseTest
class RepairCommandIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @Autowired
    CommandLine commandLine;

    final JdbcTemplate jdbc = DB.jdbc();
    Cli cli;

    @BeforeEach
    void clean() {
        cli = new Cli(commandLine);
        jdbc.execute("TRUNCATE case_assignments, placements, kinship_options");
    }

    @Test
    void shouldBringCopiesBehindOrWithAnotherPairToTheirCaseInBatchesAndNeverLowerOne() {
        // Given copies behind their case, at its revision with another pair, ahead of it, and of cases not known yet
        // (ids at both ends of PostgreSQL's uuid order, which compares bytes unsigned, unlike java.util.UUID)
        UUID current = UUID.fromString("00000000-0000-4000-8000-000000000001");
        UUID lowered = UUID.fromString("ffffffff-0000-4000-8000-000000000002");
        UUID placeholder = UUID.randomUUID();
        Rows.assignment(current).worker("w-5").supervisor("s-5").revision(5).insert(jdbc);
        Rows.assignment(lowered).worker("w-3").supervisor("s-3").revision(3).insert(jdbc);
        Rows.assignment(placeholder).placeholder().insert(jdbc);
        UUID behind = Rows.placement(current).worker("w-2").supervisor("s-2").revision(2).insert(jdbc);
        UUID otherPair = Rows.kinshipOption(current).worker("someone-else").supervisor("s-5").revision(5).insert(jdbc);
        UUID ahead = Rows.placement(lowered).worker("w-9").supervisor("s-9").revision(9).insert(jdbc);
        UUID ofUnknown = Rows.placement(UUID.randomUUID()).bornUnknown().insert(jdbc);
        UUID ofPlaceholder = Rows.kinshipOption(placeholder).bornUnknown().insert(jdbc);
        UUID behindToo = Rows.kinshipOption(lowered).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);

        // When
        Cli.Run run = cli.run("repair", "--batch-size", "1", "--progress", "none");

        // Then the copies behind or at another pair took their case's triple and a new version; the others are as they were
        assertThat(run.exit()).as("copies ahead remain: " + run).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(copy("placements", behind)).containsEntry("assigned_worker_sub", "w-5")
                .containsEntry("supervisor_sub", "s-5").containsEntry("assignment_revision", 5L).containsEntry("row_version", 2L);
        assertThat(copy("kinship_options", otherPair)).containsEntry("assigned_worker_sub", "w-5")
                .containsEntry("row_version", 2L);
        assertThat(copy("kinship_options", behindToo)).containsEntry("assigned_worker_sub", "w-3")
                .containsEntry("assignment_revision", 3L);
        assertThat(copy("placements", ahead)).containsEntry("assignment_revision", 9L).containsEntry("row_version", 1L);
        assertThat(copy("placements", ofUnknown)).containsEntry("assignment_revision", 0L).containsEntry("row_version", 1L);
        assertThat(copy("kinship_options", ofPlaceholder)).containsEntry("assignment_revision", 0L).containsEntry("row_version", 1L);
        assertThat(run.out()).containsPattern("cases visited\\s+2\\n").containsPattern("placements repaired\\s+1\\n")
                .containsPattern("kinship options repaired\\s+2\\n").containsPattern("placements ahead \\(never lowered\\)\\s+1\\n")
                .containsPattern("placements behind\\s+0\\n");
    }

    @Test
    void shouldOnlyCountOnADryRun() {
        // Given
        UUID caseId = UUID.randomUUID();
        Rows.assignment(caseId).worker("w-4").revision(4).insert(jdbc);
        UUID behind = Rows.placement(caseId).worker("w-1").revision(1).insert(jdbc);

        // When
        Cli.Run run = cli.run("repair", "--dry-run");

        // Then
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(run.out()).containsPattern("placements behind\\s+1\\n");
        assertThat(copy("placements", behind)).containsEntry("assignment_revision", 1L);
        assertThat(cli.run("repair", "--progress", "none").exit()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(cli.run("repair", "--dry-run").exit()).isEqualTo(ExitCodes.SUCCESS);
    }

    @Test
    void shouldWaitForTheProjectorHoldingTheCaseAndTakeTheTripleItCommittedNotTheOneItFound() throws Exception {
        // Given a copy behind its case, and the projector in the middle of moving that case further on
        UUID caseId = UUID.randomUUID();
        Rows.assignment(caseId).worker("w-5").supervisor("s-5").revision(5).insert(jdbc);
        UUID placement = Rows.placement(caseId).worker("w-2").supervisor("s-2").revision(2).insert(jdbc);
        try (Connection projector = DriverManager.getConnection(DB.jdbcUrl(), DB.username(), DB.password())) {
            projector.setAutoCommit(false);
            try (PreparedStatement lock = projector.prepareStatement(
                    "UPDATE case_assignments SET assigned_worker_sub = 'w-7', supervisor_sub = 's-7', assignment_revision = 7 "
                            + "WHERE case_id = ?")) {
                lock.setObject(1, caseId);
                lock.executeUpdate();
            }

            // When the repair runs, waits for the case row, and the projector commits the case and its follow
            CompletableFuture<Cli.Run> repair = CompletableFuture.supplyAsync(() -> cli.run("repair", "--progress", "none"));
            Awaitility.await("the repair to wait for the case row").atMost(Duration.ofSeconds(30))
                    .until(() -> jdbc.queryForObject("""
                            SELECT count(*) FROM pg_stat_activity
                             WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FOR SHARE%'
                            """, Integer.class) == 1);
            try (PreparedStatement follow = projector.prepareStatement("UPDATE placements SET assigned_worker_sub = 'w-7', "
                    + "supervisor_sub = 's-7', assignment_revision = 7, row_version = row_version + 1 WHERE id = ?")) {
                follow.setObject(1, placement);
                follow.executeUpdate();
            }
            projector.commit();
            Cli.Run run = repair.get(30, TimeUnit.SECONDS);

            // Then the repair judged the committed row: nothing older was written over the projector's follow
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
            assertThat(run.out()).containsPattern("placements repaired\\s+0\\n");
            assertThat(copy("placements", placement)).containsEntry("assigned_worker_sub", "w-7")
                    .containsEntry("assignment_revision", 7L).containsEntry("row_version", 2L);
        }
    }

    private Map<String, Object> copy(String table, UUID id) {
        return jdbc.queryForMap("SELECT assigned_worker_sub, supervisor_sub, assignment_revision, row_version FROM "
                + table + " WHERE id = ?", id);
    }
}
