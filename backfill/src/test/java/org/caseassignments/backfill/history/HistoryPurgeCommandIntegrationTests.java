package org.caseassignments.backfill.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import org.caseassignments.backfill.Cli;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import picocli.CommandLine;

@RealDatabaseTest
class HistoryPurgeCommandIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @Autowired
    CommandLine commandLine;

    final JdbcTemplate jdbc = DB.jdbc();
    Cli cli;

    @BeforeEach
    void clean() {
        cli = new Cli(commandLine);
        jdbc.execute("TRUNCATE case_assignments, case_assignment_history");
    }

    @Test
    void shouldDeleteWhatTheRetentionLeftBehindButKeepTheEntryInForceAtItsHorizon() {
        // Given a case with revisions 400, 300 and 200 days old and one of yesterday, and a case whose only entry is old
        Instant now = Instant.now();
        UUID busy = UUID.randomUUID();
        UUID quiet = UUID.randomUUID();
        record(busy, 0, now.minus(400, ChronoUnit.DAYS));
        record(busy, 1, now.minus(300, ChronoUnit.DAYS));
        record(busy, 2, now.minus(200, ChronoUnit.DAYS));
        record(busy, 3, now.minus(1, ChronoUnit.DAYS));
        record(quiet, 0, now.minus(900, ChronoUnit.DAYS));

        // When a dry run and then a purge keep 250 days
        Cli.Run dry = cli.run("history-purge", "--older-than", "P250D", "--dry-run", "--progress", "none");
        Cli.Run purge = cli.run("history-purge", "--older-than", "P250D", "--batch-size", "1", "--progress", "none");

        // Then only revision 0 of the busy case goes: revision 1 was in force 250 days ago
        assertThat(dry.exit()).as(dry.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(dry.out()).containsPattern("entries to delete\\s+1\\n");
        assertThat(purge.exit()).as(purge.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(purge.out()).containsPattern("cases visited\\s+2\\n").containsPattern("entries deleted\\s+1\\n");
        assertThat(revisions(busy)).containsExactly(1L, 2L, 3L);
        assertThat(revisions(quiet)).containsExactly(0L);
    }

    @Test
    void shouldRefuseToStartWithoutARetention() {
        Cli.Run run = cli.run("history-purge", "--progress", "none");

        assertThat(run.exit()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(run.err()).contains("HISTORY_RETENTION");
    }

    private void record(UUID caseId, long revision, Instant occurredAt) {
        HistoryEntries.record(jdbc, caseId, revision, occurredAt);
    }

    private List<Long> revisions(UUID caseId) {
        return HistoryEntries.revisions(jdbc, caseId);
    }
}
