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
