package org.caseassignments.backfill.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.caseassignments.backfill.Cli;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.TestDatabase;
import org.awaitility.Awaitility;
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
    void shouldReadTheRetentionInTheSettingsSyntaxAsInTheIsoOne() {
        // Given a case with revisions 400, 300 and 200 days old
        Instant now = Instant.now();
        UUID busy = UUID.randomUUID();
        record(busy, 0, now.minus(400, ChronoUnit.DAYS));
        record(busy, 1, now.minus(300, ChronoUnit.DAYS));
        record(busy, 2, now.minus(200, ChronoUnit.DAYS));

        // When dry runs keep 250 days, written as the settings write durations and in ISO-8601
        Cli.Run spring = cli.run("history-purge", "--older-than", "250d", "--dry-run", "--progress", "none");
        Cli.Run iso = cli.run("history-purge", "--older-than", "P250D", "--dry-run", "--progress", "none");

        // Then both read the same horizon
        assertThat(spring.exit()).as(spring.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(spring.out()).containsPattern("entries to delete\\s+1\\n");
        assertThat(iso.out()).containsPattern("entries to delete\\s+1\\n");
    }

    @Test
    void shouldDeleteNothingAndChangeNoEntryWhenRunASecondTime() {
        // Given cases whose history the retention cuts, purged once
        List<UUID> cases = historyOfFiveCases();
        Cli.Run first = cli.run("history-purge", "--older-than", "P250D", "--batch-size", "2", "--progress", "none");
        List<Map<String, Object>> afterFirst = entries();

        // When it runs again
        Cli.Run second = cli.run("history-purge", "--older-than", "P250D", "--batch-size", "2", "--progress", "none");

        // Then the first deleted the superseded entries, and the second nothing: every kept entry is as it was
        assertThat(first.exit()).as(first.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(first.out()).containsPattern("entries deleted\\s+8\\n");
        assertThat(revisionsOf(cases)).isEqualTo(PURGED);
        assertThat(second.exit()).as(second.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(second.out()).containsPattern("cases visited\\s+5\\n").containsPattern("entries deleted\\s+0\\n");
        assertThat(entries()).isEqualTo(afterFirst);
    }

    /**
     * Each batch of cases is its own transaction: a run stopped part-way (here its DELETE of the third case, held
     * behind another transaction's row lock, is cancelled) keeps what it committed, and running it again finishes
     * the purge with every entry as an uninterrupted run leaves it.
     */
    @Test
    void shouldFinishAPurgeStoppedPartWayWhenRunAgainAsIfItHadNotStopped() throws Exception {
        // Given the history an uninterrupted run leaves of five cases
        List<UUID> cases = historyOfFiveCases();
        jdbc.execute("CREATE TABLE history_before_purge AS SELECT * FROM case_assignment_history");
        Cli.Run uninterrupted = cli.run("history-purge", "--older-than", "P250D", "--batch-size", "1", "--progress", "none");
        List<Map<String, Object>> uninterruptedEnd = entries();
        jdbc.execute("TRUNCATE case_assignment_history");
        jdbc.execute("INSERT INTO case_assignment_history SELECT * FROM history_before_purge");
        jdbc.execute("DROP TABLE history_before_purge");

        // When a run, one case per batch, is cancelled while it waits for a lock on the third case's oldest entry
        Cli.Run stopped;
        try (Connection holder = DB.dataSource().getConnection(); Statement lock = holder.createStatement()) {
            holder.setAutoCommit(false);
            lock.executeQuery("SELECT 1 FROM case_assignment_history WHERE case_id = '" + cases.get(2)
                    + "' AND assignment_revision = 0 FOR UPDATE").close();
            CompletableFuture<Cli.Run> run = CompletableFuture.supplyAsync(() -> cli.run("history-purge",
                    "--older-than", "P250D", "--batch-size", "1", "--progress", "none"));
            int purgePid = awaitBlockedBy(backendPid(lock));
            jdbc.queryForObject("SELECT pg_cancel_backend(?)", Boolean.class, purgePid);
            stopped = run.get(30, TimeUnit.SECONDS);
            holder.rollback();
        }

        // Then it stopped having purged the first two cases and nothing of the others
        assertThat(uninterrupted.exit()).as(uninterrupted.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(stopped.exit()).as(stopped.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(stopped.err()).contains("canceling statement").contains("run it again");
        assertThat(revisionsOf(cases))
                .isEqualTo(List.of(PURGED.get(0), PURGED.get(1), FULL.get(2), FULL.get(3), FULL.get(4)));

        // And run again, it finishes the purge: the same entries, with the same values, as the uninterrupted run
        Cli.Run again = cli.run("history-purge", "--older-than", "P250D", "--batch-size", "1", "--progress", "none");
        assertThat(again.exit()).as(again.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(again.out()).containsPattern("entries deleted\\s+4\\n");
        assertThat(entries()).isEqualTo(uninterruptedEnd);
        assertThat(revisionsOf(cases)).isEqualTo(PURGED);
    }

    @Test
    void shouldRefuseToStartWithoutARetention() {
        Cli.Run run = cli.run("history-purge", "--progress", "none");

        assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("HISTORY_RETENTION");
    }

    @Test
    void shouldRefuseABareNumberAsRetentionWith64AndDeleteNothing() {
        // Given histories up to 900 days old
        List<UUID> cases = historyOfFiveCases();

        // When the retention is written in days but without a unit
        Cli.Run run = cli.run("history-purge", "--older-than", "3650", "--progress", "none");

        // Then it is bad usage naming the forms that are read, not a purge keeping 3.65 seconds
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--older-than").contains("'3650' has no unit");
        assertThat(revisionsOf(cases)).isEqualTo(FULL);
    }

    /** The revisions of each case of {@link #historyOfFiveCases} before a purge of 250 days, in key order. */
    private static final List<List<Long>> FULL = List.of(List.of(0L, 1L, 2L, 3L), List.of(0L, 1L, 2L, 3L),
            List.of(0L, 1L, 2L, 3L), List.of(0L, 1L, 2L, 3L), List.of(0L));
    /** And after: the busy cases keep revision 2, in force at the horizon, and 3; the quiet case its only entry. */
    private static final List<List<Long>> PURGED = List.of(List.of(2L, 3L), List.of(2L, 3L), List.of(2L, 3L),
            List.of(2L, 3L), List.of(0L));

    /**
     * Four busy cases with revisions 500, 400, 300 and 1 day old, and a quiet one whose only entry is 900 days old,
     * with ids in the order the purge walks them.
     */
    private List<UUID> historyOfFiveCases() {
        Instant now = Instant.now();
        List<UUID> cases = IntStream.rangeClosed(1, 5)
                .mapToObj(i -> UUID.fromString("00000000-0000-4000-8000-00000000000" + i)).toList();
        for (UUID busy : cases.subList(0, 4)) {
            record(busy, 0, now.minus(500, ChronoUnit.DAYS));
            record(busy, 1, now.minus(400, ChronoUnit.DAYS));
            record(busy, 2, now.minus(300, ChronoUnit.DAYS));
            record(busy, 3, now.minus(1, ChronoUnit.DAYS));
        }
        record(cases.get(4), 0, now.minus(900, ChronoUnit.DAYS));
        assertThat(revisionsOf(cases)).isEqualTo(FULL);
        return cases;
    }

    /** Every entry with every column, in key order. */
    private List<Map<String, Object>> entries() {
        return jdbc.queryForList("SELECT * FROM case_assignment_history ORDER BY case_id, assignment_revision");
    }

    /** Each case's revisions, in the order of the cases. */
    private List<List<Long>> revisionsOf(List<UUID> cases) {
        return cases.stream().map(this::revisions).toList();
    }

    private static int backendPid(Statement statement) throws SQLException {
        try (ResultSet rs = statement.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** The backend that waits for a lock {@code pid} holds, once PostgreSQL shows it waiting. */
    private int awaitBlockedBy(int pid) {
        return Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .alias("the purge to wait for the lock held by backend " + pid)
                .until(() -> jdbc.queryForList("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                        + "AND ? = ANY (pg_blocking_pids(pid))", Integer.class, pid), blocked -> blocked.size() == 1)
                .get(0);
    }

    private void record(UUID caseId, long revision, Instant occurredAt) {
        HistoryEntries.record(jdbc, caseId, revision, occurredAt);
    }

    private List<Long> revisions(UUID caseId) {
        return HistoryEntries.revisions(jdbc, caseId);
    }
}
