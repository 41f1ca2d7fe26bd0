package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.FixedBackOff;

/**
 * Statement timeouts and the rows per transaction (decision 48): a wait for a row lock another transaction holds is
 * the database's state and shrinks nothing; a statement that is slow on its own shrinks the transactions of the
 * thread that wrote it, no other; a batch retried after a timeout resumes after the part of it that committed.
 */
class BatchWriterTimeoutIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    static {
        // Sleeps past the statement timeout in the first two writes of a worker named 'slow', then lets it through.
        DB.jdbc().execute("""
                CREATE SEQUENCE test_slow_attempts;
                CREATE FUNCTION test_slow() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.assigned_worker_sub = 'slow' AND nextval('test_slow_attempts') <= 2 THEN
                        PERFORM pg_sleep(5);
                    END IF;
                    RETURN NEW;
                END $$;
                CREATE TRIGGER test_slow BEFORE INSERT OR UPDATE ON case_assignments
                   FOR EACH ROW EXECUTE FUNCTION test_slow()""");
    }

    /**
     * Connections whose statements time out after 2 s, one per transaction: well above what a write of a few rows
     * takes on a loaded machine, well below the slow trigger's sleep.
     */
    private final DriverManagerDataSource timingOut = new DriverManagerDataSource(
            DB.jdbcUrl() + (DB.jdbcUrl().contains("?") ? "&" : "?") + "options=-c%20statement_timeout%3D2000",
            DB.username(), DB.password());
    private final JdbcTemplate jdbc = DB.jdbc();
    private final TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(timingOut));
    private final AtomicInteger failed = new AtomicInteger();
    private final BatchWriter writer = new BatchWriter(transaction, new AssignmentWriter(new JdbcTemplate(timingOut)),
            new WriteMetrics(new SimpleMeterRegistry(), "test"), new FixedBackOff(20, FixedBackOff.UNLIMITED_ATTEMPTS),
            new StopSignal(), new WriterHealth(Clock.systemUTC(), false) {
                @Override
                public void failed(RuntimeException error) {
                    failed.incrementAndGet();
                }
            });

    @Test
    void shouldNotShrinkAnyThreadsTransactionsForARowLockedLongerThanTheStatementTimeout() throws Exception {
        // Given a case whose row another transaction holds longer than the statement timeout
        UUID held = UUID.randomUUID();
        jdbc.update("INSERT INTO case_assignments (case_id, assigned_worker_sub, supervisor_sub, assignment_revision) "
                + "VALUES (?, 'w-0', 's', 0)", held);
        List<UUID> first = List.of(held, UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
        List<UUID> second = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
        try (Connection holder = DB.dataSource().getConnection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement("SELECT 1 FROM case_assignments WHERE case_id = ? FOR UPDATE")) {
                lock.setObject(1, held);
                lock.executeQuery().close();
            }

            // When one thread's batch with that case times out waiting for it
            CompletableFuture<BatchWriter.Written<AssignmentUpdate>> waiting = CompletableFuture.supplyAsync(
                    () -> writer.write(BatchReduction.reduce(updates(first))));
            await().atMost(Duration.ofSeconds(30)).alias("the batch with the held case timed out once")
                    .until(() -> failed.get() >= 1);
            // and another thread writes a batch of other cases meanwhile
            CompletableFuture.supplyAsync(() -> writer.write(BatchReduction.reduce(updates(second)))).get(30, TimeUnit.SECONDS);

            // Then that batch is one transaction
            assertThat(transactionsOf(second)).as("transactions of the other thread's batch").isEqualTo(1);
            // and once the lock is released, the waiting batch is written whole, in one transaction too
            holder.commit();
            assertThat(waiting.get(30, TimeUnit.SECONDS).result().advancedCases()).containsExactly(held);
            assertThat(transactionsOf(first)).as("transactions of the batch that waited").isEqualTo(1);
        }
    }

    @Test
    void shouldResumeABatchRetriedAfterATimeoutAfterItsCommittedPartAndCountThatPartAsWritten() {
        // Given a batch whose last row is slow past the statement timeout twice (the first try, then its own part)
        jdbc.execute("SELECT setval('test_slow_attempts', 1, false)");
        List<UUID> ids = inWrittenOrder(3);
        UUID a = ids.get(0);
        UUID b = ids.get(1);
        UUID slow = ids.get(2);
        List<AssignmentUpdate> batch = List.of(AssignmentUpdate.changed(a, "w-a", "s", 1),
                AssignmentUpdate.changed(b, "w-b", "s", 1), AssignmentUpdate.changed(slow, "slow", "s", 1));

        // When
        BatchWriter.Written<AssignmentUpdate> written = writer.write(BatchReduction.reduce(batch, u -> u, u -> Instant.now()));

        // Then the part written before the slow row is counted as inserted, not as unchanged by the retry
        assertThat(failed.get()).isEqualTo(1);
        assertThat(written.result().insertedCases()).containsExactlyInAnyOrder(a, b, slow);
    }

    @Test
    void shouldShrinkTheTransactionsOfTheThreadWhoseWriteWasSlowAndNotThoseOfAnother() throws Exception {
        // Given a batch whose last row is slow past the statement timeout twice, written by thread A
        jdbc.execute("SELECT setval('test_slow_attempts', 1, false)");
        ExecutorService threadA = Executors.newSingleThreadExecutor();
        ExecutorService threadB = Executors.newSingleThreadExecutor();
        try {
            List<UUID> ids = inWrittenOrder(3);
            List<AssignmentUpdate> slowBatch = List.of(AssignmentUpdate.changed(ids.get(0), "w-a", "s", 1),
                    AssignmentUpdate.changed(ids.get(1), "w-b", "s", 1),
                    AssignmentUpdate.changed(ids.get(2), "slow", "s", 1));
            threadA.submit(() -> writer.write(BatchReduction.reduce(slowBatch))).get(60, TimeUnit.SECONDS);
            assertThat(failed.get()).as("the slow batch's attempts that failed").isEqualTo(1);

            // When each thread writes a batch of four other cases
            List<UUID> ofA = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
            List<UUID> ofB = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
            threadB.submit(() -> writer.write(BatchReduction.reduce(updates(ofB)))).get(30, TimeUnit.SECONDS);
            threadA.submit(() -> writer.write(BatchReduction.reduce(updates(ofA)))).get(30, TimeUnit.SECONDS);

            // Then thread A writes it in smaller transactions, thread B in one
            assertThat(transactionsOf(ofB)).as("transactions of thread B's batch").isEqualTo(1);
            assertThat(transactionsOf(ofA)).as("transactions of thread A's batch").isGreaterThan(1);
        } finally {
            threadA.shutdownNow();
            threadB.shutdownNow();
        }
    }

    private static List<AssignmentUpdate> updates(List<UUID> cases) {
        return cases.stream().map(id -> AssignmentUpdate.changed(id, "w-1", "s", 1)).toList();
    }

    /** How many transactions wrote the projection rows of {@code cases}. */
    private long transactionsOf(List<UUID> cases) {
        return jdbc.queryForObject("SELECT count(DISTINCT xmin::text) FROM case_assignments WHERE case_id = ANY (?::uuid[])",
                Long.class, (Object) cases.stream().map(UUID::toString).toArray(String[]::new));
    }

    /** Random case ids in the order a batch is written, PostgreSQL's: the last is the batch's last row. */
    private static List<UUID> inWrittenOrder(int count) {
        return java.util.stream.Stream.generate(UUID::randomUUID).limit(count).sorted(CaseIds.POSTGRES_ORDER).toList();
    }
}
