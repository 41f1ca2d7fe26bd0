package org.caseassignments.backfill.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.caseassignments.backfill.Cli;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.LiveApplier;
import org.caseassignments.schemas.serde.RegistryStub;
import org.caseassignments.schemas.serde.SerdeSettings;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import picocli.CommandLine;

@RealDatabaseTest
class RebuildCommandIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("backfill.rebuild.swap-attempts", () -> "3");
    }

    @Autowired
    CommandLine commandLine;

    final JdbcTemplate jdbc = DB.jdbc();
    final String topic = TestKafka.uniqueTopic("case.events");
    Cli cli;

    @BeforeEach
    void clean() {
        cli = new Cli(commandLine);
        TestKafka.createTopics(3, topic);
        jdbc.execute("DROP TABLE IF EXISTS case_assignments_previous, case_assignments_rebuild, " + ProjectionByHand.ASIDE);
        jdbc.execute("TRUNCATE case_assignments, placements, kinship_options");
    }

    @Test
    void shouldLowerInflatedRevisionsToWhatTheEventsSayAndKeepTheReplacedTable() {
        // Given cases whose events end at revision 2, one of them stored at an inflated revision no event explains
        UUID inflated = UUID.randomUUID();
        UUID honest = UUID.randomUUID();
        publish(history(inflated, 2, "georgia"), history(honest, 2, "georgia"));
        Rows.assignment(inflated).worker("from-a-bad-snapshot").revision(41).insert(jdbc);
        Rows.assignment(honest).worker("w-2").supervisor("s-2").revision(2).insert(jdbc);

        // When
        Cli.Run run = cli.run("rebuild", "--topics", topic, "--progress", "none", "--allow-lower");

        // Then the projection holds what the events say, the replaced one is kept, and the report counts the swap
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(row("case_assignments", inflated)).containsEntry("assignment_revision", 2L)
                .containsEntry("assigned_worker_sub", "w-2").containsEntry("jurisdiction", "georgia");
        assertThat(row("case_assignments", honest)).containsEntry("assignment_revision", 2L);
        assertThat(row("case_assignments_previous", inflated)).containsEntry("assignment_revision", 41L);
        assertThat(run.out()).containsPattern("live revision higher\\s+1\\n").containsPattern("cases rebuilt\\s+2\\n")
                .contains("longest pause, at most (ms)");
        assertThat(cli.run("rebuild", "--topics", topic, "--progress", "none").exit())
                .as("a second rebuild while the previous table is kept").isEqualTo(ExitCodes.COULD_NOT_START);
    }

    @Test
    void shouldKeepAWriteTheLiveProjectorCommitsWhileTheSwapWaitsForItsLock() throws Exception {
        // Given a history, and the projector in the middle of a transaction on the live table
        UUID known = UUID.randomUUID();
        publish(history(known, 3, "georgia"));
        try (Connection projector = connection()) {
            projector.setAutoCommit(false);
            AssignmentWriter live = new AssignmentWriter(new JdbcTemplate(new SingleConnectionDataSource(projector, true)));
            live.apply(List.of(AssignmentUpdate.changed(known, "w-3", "s-3", 3)));

            // When the rebuild waits for the lock, an event arrives, and the projector applies and commits it
            CompletableFuture<Cli.Run> rebuild = CompletableFuture.supplyAsync(() -> cli.run("rebuild", "--topics", topic,
                    "--progress", "none", "--swap-lock-timeout", "60s"));
            awaitSwapWaitingForTheLock();
            UUID arrived = UUID.randomUUID();
            publish(List.of(CaseEvents.created(arrived).worker("w-new").jurisdiction("texas").build()));
            live.apply(List.of(AssignmentUpdate.created(arrived, "w-new", "supervisor-1").withJurisdiction("texas")));
            projector.commit();
            Cli.Run run = rebuild.get(60, TimeUnit.SECONDS);

            // Then the new projection holds it: the tail up to the live end was read under the lock
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
            assertThat(run.out()).containsPattern("events read under the lock\\s+1\\n")
                    .as("every event read, the tail's too").containsPattern("events read\\s+5\\n")
                    .containsPattern("cases rebuilt\\s+2\\n");
            assertThat(row("case_assignments", arrived)).containsEntry("assigned_worker_sub", "w-new")
                    .containsEntry("jurisdiction", "texas");
            assertThat(row("case_assignments", known)).containsEntry("assignment_revision", 3L);
        }
    }

    @Test
    void shouldSerializeAnApiTransactionAndStatementsQueuedBehindTheSwapAgainstOneTableEach() throws Exception {
        // Given a case stored at an inflated revision, and a reader and a projector connection whose statements are
        // server-side prepared (their plans name the table that is about to be renamed)
        UUID caseId = UUID.randomUUID();
        UUID later = UUID.randomUUID();
        publish(history(caseId, 2, "georgia"), List.of(CaseEvents.created(later).worker("w-later").build()));
        Rows.assignment(caseId).worker("inflated").revision(9).insert(jdbc);
        try (Connection api = connection(); Connection reader = connection(); Connection projector = connection()) {
            String forShare = "SELECT assigned_worker_sub, assignment_revision FROM case_assignments WHERE case_id = ? FOR SHARE";
            PreparedStatement readerStatement = reader.prepareStatement(forShare);
            assertThat(readForShare(readerStatement, caseId)).isEqualTo("inflated@9");
            assertThat(readForShare(readerStatement, caseId)).isEqualTo("inflated@9");
            AssignmentWriter projectorWriter = new AssignmentWriter(new JdbcTemplate(new SingleConnectionDataSource(projector, true)));
            projectorWriter.apply(List.of(AssignmentUpdate.changed(caseId, "w", "s", 1)));
            projectorWriter.apply(List.of(AssignmentUpdate.changed(caseId, "w", "s", 2)));

            // When an API create holds the case FOR SHARE, the swap queues behind it, and a reader and the projector
            // queue behind the swap
            api.setAutoCommit(false);
            String authorized;
            try (PreparedStatement ps = api.prepareStatement(forShare)) {
                authorized = readForShare(ps, caseId);
            }
            CompletableFuture<Cli.Run> rebuild = CompletableFuture.supplyAsync(() -> cli.run("rebuild", "--topics", topic,
                    "--progress", "none", "--allow-lower", "--swap-lock-timeout-ms", "60000"));
            awaitSwapWaitingForTheLock();
            CompletableFuture<String> queuedRead = CompletableFuture.supplyAsync(() -> {
                try {
                    return readForShare(readerStatement, caseId);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            CompletableFuture<Void> queuedWrite = CompletableFuture.runAsync(() ->
                    projectorWriter.apply(List.of(AssignmentUpdate.changed(later, "w-queued", "s-queued", 1))));
            awaitBackendsWaitingForALock(3);
            UUID placement = UUID.randomUUID();
            try (PreparedStatement insert = api.prepareStatement("""
                    INSERT INTO placements (id, case_id, status, assigned_worker_sub, supervisor_sub, assignment_revision, created_by)
                    VALUES (?, ?, 'PROPOSED', 'inflated', NULL, 9, 'caller')""")) {
                insert.setObject(1, placement);
                insert.setObject(2, caseId);
                insert.executeUpdate();
            }
            api.commit();
            Cli.Run run = rebuild.get(60, TimeUnit.SECONDS);

            // Then the API committed against the old table it had locked, and what queued behind the swap ran against
            // the new one: the reader sees the rebuilt row, the projector's write is in the new table only
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
            assertThat(authorized).isEqualTo("inflated@9");
            assertThat(queuedRead.get(30, TimeUnit.SECONDS)).isEqualTo("w-2@2");
            queuedWrite.get(30, TimeUnit.SECONDS);
            assertThat(row("case_assignments", later)).containsEntry("assigned_worker_sub", "w-queued")
                    .containsEntry("assignment_revision", 1L);
            assertThat(row("case_assignments_previous", later)).isEmpty();
            assertThat(jdbc.queryForObject("SELECT assignment_revision FROM placements WHERE id = ?", Long.class, placement))
                    .isEqualTo(9L);
        }
    }

    @Test
    void shouldGiveUpAfterItsAttemptsAndLeaveTheLiveTableAsItWasWhenATransactionNeverLetsGo() throws Exception {
        // Given a case stored at an inflated revision, and a transaction holding it FOR SHARE throughout
        UUID caseId = UUID.randomUUID();
        publish(history(caseId, 1, "georgia"));
        Rows.assignment(caseId).worker("inflated").revision(12).insert(jdbc);
        try (Connection api = connection()) {
            api.setAutoCommit(false);
            try (PreparedStatement ps = api.prepareStatement(
                    "SELECT assigned_worker_sub, assignment_revision FROM case_assignments WHERE case_id = ? FOR SHARE")) {
                assertThat(readForShare(ps, caseId)).isEqualTo("inflated@12");
            }

            // When
            Cli.Run run = cli.run("rebuild", "--topics", topic, "--progress", "none", "--swap-lock-timeout-ms", "200");

            // Then each attempt gave way after its timeout, naming the holder, and nothing was swapped
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
            assertThat(run.err()).contains("not granted within 200 ms (attempt 1 of 3; held by: client backend RowShareLock")
                    .contains("attempt 2 of 3").contains("the live projection is unchanged");
            api.commit();
        }
        assertThat(row("case_assignments", caseId)).containsEntry("assignment_revision", 12L);
        assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_previous') IS NULL", Boolean.class)).isTrue();
    }

    @Test
    void shouldLetGoOfTheLockAtSwapWithinWhenAWriteOfTheTailUnderItWaitsAndSwapOnceNothingHoldsIt() throws Exception {
        // Given a case whose events end at revision 2, and the projector in the middle of a transaction writing it
        UUID caseId = UUID.randomUUID();
        publish(history(caseId, 2, "georgia"));
        Rows.assignment(caseId).worker("w-1").supervisor("s-1").revision(1).jurisdiction("georgia").insert(jdbc);
        long liveTable = oid("case_assignments");
        try (Connection projector = connection(); Connection other = connection()) {
            projector.setAutoCommit(false);
            new AssignmentWriter(new JdbcTemplate(new SingleConnectionDataSource(projector, true)))
                    .apply(List.of(AssignmentUpdate.changed(caseId, "w-2", "s-2", 2)));
            CompletableFuture<Cli.Run> rebuild = CompletableFuture.supplyAsync(() -> cli.run("rebuild", "--topics", topic,
                    "--progress", "none", "--swap-within", "300ms", "--swap-lock-timeout-ms", "60000"));
            awaitSwapWaitingForTheLock();

            // When another transaction holds the case's shadow row, the case's next event arrives and the projector
            // commits: the swap gets its lock, reads the event, and its write of it waits for that transaction
            other.setAutoCommit(false);
            try (PreparedStatement ps = other.prepareStatement(
                    "SELECT 1 FROM case_assignments_rebuild WHERE case_id = ? FOR UPDATE")) {
                ps.setObject(1, caseId);
                ps.executeQuery().close();
            }
            publish(List.of(CaseEvents.changed(caseId, 3).worker("w-3").supervisor("s-3").jurisdiction("georgia").build()));
            projector.commit();
            Awaitility.await("the rebuild to give up while its write of the tail still waits under the lock")
                    .atMost(Duration.ofSeconds(60)).until(rebuild::isDone);
            Cli.Run gaveUp = rebuild.get();

            // Then each attempt let go of the lock at its deadline, and the live table is the one it was
            assertThat(gaveUp.exit()).as(gaveUp.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
            assertThat(gaveUp.err()).contains("the swap did not fit in 300 ms under the lock; gave way (attempt 1 of 3)")
                    .contains("did not fit in --swap-within 300 ms in 3 attempts")
                    .contains("the live projection is unchanged");
            assertThat(oid("case_assignments")).isEqualTo(liveTable);
            assertThat(row("case_assignments", caseId)).containsEntry("assignment_revision", 2L);
            assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_previous') IS NULL", Boolean.class)).isTrue();
            other.rollback();
        }

        // and once nothing holds the row, a rebuild swaps in what the events say
        Cli.Run run = cli.run("rebuild", "--topics", topic, "--progress", "none");
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(row("case_assignments", caseId)).containsEntry("assignment_revision", 3L)
                .containsEntry("assigned_worker_sub", "w-3").containsEntry("supervisor_sub", "s-3");
    }

    @Test
    void shouldGiveWayAndSwapExactlyOnceOnANewSessionWhenTheDatabaseEndsTheSwapsSessionUnderTheLock() throws Exception {
        // Given a case stored at an inflated revision, and the swap granted the projection's lock and then held up
        // under it by a transaction holding its shadow (the rename waits for it)
        UUID caseId = UUID.randomUUID();
        publish(history(caseId, 2, "georgia"));
        Rows.assignment(caseId).worker("inflated").revision(9).jurisdiction("georgia").insert(jdbc);
        long liveTable = oid("case_assignments");
        try (Connection projection = connection(); Connection shadow = connection()) {
            HeldLocks.share(projection, "case_assignments");
            CompletableFuture<Cli.Run> rebuild = CompletableFuture.supplyAsync(() -> cli.run("rebuild", "--topics", topic,
                    "--progress", "none", "--allow-lower", "--swap-within", "60s", "--swap-lock-timeout", "60s"));
            awaitSwapWaitingForTheLock();
            long shadowTable = oid("case_assignments_rebuild");
            HeldLocks.share(shadow, "case_assignments_rebuild");
            projection.commit();

            // When the database ends the swap's session, and the transaction on the shadow then ends
            endTheSessionHoldingTheProjection();
            shadow.commit();
            Cli.Run run = rebuild.get(60, TimeUnit.SECONDS);

            // Then the rebuild gave way, tried again on a new session and swapped its shadow in, once
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
            assertThat(run.err()).contains("the database ended the swap's session (SQLSTATE ")
                    .contains("the live projection is unchanged; gave way (attempt 1 of 3)");
            assertThat(run.out()).containsPattern("lock attempts\\s+2\\n");
            assertThat(oid("case_assignments")).isEqualTo(shadowTable);
            assertThat(oid("case_assignments_previous")).isEqualTo(liveTable);
            assertThat(row("case_assignments", caseId)).containsEntry("assignment_revision", 2L)
                    .containsEntry("assigned_worker_sub", "w-2");
            assertThat(row("case_assignments_previous", caseId)).containsEntry("assignment_revision", 9L)
                    .containsEntry("assigned_worker_sub", "inflated");
            assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_rebuild') IS NULL", Boolean.class)).isTrue();
        }
    }

    @Test
    void shouldGiveWayAndUndoOnANewSessionWhenTheDatabaseEndsTheUndosSessionUnderTheLock() throws Exception {
        // Given a swap that lowered an inflated row, and the undo granted the projection's lock and then held up under
        // it by a transaction holding the previous table (the undo locks both)
        UUID inflated = swappedOverAnInflatedRow();
        long rebuilt = oid("case_assignments");
        long previous = oid("case_assignments_previous");
        try (Connection holder = connection()) {
            CompletableFuture<Cli.Run> undo = undoHeldUpUnderTheLock(holder);

            // When the database ends the undo's session, and the transaction on the previous table then ends
            endTheSessionHoldingTheProjection();
            holder.commit();
            Cli.Run run = undo.get(60, TimeUnit.SECONDS);

            // Then the undo gave way, tried again on a new session and put the previous table back, once
            assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
            assertThat(run.err()).contains("the database ended the undo's session (SQLSTATE ")
                    .contains("the live projection is unchanged (attempt 1 of 3)");
            assertThat(oid("case_assignments")).isEqualTo(previous);
            assertThat(oid("case_assignments_previous")).isEqualTo(rebuilt);
            assertThat(row("case_assignments", inflated)).containsEntry("assignment_revision", 30L);
            assertThat(row("case_assignments_previous", inflated)).containsEntry("assignment_revision", 1L);
        }
    }

    @Test
    void shouldStopAndNotUndoAgainWhenTheDatabaseEndsTheUndosClaimWithItsSessionUnderTheLock() throws Exception {
        // Given a swap that lowered an inflated row, and the undo granted the projection's lock and then held up under
        // it by a transaction holding the previous table
        swappedOverAnInflatedRow();
        long rebuilt = oid("case_assignments");
        long previous = oid("case_assignments_previous");
        try (Connection holder = connection()) {
            CompletableFuture<Cli.Run> undo = undoHeldUpUnderTheLock(holder);

            // When the database ends every session of the run — the one under the lock and the one holding the
            // rebuild's claim (a restart, or an operator ending the run's sessions) — and the transaction then ends
            int underTheLock = HeldLocks.projectionLock(jdbc, true, true);
            String run = jdbc.queryForObject("SELECT application_name FROM pg_stat_activity WHERE pid = ?", String.class,
                    underTheLock);
            assertThat(jdbc.queryForObject("""
                    SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                                           WHERE application_name = ? AND pid <> pg_backend_pid()) ended
                    """, Integer.class, run)).isGreaterThanOrEqualTo(2);
            holder.commit();
            Cli.Run stopped = undo.get(60, TimeUnit.SECONDS);

            // Then the undo does not try again without its claim (another run may hold it by now): it stops, and the
            // tables are as they were
            assertThat(stopped.exit()).as(stopped.toString()).isNotEqualTo(ExitCodes.SUCCESS);
            assertThat(stopped.err()).contains("the rebuild's claim was lost with its session");
            assertThat(oid("case_assignments")).isEqualTo(rebuilt);
            assertThat(oid("case_assignments_previous")).isEqualTo(previous);
        }
    }

    @Test
    void shouldSwapNothingWhenAnotherTableBecameTheProjectionWhileTheSwapWaitedForItsLock() throws Exception {
        // Given a case whose events end at revision 2, held at it in the projection
        UUID caseId = UUID.randomUUID();
        publish(history(caseId, 2, "georgia"));
        Rows.assignment(caseId).worker("w-2").supervisor("s-2").revision(2).jurisdiction("georgia").insert(jdbc);

        // When another table is put in the projection's place while the swap waits for its lock
        Restored restored = whileTheProjectionIsRestoredByHand("rebuild", "--topics", topic, "--progress", "none",
                "--swap-lock-timeout", "60s");

        // Then the swap, finding under its lock a projection it did not begin with, stops and swaps nothing
        assertThat(restored.run().exit()).as(restored.run().toString()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(restored.run().err()).contains("case_assignments is not the table this run began with (another "
                + "took its place: oid " + restored.oid()).contains("nothing was swapped");
        assertThat(oid("case_assignments")).isEqualTo(restored.oid());
        assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_previous') IS NULL", Boolean.class)).isTrue();
        assertThat(row("case_assignments", caseId)).containsEntry("assignment_revision", 2L);
    }

    @Test
    void shouldSayTheProjectionChangedNotThatItsCasesAreInNoEventWhenTheRestoredTableHoldsACaseNoEventKnows()
            throws Exception {
        // Given a case whose events end at revision 2, held at it in the projection
        UUID caseId = UUID.randomUUID();
        publish(history(caseId, 2, "georgia"));
        Rows.assignment(caseId).worker("w-2").supervisor("s-2").revision(2).jurisdiction("georgia").insert(jdbc);

        // When, while the swap waits for its lock, another table is put in the projection's place, holding one more
        // case than the events know
        UUID unknown = UUID.randomUUID();
        Restored restored = whileTheProjectionIsRestoredByHandWith("""
                INSERT INTO case_assignments (case_id, assigned_worker_sub, supervisor_sub, assignment_revision,
                                              jurisdiction, updated_at)
                VALUES ('%s', 'w-x', 's-x', 1, 'georgia', now())""".formatted(unknown),
                "rebuild", "--topics", topic, "--progress", "none", "--swap-lock-timeout", "60s");

        // Then the swap checks which table it holds before it reads or checks anything under the lock: it says the
        // projection changed, naming the oid, and swaps nothing
        assertThat(restored.run().exit()).as(restored.run().toString()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(restored.run().err()).contains("case_assignments is not the table this run began with (another "
                + "took its place: oid " + restored.oid()).contains("nothing was swapped")
                .doesNotContain("in no event");
        assertThat(oid("case_assignments")).isEqualTo(restored.oid());
        assertThat(row("case_assignments", unknown)).containsEntry("assignment_revision", 1L);
        assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_previous') IS NULL", Boolean.class)).isTrue();
    }

    @Test
    void shouldPutNothingBackWhenAnotherTableBecameTheProjectionWhileTheUndoWaitedForItsLock() throws Exception {
        // Given a swap that lowered an inflated row
        swappedOverAnInflatedRow();
        long previous = oid("case_assignments_previous");

        // When another table is put in the projection's place while the undo, its checks and its carry outside the
        // lock done, waits for the lock
        Restored restored = whileTheProjectionIsRestoredByHand("rebuild", "--undo", "--swap-lock-timeout", "60s");

        // Then the undo, finding under its lock a projection it did not check, stops and puts nothing back
        assertThat(restored.run().exit()).as(restored.run().toString()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(restored.run().err()).contains("case_assignments is not the table this run began with (another "
                + "took its place: oid " + restored.oid()).contains("nothing was put back");
        assertThat(oid("case_assignments")).isEqualTo(restored.oid());
        assertThat(oid("case_assignments_previous")).isEqualTo(previous);
    }

    @Test
    void shouldStopNamingTheFailureWhenTheSwapsRollbackFailsAfterAFailureThatDidNotEndItsSession() {
        // Given a case stored at an inflated revision, and a database that refuses every ALTER TABLE with a SQLSTATE
        // for which the pool closes the connection (0A000, as for "cached plan must not change result type"): the
        // swap's rename fails, then its rollback, on the closed connection, without a SQLSTATE
        UUID caseId = UUID.randomUUID();
        publish(history(caseId, 2, "georgia"));
        Rows.assignment(caseId).worker("inflated").revision(9).jurisdiction("georgia").insert(jdbc);
        jdbc.execute("""
                CREATE FUNCTION refuse_alter_table() RETURNS event_trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'ALTER TABLE refused here' USING ERRCODE = 'feature_not_supported'; END $$""");
        jdbc.execute("CREATE EVENT TRIGGER refuse_alter_table ON ddl_command_start WHEN TAG IN ('ALTER TABLE') "
                + "EXECUTE FUNCTION refuse_alter_table()");
        Cli.Run run;
        try {
            // When
            run = cli.run("rebuild", "--topics", topic, "--progress", "none", "--allow-lower");
        } finally {
            jdbc.execute("DROP EVENT TRIGGER refuse_alter_table");
            jdbc.execute("DROP FUNCTION refuse_alter_table()");
        }

        // Then it stops at its first attempt naming both failures, not taking them for a session the database ended
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(run.err()).contains("JDBC rollback failed").contains("ALTER TABLE refused here")
                .contains("the live projection is unchanged")
                .doesNotContain("ended the swap's session").doesNotContain("attempt 1 of 3");
        assertThat(row("case_assignments", caseId)).containsEntry("assignment_revision", 9L);
        assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_previous') IS NULL", Boolean.class)).isTrue();
    }

    @Test
    void shouldPutThePreviousTableBackOnUndoWithWhatMovedSinceAndNotPutTheUndoneRebuildBackAgain() {
        // Given a swap that lowered an inflated row, and a case the projector moved after the swap
        UUID inflated = UUID.randomUUID();
        UUID movedAfter = UUID.randomUUID();
        publish(history(inflated, 1, "georgia"), history(movedAfter, 1, "georgia"));
        Rows.assignment(inflated).worker("inflated").revision(30).insert(jdbc);
        Rows.assignment(movedAfter).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        assertThat(cli.run("rebuild", "--topics", topic, "--progress", "none", "--allow-lower").exit())
                .isEqualTo(ExitCodes.SUCCESS);
        new AssignmentWriter(jdbc).apply(List.of(AssignmentUpdate.changed(movedAfter, "w-5", "s-5", 5)));

        // When
        Cli.Run undo = cli.run("rebuild", "--undo");

        // Then the previous table is the projection again, with the move the projector made after the swap
        assertThat(undo.exit()).as(undo.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(row("case_assignments", inflated)).containsEntry("assignment_revision", 30L);
        assertThat(row("case_assignments", movedAfter)).containsEntry("assignment_revision", 5L)
                .containsEntry("assigned_worker_sub", "w-5");
        assertThat(row("case_assignments_previous", inflated)).containsEntry("assignment_revision", 1L);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM pg_indexes WHERE indexname = 'case_assignments_pkey' "
                + "AND tablename = 'case_assignments'", Integer.class)).isOne();

        Cli.Run redo = cli.run("rebuild", "--undo");
        assertThat(redo.exit()).as(redo.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(redo.err()).contains("is the rebuilt projection an undo took out").contains("run a new rebuild");
        assertThat(row("case_assignments", inflated)).containsEntry("assignment_revision", 30L);

        Cli.Run drop = cli.run("rebuild", "--drop-previous");
        assertThat(drop.exit()).as(drop.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_previous') IS NULL", Boolean.class)).isTrue();
        assertThat(cli.run("rebuild", "--undo").exit()).isEqualTo(ExitCodes.COULD_NOT_START);
    }

    @Test
    void shouldSayInItsHelpThatASecondUndoRefusesAndThatSwapWithinIsADuration() {
        // When
        Cli.Run help = cli.run("rebuild", "--help");

        // Then the help says what the command does now, and what an old event count in --swap-within becomes
        assertThat(help.exit()).as(help.toString()).isEqualTo(ExitCodes.SUCCESS);
        String text = help.out().replaceAll("\\s+", " ");
        assertThat(text).contains("a second --undo refuses (a new rebuild is the redo)").doesNotContain("redoes")
                .contains("a bare number is refused (it was an event count in earlier versions)")
                .contains("unreadable framing");
        Cli.Run bad = cli.run("rebuild", "--swap-within", "5000 events");
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("--swap-within").contains("5000 events");
    }

    @Test
    void shouldReportEveryKindOfDifferenceOnADryRunAndChangeNothing() {
        // Given one case of each kind of difference, and a placement behind its case
        UUID higher = UUID.randomUUID();
        UUID lower = UUID.randomUUID();
        UUID otherPair = UUID.randomUUID();
        UUID onlyRebuilt = UUID.randomUUID();
        UUID onlyLive = UUID.randomUUID();
        publish(history(higher, 2, null), history(lower, 2, null), history(otherPair, 2, null), history(onlyRebuilt, 0, null));
        Rows.assignment(higher).worker("w-2").supervisor("s-2").revision(7).insert(jdbc);
        Rows.assignment(lower).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        Rows.assignment(otherPair).worker("someone-else").supervisor("s-2").revision(2).insert(jdbc);
        Rows.assignment(onlyLive).insert(jdbc);
        Rows.placement(lower).worker("w-0").revision(0).insert(jdbc);
        var before = jdbc.queryForList("SELECT * FROM case_assignments ORDER BY case_id");

        // When
        Cli.Run run = cli.run("rebuild", "--topics", topic, "--dry-run", "--progress", "none");

        // Then
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(run.out()).containsPattern("cases only in the live table\\s+1\\n")
                .containsPattern("cases only in the rebuilt table\\s+1\\n")
                .containsPattern("live revision higher\\s+1\\n")
                .containsPattern("live revision lower\\s+1\\n")
                .containsPattern("same revision, other pair\\s+1\\n")
                .containsPattern("placements behind\\s+1\\n")
                .contains("live_higher " + higher).contains("only_live " + onlyLive);
        assertThat(jdbc.queryForList("SELECT * FROM case_assignments ORDER BY case_id")).isEqualTo(before);
        assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_rebuild') IS NULL", Boolean.class)).isTrue();
    }

    @Test
    void shouldRefuseToSwapWhenCasesOfTheLiveTableAreInNoEventUnlessAllowed() {
        // Given a case the topics know nothing of (loaded from a snapshot, or its events expired)
        UUID fromSnapshot = UUID.randomUUID();
        publish(history(UUID.randomUUID(), 1, "georgia"));
        Rows.assignment(fromSnapshot).revision(4).insert(jdbc);

        // When / Then
        Cli.Run refused = cli.run("rebuild", "--topics", topic, "--progress", "none");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(refused.out()).contains("not swapped").contains("1 cases of the live table are in no event");
        assertThat(row("case_assignments", fromSnapshot)).containsEntry("assignment_revision", 4L);

        Cli.Run allowed = cli.run("rebuild", "--topics", topic, "--progress", "none", "--allow-missing-cases");
        assertThat(allowed.exit()).as(allowed.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(row("case_assignments", fromSnapshot)).isEmpty();
    }

    @Test
    void shouldKeepAJurisdictionOnlyTheLiveTableKnows() {
        // Given a case whose events carry no jurisdiction, filled in on the live row by a snapshot
        UUID caseId = UUID.randomUUID();
        publish(history(caseId, 1, null));
        Rows.assignment(caseId).worker("w-1").supervisor("s-1").revision(1).jurisdiction("texas").insert(jdbc);

        // When
        Cli.Run run = cli.run("rebuild", "--topics", topic, "--progress", "none");

        // Then
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(row("case_assignments", caseId)).containsEntry("jurisdiction", "texas");
    }

    @Test
    void shouldCarryBackOnUndoEveryEventTheProjectorAppliedAfterTheSwapThoughItWroteNothing() throws Exception {
        // Given a stopped projector that last wrote revision 1 of each case, and events up to revision 3 it has not read
        List<UUID> cases = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            UUID caseId = UUID.randomUUID();
            cases.add(caseId);
            Rows.assignment(caseId).worker("w-1").supervisor("s-1").revision(1).jurisdiction("georgia").insert(jdbc);
            publish(history(caseId, 3, "georgia"));
        }

        // When the rebuild swaps more than a second after it wrote the shadow (its first attempt at the lock gave way)
        try (Connection api = connection()) {
            api.setAutoCommit(false);
            try (PreparedStatement ps = api.prepareStatement(
                    "SELECT assigned_worker_sub, assignment_revision FROM case_assignments WHERE case_id = ? FOR SHARE")) {
                assertThat(readForShare(ps, cases.get(0))).isEqualTo("w-1@1");
            }
            CompletableFuture<Cli.Run> rebuild = CompletableFuture.supplyAsync(() -> cli.run("rebuild", "--topics", topic,
                    "--progress", "none", "--swap-lock-timeout-ms", "1500"));
            awaitALockAttemptStartedLongAfterTheShadowWasWritten();
            api.commit();
            Cli.Run swapped = rebuild.get(60, TimeUnit.SECONDS);
            assertThat(swapped.exit()).as(swapped.toString()).isEqualTo(ExitCodes.SUCCESS);
            assertThat(swapped.err()).contains("--swap-lock-timeout-ms is deprecated");
        }
        // and the projector then drains the topic into the rebuilt table (where each event is already) and commits
        try (LiveApplier projector = new LiveApplier(DB.dataSource(), topic, 100, new CountDownLatch(0))) {
            Map<TopicPartition, Long> end = LiveApplier.endOffsets(topic);
            Awaitility.await("the projector to drain the topic").atMost(Duration.ofSeconds(60))
                    .until(() -> projector.caughtUpTo(end));
        }
        Cli.Run undo = cli.run("rebuild", "--undo");

        // Then every row holds what the events say: the undo lost none of the events whose offsets the projector committed
        assertThat(undo.exit()).as(undo.toString()).isEqualTo(ExitCodes.SUCCESS);
        for (UUID caseId : cases) {
            assertThat(row("case_assignments", caseId)).as("case " + caseId).containsEntry("assignment_revision", 3L)
                    .containsEntry("assigned_worker_sub", "w-3").containsEntry("supervisor_sub", "s-3");
        }
    }

    @Test
    void shouldRefuseToRebuildFromTruncatedHistoryNamingThePartitionAndItsFirstOffset() throws Exception {
        // Given a case at revision 7 whose history up to a redelivered revision 3 was deleted from the topic
        UUID caseId = UUID.randomUUID();
        List<RecordMetadata> sent = publishReturning(history(caseId, 7, "georgia"));
        RecordMetadata redelivered = publishReturning(List.of(CaseEvents.changed(caseId, 3).worker("w-3").supervisor("s-3")
                .jurisdiction("georgia").build())).get(0);
        assertThat(sent).allMatch(m -> m.partition() == redelivered.partition());
        Rows.assignment(caseId).worker("w-7").supervisor("s-7").revision(7).jurisdiction("georgia").insert(jdbc);
        deleteRecordsBefore(redelivered);

        // When
        Cli.Run refused = cli.run("rebuild", "--topics", topic, "--progress", "none");

        // Then it names what is missing and changes nothing
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(refused.err()).contains(topic + "-" + redelivered.partition() + " starts at offset " + redelivered.offset())
                .contains("--from-snapshot");
        assertThat(row("case_assignments", caseId)).containsEntry("assignment_revision", 7L);
        assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_previous') IS NULL", Boolean.class)).isTrue();
    }

    @Test
    void shouldNameEveryTruncatedPartitionAndItsFirstOffsetWhenMoreThanOneIsCut() throws Exception {
        // Given histories on every partition, two of which lost their first records
        Map<Integer, List<RecordMetadata>> byPartition = new java.util.HashMap<>();
        java.util.function.BooleanSupplier fourOnEach = () -> byPartition.size() == 3
                && byPartition.values().stream().allMatch(records -> records.size() >= 4);
        for (int cases = 0; cases < 300 && !fourOnEach.getAsBoolean(); cases++) {
            publishReturning(history(UUID.randomUUID(), 1, "georgia"))
                    .forEach(m -> byPartition.computeIfAbsent(m.partition(), p -> new ArrayList<>()).add(m));
        }
        assertThat(fourOnEach.getAsBoolean()).as("four records or more on every partition: " + byPartition).isTrue();
        RecordMetadata firstKept = byPartition.get(0).get(1);
        RecordMetadata otherKept = byPartition.get(2).get(3);
        deleteRecordsBefore(firstKept);
        deleteRecordsBefore(otherKept);

        // When
        Cli.Run refused = cli.run("rebuild", "--topics", topic, "--progress", "none");

        // Then both are named, in order, with where each starts now, and nothing was created
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(refused.err()).contains("the history is truncated: " + topic + "-0 starts at offset "
                + firstKept.offset() + ", " + topic + "-2 starts at offset " + otherKept.offset() + " (");
        assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_rebuild') IS NULL", Boolean.class)).isTrue();
    }

    @Test
    void shouldRebuildTruncatedHistoryOnTopOfTheSnapshotItIsGiven(@TempDir Path dir) throws Exception {
        // Given a case at revision 7 whose history up to a redelivered revision 3 was deleted, and a snapshot of it at 7
        UUID caseId = UUID.randomUUID();
        publishReturning(history(caseId, 7, "georgia"));
        RecordMetadata redelivered = publishReturning(List.of(CaseEvents.changed(caseId, 3).worker("w-3").supervisor("s-3")
                .jurisdiction("georgia").build())).get(0);
        UUID later = UUID.randomUUID();
        publish(history(later, 2, "texas"));
        Rows.assignment(caseId).worker("w-7").supervisor("s-7").revision(7).jurisdiction("georgia").insert(jdbc);
        deleteRecordsBefore(redelivered);
        Path snapshot = dir.resolve("snapshot.csv");
        Files.writeString(snapshot, "case_id,assigned_worker_sub,supervisor_sub,assignment_revision,jurisdiction\n"
                + caseId + ",w-7,s-7,7,georgia\n");

        // When
        Cli.Run run = cli.run("rebuild", "--topics", topic, "--progress", "none", "--from-snapshot", snapshot.toString());

        // Then the snapshot seeded the shadow and the events that remain went on top of it
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(row("case_assignments", caseId)).containsEntry("assignment_revision", 7L)
                .containsEntry("assigned_worker_sub", "w-7");
        assertThat(row("case_assignments", later)).containsEntry("assignment_revision", 2L);
    }

    @Test
    void shouldNotLowerARowBelowTheLiveRevisionUnlessAllowedAndSayItFirstOnTheDryRun() {
        // Given a case stored at an inflated revision no event explains
        UUID inflated = UUID.randomUUID();
        publish(history(inflated, 2, "georgia"));
        Rows.assignment(inflated).worker("from-a-bad-snapshot").revision(41).jurisdiction("georgia").insert(jdbc);

        // When / Then the dry run says what a swap needs, a swap without it refuses, and one with it lowers the row
        Cli.Run dryRun = cli.run("rebuild", "--topics", topic, "--dry-run", "--progress", "none");
        assertThat(dryRun.out()).containsPattern("rows a swap would lower \\(needs --allow-lower\\)\\s+1\\n");
        Cli.Run refused = cli.run("rebuild", "--topics", topic, "--progress", "none");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(refused.out()).contains("not swapped").contains("--allow-lower");
        assertThat(row("case_assignments", inflated)).containsEntry("assignment_revision", 41L);
        assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_previous') IS NULL", Boolean.class)).isTrue();

        Cli.Run allowed = cli.run("rebuild", "--topics", topic, "--progress", "none", "--allow-lower");
        assertThat(allowed.exit()).as(allowed.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(row("case_assignments", inflated)).containsEntry("assignment_revision", 2L);
    }

    @Test
    void shouldNotDropACaseASnapshotLoadCommitsWhileTheSwapWaitsForItsLock() throws Exception {
        // Given a history, and a snapshot load inserting a case no event knows
        publish(history(UUID.randomUUID(), 1, "georgia"));
        UUID fromSnapshot = UUID.randomUUID();

        // When the load commits while the rebuild, having compared the tables without it, waits for the lock
        Cli.Run run = rebuildWhileASnapshotLoadCommits(AssignmentUpdate.snapshot(fromSnapshot, "w-s", "s-s", 4)
                .withJurisdiction("texas"));

        // Then the check under the lock saw the case and refused the swap
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.FINISHED_WITH_REJECTS);
        assertThat(run.out()).contains("not swapped").contains("1 cases of the live table are in no event");
        assertThat(row("case_assignments", fromSnapshot)).containsEntry("assignment_revision", 4L);
    }

    @Test
    void shouldKeepAJurisdictionASnapshotLoadFillsInWhileTheSwapWaitsForItsLock() throws Exception {
        // Given a case whose events carry no jurisdiction, and a snapshot load filling it in
        UUID caseId = UUID.randomUUID();
        publish(history(caseId, 1, null));
        Rows.assignment(caseId).worker("w-1").supervisor("s-1").revision(1).jurisdiction(null).insert(jdbc);

        // When the load commits while the rebuild, having carried jurisdictions over without it, waits for the lock
        Cli.Run run = rebuildWhileASnapshotLoadCommits(AssignmentUpdate.snapshot(caseId, "w-1", "s-1", 1)
                .withJurisdiction("texas"));

        // Then the swapped-in row has it
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.SUCCESS);
        assertThat(row("case_assignments", caseId)).containsEntry("jurisdiction", "texas");
    }

    @Test
    void shouldRefuseToStartWhenTheFirstRecordsAreFramedForARegistryNoSettingNames() throws Exception {
        // Given a live case, and its events in the Confluent framing while the rebuild has no schema registry configured
        UUID caseId = UUID.randomUUID();
        try (RegistryStub registry = new RegistryStub();
             EventPublisher publisher = new EventPublisher(Map.of(SerdeSettings.REGISTRY_URL, registry.url().toString()))) {
            publisher.publishInOrder(topic, history(caseId, 1, "georgia"));
        }
        Rows.assignment(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);

        // When
        Cli.Run run = cli.run("rebuild", "--topics", topic, "--progress", "none", "--allow-missing-cases");

        // Then it refuses instead of swapping in a table without the cases it could not read
        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(run.err()).contains("framed for a schema registry").contains("SCHEMA_REGISTRY_URL");
        assertThat(row("case_assignments", caseId)).containsEntry("assignment_revision", 1L);
        assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_previous') IS NULL", Boolean.class)).isTrue();
    }

    /** A run, and the table put in the projection's place while it waited for the projection's lock. */
    private record Restored(Cli.Run run, long oid) {
    }

    /**
     * A run started behind a transaction holding the projection, which, once the run waits for the projection's lock,
     * puts another table in its place ({@link ProjectionByHand}) and commits.
     */
    private Restored whileTheProjectionIsRestoredByHand(String... arguments) throws Exception {
        return whileTheProjectionIsRestoredByHandWith("SELECT 1", arguments);
    }

    /** As {@link #whileTheProjectionIsRestoredByHand(String...)}, with {@code thenSql} run on the copy before it commits. */
    private Restored whileTheProjectionIsRestoredByHandWith(String thenSql, String... arguments) throws Exception {
        try (Connection operator = connection()) {
            HeldLocks.share(operator, "case_assignments");
            CompletableFuture<Cli.Run> run = CompletableFuture.supplyAsync(() -> cli.run(arguments));
            HeldLocks.projectionLock(jdbc, false, false);
            long restored = ProjectionByHand.replace(operator, thenSql);
            return new Restored(run.get(60, TimeUnit.SECONDS), restored);
        }
    }

    /** A rebuild that starts while a snapshot load's transaction holds {@code update}, which commits once the swap waits. */
    private Cli.Run rebuildWhileASnapshotLoadCommits(AssignmentUpdate update) throws Exception {
        try (Connection load = connection()) {
            load.setAutoCommit(false);
            new AssignmentWriter(new JdbcTemplate(new SingleConnectionDataSource(load, true))).apply(List.of(update));
            CompletableFuture<Cli.Run> rebuild = CompletableFuture.supplyAsync(() -> cli.run("rebuild", "--topics", topic,
                    "--progress", "none", "--swap-lock-timeout-ms", "60000"));
            awaitSwapWaitingForTheLock();
            load.commit();
            return rebuild.get(60, TimeUnit.SECONDS);
        }
    }

    /** {@code case.created} then changes up to {@code revision}; worker and supervisor {@code w-N}/{@code s-N}. */
    private static List<SpecificRecord> history(UUID caseId, long revision, String jurisdiction) {
        List<SpecificRecord> events = new ArrayList<>();
        events.add(CaseEvents.created(caseId).worker("w-0").supervisor("s-0").jurisdiction(jurisdiction).build());
        for (long r = 1; r <= revision; r++) {
            events.add(CaseEvents.changed(caseId, r).worker("w-" + r).supervisor("s-" + r).jurisdiction(jurisdiction).build());
        }
        return events;
    }

    private List<RecordMetadata> publishReturning(List<? extends SpecificRecord> events) {
        try (EventPublisher publisher = new EventPublisher()) {
            return publisher.publishInOrder(topic, events);
        }
    }

    /** What retention or {@code deleteRecords} does: the partition of {@code first} starts at it. */
    private static void deleteRecordsBefore(RecordMetadata first) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers()))) {
            admin.deleteRecords(Map.of(new TopicPartition(first.topic(), first.partition()),
                    RecordsToDelete.beforeOffset(first.offset()))).all().get(30, TimeUnit.SECONDS);
        }
    }

    /** A swap's lock request more than a second younger than the newest shadow row: an attempt after one gave way. */
    private void awaitALockAttemptStartedLongAfterTheShadowWasWritten() {
        // The rebuild runs on its own thread: until it has created the shadow, the query names no table yet.
        Awaitility.await("a lock attempt starting more than a second after the shadow was written")
                .atMost(Duration.ofSeconds(60)).ignoreExceptionsInstanceOf(BadSqlGrammarException.class)
                .until(() -> jdbc.queryForObject("""
                        SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_stat_activity a ON a.pid = l.pid
                         WHERE c.relname = 'case_assignments' AND l.mode = 'AccessExclusiveLock' AND NOT l.granted
                           AND a.xact_start > (SELECT max(updated_at) FROM case_assignments_rebuild) + interval '1200 milliseconds'
                        """, Integer.class) == 1);
    }

    @SafeVarargs
    private void publish(List<? extends SpecificRecord>... histories) {
        try (EventPublisher publisher = new EventPublisher()) {
            for (List<? extends SpecificRecord> history : histories) {
                publisher.publishInOrder(topic, history);
            }
        }
    }

    private long oid(String table) {
        return jdbc.queryForObject("SELECT to_regclass(?)::oid::bigint", Long.class, table);
    }

    private Map<String, Object> row(String table, UUID caseId) {
        List<Map<String, Object>> rows = jdbc.queryForList("SELECT case_id, assigned_worker_sub, supervisor_sub, "
                + "assignment_revision, jurisdiction FROM " + table + " WHERE case_id = ?", caseId);
        return rows.isEmpty() ? Map.of() : rows.get(0);
    }

    private void awaitSwapWaitingForTheLock() {
        Awaitility.await("the swap to wait for the projection's ACCESS EXCLUSIVE lock").atMost(Duration.ofSeconds(60))
                .until(() -> jdbc.queryForObject("""
                        SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                         WHERE c.relname = 'case_assignments' AND l.mode = 'AccessExclusiveLock' AND NOT l.granted
                        """, Integer.class) == 1);
    }

    /** This run's swap or undo once it holds the projection's lock and waits under it, named as the run is: ended. */
    /** A swap that lowered a row stored at an inflated revision 30 to its history's revision 1: that case's id. */
    private UUID swappedOverAnInflatedRow() {
        UUID inflated = UUID.randomUUID();
        publish(history(inflated, 1, "georgia"));
        Rows.assignment(inflated).worker("inflated").revision(30).jurisdiction("georgia").insert(jdbc);
        assertThat(cli.run("rebuild", "--topics", topic, "--progress", "none", "--allow-lower").exit())
                .isEqualTo(ExitCodes.SUCCESS);
        return inflated;
    }

    /** An undo started while {@code holder} holds the previous table: granted the projection's lock, held up under it. */
    private CompletableFuture<Cli.Run> undoHeldUpUnderTheLock(Connection holder) throws Exception {
        HeldLocks.share(holder, "case_assignments_previous");
        return CompletableFuture.supplyAsync(() -> cli.run("rebuild", "--undo", "--swap-within", "60s",
                "--swap-lock-timeout", "60s"));
    }

    private void endTheSessionHoldingTheProjection() {
        int pid = HeldLocks.projectionLock(jdbc, true, true);
        assertThat(jdbc.queryForObject("SELECT application_name FROM pg_stat_activity WHERE pid = ?", String.class, pid))
                .as("the session holding the lock, named as the run is").startsWith("backfill rebuild pid ");
        assertThat(jdbc.queryForObject("SELECT pg_terminate_backend(?)", Boolean.class, pid)).isTrue();
    }

    private void awaitBackendsWaitingForALock(int backends) {
        Awaitility.await(backends + " backends waiting for a lock").atMost(Duration.ofSeconds(30))
                .until(() -> jdbc.queryForObject("""
                        SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                        """, Integer.class) == backends);
    }

    /** A connection of its own that prepares every statement on the server from its first execution. */
    private static Connection connection() throws Exception {
        Connection connection = DriverManager.getConnection(DB.jdbcUrl(), DB.username(), DB.password());
        connection.unwrap(PGConnection.class).setPrepareThreshold(1);
        return connection;
    }

    private static String readForShare(PreparedStatement ps, UUID caseId) throws Exception {
        ps.setObject(1, caseId);
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getString(1) + "@" + rs.getLong(2) : "none";
        }
    }
}
