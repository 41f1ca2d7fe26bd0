package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.FixedBackOff;

/**
 * A full NOTIFY queue is the database's state, not the rows': every transaction that notifies fails its commit with
 * 54000 until the listeners read, so the writer retries and dead-letters nothing (decision 48). The queue is filled
 * for real, on a server whose queue holds 64 pages (512 kB), behind a listener that stays in a transaction.
 */
class NotifyQueueIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migratedOnAServerWith(Map.of("max_notify_queue_pages", "64"));

    private final JdbcTemplate jdbc = DB.jdbc();
    private final TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(DB.dataSource()));

    @Test
    void shouldRetryABatchWhileTheNotifyQueueIsFullAndApplyItOnceTheListenerReadsWithNoScrapeDeadLetteringNothing() throws Exception {
        // Given a listener that does not read (it stays in a transaction) and a NOTIFY queue filled behind it
        try (Connection listener = DB.dataSource().getConnection()) {
            try (Statement statement = listener.createStatement()) {
                statement.execute("LISTEN " + AssignmentWriter.MOVED_CHANNEL);
                listener.setAutoCommit(false);
                statement.execute("SELECT 1");
            }
            fillTheNotifyQueue();
            AtomicInteger failed = new AtomicInteger();
            BatchWriter writer = new BatchWriter(transaction, new AssignmentWriter(jdbc),
                    new WriteMetrics(new SimpleMeterRegistry(), "test"), new FixedBackOff(20, FixedBackOff.UNLIMITED_ATTEMPTS),
                    new StopSignal(), new WriterHealth(Clock.systemUTC(), false) {
                        @Override
                        public void failed(RuntimeException error) {
                            failed.incrementAndGet();
                        }
                    });
            List<AssignmentUpdate> batch = List.of(AssignmentUpdate.changed(UUID.randomUUID(), "w-1", "s", 1),
                    AssignmentUpdate.changed(UUID.randomUUID(), "w-2", "s", 1),
                    AssignmentUpdate.changed(UUID.randomUUID(), "w-3", "s", 1));

            // When the projector writes a batch that moves rows
            CompletableFuture<BatchWriter.Written<AssignmentUpdate>> written = CompletableFuture.supplyAsync(
                    () -> writer.write(BatchReduction.reduce(batch)));
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                    .alias("the batch written, or failed past the attempts before isolation")
                    .until(() -> written.isDone() || failed.get() > BatchWriter.SAME_BATCH_ATTEMPTS + 2);

            // Then it is retried, not isolated, while the queue stays full
            assertThat(written).as("the batch while the NOTIFY queue is full").isNotDone();
            // and once the listener reads, the whole batch is applied and none of it refused, with no one else
            // reading pg_notification_queue_usage() (PostgreSQL moves the queue's tail past what was read when a
            // notifier fills pages, which none can while the queue is full, or when that function is called: the
            // writer calls it itself after a 54000, it does not wait for a scrape of the projector's meter)
            listener.commit();
            PGConnection reading = listener.unwrap(PGConnection.class);
            await().atMost(Duration.ofSeconds(30)).alias("the listener reading the queue").until(() -> {
                reading.getNotifications(100);
                try (Statement statement = listener.createStatement()) {
                    statement.execute("SELECT 1");
                }
                listener.commit();
                return written.isDone();
            });
            assertThat(written.get(30, TimeUnit.SECONDS).refused()).isEmpty();
            assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignments WHERE case_id = ANY (?::uuid[])",
                    Long.class, (Object) batch.stream().map(u -> u.caseId().toString()).toArray(String[]::new)))
                    .isEqualTo(3);
        }
    }

    /** Notifies, in transactions of their own, until PostgreSQL refuses even the smallest notification. */
    private void fillTheNotifyQueue() throws SQLException {
        try (Connection notifier = DB.dataSource().getConnection(); Statement statement = notifier.createStatement()) {
            for (String notify : List.of("SELECT pg_notify('test_filler', repeat('x', 7000) || g) FROM generate_series(1, 8) g",
                    "NOTIFY " + AssignmentWriter.MOVED_CHANNEL)) {
                int sent = 0;
                while (true) {
                    try {
                        statement.execute(notify + (notify.startsWith("NOTIFY") ? ", '" + sent++ + "'" : ""));
                    } catch (SQLException full) {
                        assertThat(full.getSQLState()).as(full.getMessage()).isEqualTo("54000");
                        break;
                    }
                }
            }
        }
        assertThat(jdbc.queryForObject("SELECT pg_notification_queue_usage()", Double.class)).isGreaterThan(0.9);
    }
}
