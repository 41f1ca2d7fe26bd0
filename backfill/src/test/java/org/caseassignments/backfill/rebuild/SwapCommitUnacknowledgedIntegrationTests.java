package org.caseassignments.backfill.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.caseassignments.backfill.Cli;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import picocli.CommandLine;

/**
 * A swap whose commit reached the database but whose session ended before the answer came back: the rebuild reads
 * which table is the projection on a new session, reports the swap done and does not swap again. The moment is
 * forced with synchronous replication to a standby that never connects (its own server, since the setting is the
 * server's): the commit is written locally and then waits for the standby, holding the lock, until the test ends the
 * session — which PostgreSQL closes without an answer, the transaction committed.
 */
@RealDatabaseTest
class SwapCommitUnacknowledgedIntegrationTests {

    static final TestDatabase DB = TestDatabase.migratedOnAServerWith(
            Map.of("wal_level", "replica", "max_wal_senders", "4"));

    @Autowired
    CommandLine commandLine;

    final JdbcTemplate jdbc = DB.jdbc();
    final String topic = TestKafka.uniqueTopic("case.events");

    @Test
    void shouldReportTheSwapDoneWithWhatItReadAndNotSwapAgainWhenItsSessionEndsAfterItsCommitReachedTheDatabase()
            throws Exception {
        // Given a case stored at an inflated revision, and a rebuild whose swap holds the projection's lock, reads under
        // it the event of a new case published while it waited for the lock, and waits under it for a transaction
        // holding its shadow
        UUID caseId = UUID.randomUUID();
        UUID arrived = UUID.randomUUID();
        TestKafka.createTopics(1, topic);
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishInOrder(topic, List.of(CaseEvents.created(caseId).worker("w-0").jurisdiction("georgia").build(),
                    CaseEvents.changed(caseId, 1).worker("w-1").supervisor("s-1").jurisdiction("georgia").build()));
        }
        Rows.assignment(caseId).worker("inflated").revision(9).jurisdiction("georgia").insert(jdbc);
        long liveTable = oid("case_assignments");
        try (Connection projection = connection(); Connection shadow = connection(); Connection probe = connection()) {
            HeldLocks.share(projection, "case_assignments");
            CompletableFuture<Cli.Run> rebuild = CompletableFuture.supplyAsync(() -> new Cli(commandLine).run("rebuild",
                    "--topics", topic, "--progress", "none", "--allow-lower", "--swap-within", "60s",
                    "--swap-lock-timeout", "60s"));
            HeldLocks.projectionLock(jdbc, false, false);
            try (EventPublisher publisher = new EventPublisher()) {
                publisher.publishInOrder(topic, List.of(CaseEvents.created(arrived).worker("w-new").jurisdiction("texas")
                        .build()));
            }
            long shadowTable = oid("case_assignments_rebuild");
            HeldLocks.share(shadow, "case_assignments_rebuild");
            projection.commit();
            int swap = HeldLocks.projectionLock(jdbc, true, true);

            // When every commit from now on waits for a standby that never comes (a probe's commit proves it does),
            // the swap goes on and commits, and the database ends its session while the commit waits
            try {
                jdbc.execute("ALTER SYSTEM SET synchronous_standby_names = 'a_standby_that_never_connects'");
                jdbc.execute("SELECT pg_reload_conf()");
                awaitACommitWaitingForTheStandby(probe);
                shadow.commit();
                Awaitility.await("the swap's commit to wait for the standby").atMost(Duration.ofSeconds(60))
                        .until(() -> "SyncRep".equals(waitEvent(swap)));
                assertThat(jdbc.queryForObject("SELECT pg_terminate_backend(?)", Boolean.class, swap)).isTrue();
            } finally {
                jdbc.execute("ALTER SYSTEM RESET synchronous_standby_names");
                jdbc.execute("SELECT pg_reload_conf()");
            }
            Cli.Run run = rebuild.get(60, TimeUnit.SECONDS);

            // Then the rebuild says the swap committed, did it once (the projection is its shadow, the previous table the
            // one it began with), and counts what the committed swap read under the lock
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
            assertThat(run.err()).contains("after its commit reached it; the swap committed")
                    .doesNotContain("the live projection is unchanged");
            assertThat(run.out()).containsPattern("events read\\s+3\\n").containsPattern("cases rebuilt\\s+2\\n")
                    .containsPattern("events read under the lock\\s+1\\n");
            assertThat(oid("case_assignments")).isEqualTo(shadowTable);
            assertThat(oid("case_assignments_previous")).isEqualTo(liveTable);
            assertThat(jdbc.queryForObject("SELECT assigned_worker_sub || '@' || assignment_revision FROM "
                    + "case_assignments WHERE case_id = ?", String.class, caseId)).isEqualTo("w-1@1");
            assertThat(jdbc.queryForObject("SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?",
                    String.class, arrived)).isEqualTo("w-new");
            assertThat(jdbc.queryForObject("SELECT assigned_worker_sub || '@' || assignment_revision FROM "
                    + "case_assignments_previous WHERE case_id = ?", String.class, caseId)).isEqualTo("inflated@9");
        }
    }

    /**
     * A write committed on {@code probe} waits for the standby: the server's setting is in force (the reload reaches
     * the server's processes a moment after it is asked for; a write done without waiting is tried again); then let go.
     */
    private void awaitACommitWaitingForTheStandby(Connection probe) throws Exception {
        int pid;
        try (Statement statement = probe.createStatement(); var rs = statement.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            pid = rs.getInt(1);
        }
        for (int attempt = 0; attempt < 1000; attempt++) {
            String table = "probe_of_the_standby_" + attempt;
            CompletableFuture<Void> write = CompletableFuture.runAsync(() -> {
                try (Statement statement = probe.createStatement()) {
                    statement.execute("SET synchronous_commit = on; CREATE TEMPORARY TABLE " + table + " (x int)");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Awaitility.await("the probe's write to end or to wait for the standby").atMost(Duration.ofSeconds(60))
                    .until(() -> write.isDone() || "SyncRep".equals(waitEvent(pid)));
            if (!write.isDone()) {
                jdbc.queryForObject("SELECT pg_cancel_backend(?)", Boolean.class, pid);
                write.get(30, TimeUnit.SECONDS);
                return;
            }
            write.get();
        }
        throw new IllegalStateException("no commit waited for the standby in 1000 writes");
    }

    private String waitEvent(int pid) {
        List<String> events = jdbc.queryForList("SELECT wait_event FROM pg_stat_activity WHERE pid = ?", String.class, pid);
        return events.isEmpty() ? null : events.get(0);
    }

    private long oid(String table) {
        return jdbc.queryForObject("SELECT to_regclass(?)::oid::bigint", Long.class, table);
    }

    private static Connection connection() throws Exception {
        return DriverManager.getConnection(DB.jdbcUrl(), DB.username(), DB.password());
    }
}
