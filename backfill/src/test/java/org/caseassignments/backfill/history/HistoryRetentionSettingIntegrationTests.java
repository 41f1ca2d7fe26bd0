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
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import picocli.CommandLine;

/** {@code HISTORY_RETENTION}, as the environment variable would set it, decides the purge's horizon. */
@RealDatabaseTest(properties = "HISTORY_RETENTION=250d")
class HistoryRetentionSettingIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @Autowired
    CommandLine commandLine;

    final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldPurgeToTheRetentionTheSettingGivesUnlessOlderThanIsGiven() {
        // Given a case with revisions 400, 300 and 200 days old and one of yesterday
        Instant now = Instant.now();
        UUID caseId = UUID.randomUUID();
        HistoryEntries.record(jdbc, caseId, 0, now.minus(400, ChronoUnit.DAYS));
        HistoryEntries.record(jdbc, caseId, 1, now.minus(300, ChronoUnit.DAYS));
        HistoryEntries.record(jdbc, caseId, 2, now.minus(200, ChronoUnit.DAYS));
        HistoryEntries.record(jdbc, caseId, 3, now.minus(1, ChronoUnit.DAYS));

        // When the purge runs with only the setting (250 days), then with --older-than P100D
        Cli.Run bySetting = new Cli(commandLine).run("history-purge", "--progress", "none");
        List<Long> keptBySetting = HistoryEntries.revisions(jdbc, caseId);
        Cli.Run byOption = new Cli(commandLine).run("history-purge", "--older-than", "P100D", "--progress", "none");

        // Then the setting kept revision 1, in force 250 days ago; the option, which wins, kept 2, in force 100 days ago
        assertThat(bySetting.exit()).as(bySetting.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(bySetting.out()).containsPattern("entries deleted\\s+1\\n");
        assertThat(keptBySetting).containsExactly(1L, 2L, 3L);
        assertThat(byOption.exit()).as(byOption.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(HistoryEntries.revisions(jdbc, caseId)).containsExactly(2L, 3L);
    }
}
