package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.caseassignments.testkit.RefusingTrigger;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.FixedBackOff;

/**
 * The writer's give-up condition holds in the isolation too: once asked to stop while it isolates a refused row, it
 * begins no transaction more and returns, leaving the rest of the batch unwritten.
 */
class BatchWriterStopIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    static {
        RefusingTrigger.refusing(DB.jdbc(), "poison");
    }

    private final JdbcTemplate jdbc = DB.jdbc();
    private final TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(DB.dataSource()));

    @Test
    void shouldBeginNoTransactionMoreOnceAskedToStopWhileIsolatingARefusedRow() throws Exception {
        // Given three cases in PostgreSQL's order: the first refused by a trigger (isolated after three tries of the
        // batch), the second's row locked by another transaction, the third good
        List<UUID> ids = new ArrayList<>(List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID()));
        ids.sort(CaseIds.POSTGRES_ORDER);
        UUID refused = ids.get(0);
        UUID locked = ids.get(1);
        UUID last = ids.get(2);
        jdbc.update("INSERT INTO case_assignments (case_id, assigned_worker_sub, supervisor_sub, assignment_revision) "
                + "VALUES (?, 'w', 's', 0)", locked);
        StopSignal stop = new StopSignal();
        BatchWriter writer = new BatchWriter(transaction, new AssignmentWriter(jdbc),
                new WriteMetrics(new SimpleMeterRegistry(), "test"), new FixedBackOff(1, Long.MAX_VALUE), stop,
                WriterHealth.unwatched());
        try (Connection holder = DB.dataSource().getConnection()) {
            holder.setAutoCommit(false);
            int holderPid;
            try (PreparedStatement lock = holder.prepareStatement(
                    "SELECT pg_backend_pid() FROM case_assignments WHERE case_id = ? FOR UPDATE")) {
                lock.setObject(1, locked);
                try (ResultSet rs = lock.executeQuery()) {
                    rs.next();
                    holderPid = rs.getInt(1);
                }
            }
            CompletableFuture<Object> writing = CompletableFuture.supplyAsync(() -> writer.write(BatchReduction.reduce(List.of(
                    AssignmentUpdate.changed(refused, "poison", "s", 1),
                    AssignmentUpdate.changed(locked, "w-locked", "s", 1),
                    AssignmentUpdate.changed(last, "w-last", "s", 1)))));

            // When the isolation waits for the locked row, and the writer is asked to stop
            await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                    "SELECT count(*) FROM pg_stat_activity WHERE ? = ANY (pg_blocking_pids(pid))", Integer.class,
                    holderPid) > 0);
            stop.raise();
            holder.commit();

            // Then it returns at once, failing, and writes no row after the one it was waiting for
            Throwable failure = null;
            try {
                writing.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                failure = e.getCause();
            }
            assertThat(failure).as("the writer's failure").isInstanceOf(BatchIsolation.Stopped.class);
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignments WHERE case_id = ?", Integer.class, last))
                .isZero();
    }
}
