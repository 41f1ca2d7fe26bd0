package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.caseassignments.testkit.RefusingTrigger;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The projector's side of the cases' queue (decision 33): a batch no one else holds takes no advisory lock at all
 * (a backlog batch must not fill the lock table), and a batch with a case an API write holds queues for that case
 * alone, waits in the queue (shown by {@code pg_locks}, not by a pause), and then writes the whole batch.
 */
class CaseQueueIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final String QUEUES_HELD = """
            SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'advisory' AND granted
            """;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(DB.dataSource()));

    @Test
    void shouldTakeNoQueueForABatchNoOtherTransactionHolds() {
        List<AssignmentUpdate> batch = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            batch.add(AssignmentUpdate.changed(UUID.randomUUID(), "w-1", "s-1", 1));
        }

        Long queues = transaction.execute(status -> {
            ApplyResult result = new AssignmentWriter(jdbc).apply(batch);
            assertThat(result.insertedCases()).hasSize(batch.size());
            return jdbc.queryForObject(QUEUES_HELD, Long.class);
        });

        assertThat(queues).isZero();
    }

    @Test
    void shouldQueueOnlyForTheCaseAnApiWriteHoldsThenWriteTheWholeBatch() throws Exception {
        UUID held = UUID.randomUUID();
        List<UUID> cases = List.of(UUID.randomUUID(), held, UUID.randomUUID());
        new AssignmentWriter(jdbc).apply(cases.stream().map(id -> AssignmentUpdate.changed(id, "w-old", "s-1", 1)).toList());
        AtomicInteger writerPid = new AtomicInteger();

        try (Connection apiWrite = DB.dataSource().getConnection()) {
            apiWrite.setAutoCommit(false);
            holdAsAnApiWrite(apiWrite, held);
            CompletableFuture<Long> queued = CompletableFuture.supplyAsync(() -> transaction.execute(status -> {
                writerPid.set(jdbc.queryForObject("SELECT pg_backend_pid()", Integer.class));
                ApplyResult result = new AssignmentWriter(jdbc).apply(
                        cases.stream().map(id -> AssignmentUpdate.changed(id, "w-new", "s-1", 2)).toList());
                assertThat(result.advancedCases()).containsExactlyInAnyOrderElementsOf(cases);
                return jdbc.queryForObject(QUEUES_HELD, Long.class);
            }));

            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                    .alias("the writer waiting in the held case's queue behind the API write")
                    .until(() -> jdbc.queryForObject("""
                            SELECT count(*) FROM pg_locks l
                             WHERE l.pid = ? AND l.locktype = 'advisory' AND NOT l.granted
                               AND ? = ANY (pg_blocking_pids(l.pid))
                            """, Long.class, writerPid.get(), pid(apiWrite)) == 1);
            apiWrite.commit();

            assertThat(queued.get(20, TimeUnit.SECONDS)).as("queues the writer held").isEqualTo(1);
        }
        assertThat(jdbc.queryForObject("""
                SELECT count(*) FROM case_assignments
                 WHERE case_id IN (?, ?, ?) AND assigned_worker_sub = 'w-new' AND assignment_revision = 2
                """, Long.class, cases.toArray())).isEqualTo(3);
    }

    @Test
    void shouldNotDeadlockWithTheEntityRepairOverCasesWhoseSignedAndUnsignedOrdersDiffer() throws Exception {
        // Given two cases that Java's UUID order and PostgreSQL's sort in opposite orders
        UUID low = UUID.fromString("0" + UUID.randomUUID().toString().substring(1));
        UUID high = UUID.fromString("f" + UUID.randomUUID().toString().substring(1));
        assertThat(high.compareTo(low)).as("Java's signed order").isNegative();
        new AssignmentWriter(jdbc).apply(List.of(AssignmentUpdate.changed(low, "w-old", "s-1", 1),
                AssignmentUpdate.changed(high, "w-old", "s-1", 1)));

        // When the projector's batch of both cases waits for the first (in PostgreSQL's order), which a repair holds
        ApplyResult written = writeWhileARepairRuns(low, List.of(high, low),
                () -> new AssignmentWriter(jdbc).apply(List.of(AssignmentUpdate.changed(low, "w-new", "s-1", 2),
                        AssignmentUpdate.changed(high, "w-new", "s-1", 2))));

        // Then both finish: the projector held no row of the two while it waited for the first
        assertThat(written.advancedCases()).containsExactlyInAnyOrder(low, high);
    }

    @Test
    void shouldLockTheRowsOfABatchHoldingLowerRevisionsOfACaseInOneOrderAndNotDeadlockWithTheEntityRepair()
            throws Exception {
        // Given two stored cases in PostgreSQL's order, on a projection with a trigger of its own
        UUID first = UUID.fromString("1" + UUID.randomUUID().toString().substring(1));
        UUID second = UUID.fromString("e" + UUID.randomUUID().toString().substring(1));
        new AssignmentWriter(jdbc).apply(List.of(AssignmentUpdate.changed(first, "w-old", "s-1", 1),
                AssignmentUpdate.changed(second, "w-old", "s-1", 1)));
        AssignmentUpdate firstKept = AssignmentUpdate.changed(first, "w-new", "s-1", 2);
        AssignmentUpdate secondLower = AssignmentUpdate.changed(second, "w-between", "s-1", 2);
        AssignmentUpdate secondKept = AssignmentUpdate.changed(second, "w-new", "s-1", 3);

        try (RefusingTrigger ignored = RefusingTrigger.refusing(jdbc, "w-never-assigned")) {
            // When the projector's batch of both cases, holding two revisions of the second, waits for the first,
            // which a repair holds
            ApplyResult written = writeWhileARepairRuns(first, List.of(second, first),
                    () -> new AssignmentWriter(jdbc).apply(List.of(firstKept, secondKept),
                            SeenRevision.of(List.of(firstKept, secondLower, secondKept))));

            // Then both finish: waiting for the first case, the projector held no row of the second
            assertThat(written.advancedCases()).containsExactlyInAnyOrder(first, second);
        }
        assertThat(jdbc.queryForList("SELECT assignment_revision FROM case_assignments WHERE case_id IN (?, ?)",
                Long.class, first, second)).containsExactlyInAnyOrder(2L, 3L);
    }

    @Test
    void shouldQueueForAtMostTheCapWhileABulkWriterHolds60000RowsAndLetWritesOfOtherCasesThrough() throws Exception {
        // Given 60,000 cases whose rows a bulk writer holds (an assignments batch, a repair, a second projector)
        String bulkWorker = "w-bulk-" + UUID.randomUUID();
        jdbc.update("""
                INSERT INTO case_assignments (case_id, assigned_worker_sub, supervisor_sub, assignment_revision)
                SELECT gen_random_uuid(), ?, 's-1', 1 FROM generate_series(1, 60000)
                """, bulkWorker);
        List<UUID> held = jdbc.queryForList("SELECT case_id FROM case_assignments WHERE assigned_worker_sub = ?",
                UUID.class, bulkWorker);
        UUID other = UUID.randomUUID();
        new AssignmentWriter(jdbc).apply(List.of(AssignmentUpdate.changed(other, "w-old", "s-1", 1)));
        AtomicInteger writerPid = new AtomicInteger();
        int cap = AssignmentWriter.DEFAULT_MAX_QUEUED_CASES;

        try (Connection bulk = DB.dataSource().getConnection()) {
            bulk.setAutoCommit(false);
            try (PreparedStatement hold = bulk.prepareStatement(
                    "UPDATE case_assignments SET updated_at = now() WHERE assigned_worker_sub = ?")) {
                hold.setString(1, bulkWorker);
                assertThat(hold.executeUpdate()).isEqualTo(60_000);
            }
            // When the projector writes a batch of all of them
            CompletableFuture<ApplyResult> projector = CompletableFuture.supplyAsync(() -> transaction.execute(status -> {
                writerPid.set(jdbc.queryForObject("SELECT pg_backend_pid()", Integer.class));
                return new AssignmentWriter(jdbc).apply(
                        held.stream().map(id -> AssignmentUpdate.changed(id, "w-new", "s-1", 2)).toList());
            }));
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .alias("the projector failed, or queued and waiting for a row the bulk writer holds")
                    .until(() -> projector.isDone() || writerPid.get() != 0 && queuesHeld(writerPid.get()) > 0
                            && blockedBy(writerPid.get(), pid(bulk)));

            // Then it waits holding at most the cap of queues, and an API write of another case goes through meanwhile
            assertThat(projector).as("the projector's batch while the bulk writer holds its rows").isNotDone();
            assertThat(queuesHeld(writerPid.get())).isEqualTo(cap);
            try (Connection apiWrite = DB.dataSource().getConnection()) {
                apiWrite.setAutoCommit(false);
                holdAsAnApiWrite(apiWrite, other);
                apiWrite.commit();
            }
            bulk.commit();
            assertThat(projector.get(60, TimeUnit.SECONDS).advancedCases()).hasSize(60_000);
        }
    }

    @Test
    void shouldQueueFirstForTheCaseAnApiWriteHoldsWhenMoreThanTheCapAreContendedAndWriteItAheadOfTheNextApiWrite()
            throws Exception {
        // Given two cases, the one a bulk writer holds first in key order, the one API writes hold second, and a cap of one
        UUID[] pair = {UUID.randomUUID(), UUID.randomUUID()};
        if (queueKeyOf(pair[0]) > queueKeyOf(pair[1])) {
            pair = new UUID[] {pair[1], pair[0]};
        }
        UUID bulkHeld = pair[0];
        UUID apiHeld = pair[1];
        new AssignmentWriter(jdbc).apply(List.of(AssignmentUpdate.changed(bulkHeld, "w-old", "s-1", 1),
                AssignmentUpdate.changed(apiHeld, "w-old", "s-1", 1)));
        AtomicInteger writerPid = new AtomicInteger();

        try (Connection bulk = DB.dataSource().getConnection();
             Connection firstApiWrite = DB.dataSource().getConnection();
             Connection nextApiWrite = DB.dataSource().getConnection()) {
            bulk.setAutoCommit(false);
            firstApiWrite.setAutoCommit(false);
            nextApiWrite.setAutoCommit(false);
            int nextApiWritePid = pid(nextApiWrite);
            try (PreparedStatement hold = bulk.prepareStatement("UPDATE case_assignments SET updated_at = now() WHERE case_id = ?")) {
                hold.setObject(1, bulkHeld);
                assertThat(hold.executeUpdate()).isEqualTo(1);
            }
            holdAsAnApiWrite(firstApiWrite, apiHeld);
            // When the projector writes both with room for one queue
            CompletableFuture<ApplyResult> projector = CompletableFuture.supplyAsync(() -> transaction.execute(status -> {
                writerPid.set(jdbc.queryForObject("SELECT pg_backend_pid()", Integer.class));
                return new AssignmentWriter(jdbc, 1).apply(List.of(AssignmentUpdate.changed(bulkHeld, "w-new", "s-1", 2),
                        AssignmentUpdate.changed(apiHeld, "w-new", "s-1", 2)));
            }));
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                    .alias("the projector queued and waiting for the bulk writer or the first API write")
                    .until(() -> writerPid.get() != 0 && !queueKeysTaken(writerPid.get()).isEmpty()
                            && (blockedBy(writerPid.get(), pid(bulk)) || blockedBy(writerPid.get(), pid(firstApiWrite))));

            // Then its one queue is the API-written case's, and the next API write of that case waits behind it
            assertThat(queueKeysTaken(writerPid.get())).as("queues the projector took or waits for")
                    .containsExactly(queueKeyOf(apiHeld));
            CompletableFuture<Void> next = CompletableFuture.runAsync(() -> {
                try {
                    holdAsAnApiWrite(nextApiWrite, apiHeld);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                    .alias("the next API write waiting behind the projector")
                    .until(() -> blockedBy(nextApiWritePid, writerPid.get()));
            firstApiWrite.commit();
            bulk.commit();
            assertThat(projector.get(20, TimeUnit.SECONDS).advancedCases()).containsExactlyInAnyOrder(bulkHeld, apiHeld);
            next.get(20, TimeUnit.SECONDS);
            nextApiWrite.commit();
        }
    }

    /**
     * Writes {@code batch} as the projector while another transaction holds {@code held} FOR SHARE, as a repair batch
     * does; once the batch queued for it and waits for its row, runs the entity repair of {@code cases}, then lets
     * {@code held} go. The repair must finish: a batch that held a row after {@code held} while it waited deadlocks
     * with it.
     */
    private ApplyResult writeWhileARepairRuns(UUID held, List<UUID> cases, Supplier<ApplyResult> batch) throws Exception {
        AtomicInteger writerPid = new AtomicInteger();
        AtomicInteger repairPid = new AtomicInteger();
        try (Connection holder = DB.dataSource().getConnection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement share = holder.prepareStatement("SELECT 1 FROM case_assignments WHERE case_id = ? FOR SHARE")) {
                share.setObject(1, held);
                share.executeQuery().close();
            }
            CompletableFuture<ApplyResult> projector = CompletableFuture.supplyAsync(() -> transaction.execute(status -> {
                writerPid.set(jdbc.queryForObject("SELECT pg_backend_pid()", Integer.class));
                return batch.get();
            }));
            int holderPid = pid(holder);
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                    .alias("the projector queued (past its first try) and its upsert waiting for the held case's row")
                    .until(() -> writerPid.get() != 0 && queuesHeld(writerPid.get()) > 0 && blockedBy(writerPid.get(), holderPid));
            CompletableFuture<FollowedRows> repair = CompletableFuture.supplyAsync(() -> transaction.execute(status -> {
                repairPid.set(jdbc.queryForObject("SELECT pg_backend_pid()", Integer.class));
                return new AssignmentWriter(jdbc).repairFollowers(cases);
            }));
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                    .alias("the repair finished, or waiting for a row the projector holds")
                    .until(() -> repair.isDone() || repairPid.get() != 0 && blockedBy(repairPid.get(), writerPid.get()));
            holder.commit();

            assertThat(repair.get(20, TimeUnit.SECONDS)).isNotNull();
            return projector.get(20, TimeUnit.SECONDS);
        }
    }

    private int queueKeyOf(UUID caseId) {
        return jdbc.queryForObject("SELECT " + LockOrder.queueKey("?::uuid"), Integer.class, caseId);
    }

    private List<Integer> queueKeysTaken(int pid) {
        return jdbc.queryForList("""
                SELECT objid::integer FROM pg_locks
                 WHERE pid = ? AND locktype = 'advisory' AND classid = ?::oid AND objsubid = 2
                """, Integer.class, pid, AdvisoryLocks.CASE_QUEUE.namespace());
    }

    private void awaitBlocked(AtomicInteger waiter, int holder, String what) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20)).alias(what)
                .until(() -> waiter.get() != 0 && blockedBy(waiter.get(), holder));
    }

    private long queuesHeld(int pid) {
        return jdbc.queryForObject("SELECT count(*) FROM pg_locks WHERE pid = ? AND locktype = 'advisory' AND granted",
                Long.class, pid);
    }

    private boolean blockedBy(int waiter, int holder) {
        return Boolean.TRUE.equals(jdbc.queryForObject("SELECT ? = ANY (pg_blocking_pids(?))", Boolean.class, holder, waiter));
    }

    /** What an API write holds of a case: its queue shared, then its row {@code FOR SHARE} (LockOrder). */
    private static void holdAsAnApiWrite(Connection connection, UUID caseId) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT " + LockOrder.queueShared("?::uuid")
                + "; SELECT 1 FROM case_assignments WHERE case_id = ? FOR SHARE")) {
            statement.setObject(1, caseId);
            statement.setObject(2, caseId);
            statement.execute();
        }
    }

    private static int pid(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT pg_backend_pid()");
             ResultSet rs = statement.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
