package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.FixedBackOff;

class BatchWriterIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    static {
        DB.jdbc().execute("ALTER TABLE case_assignments ADD CONSTRAINT test_reject CHECK (assigned_worker_sub <> 'poison')");
        // Fails the first write of a worker named 'contended' with a serialization failure, then lets it through.
        DB.jdbc().execute("CREATE SEQUENCE test_attempts");
        DB.jdbc().execute("""
                CREATE FUNCTION test_serialization_failure() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.assigned_worker_sub = 'contended' THEN
                        IF nextval('test_attempts') = 1 THEN
                            RAISE EXCEPTION 'could not serialize access' USING ERRCODE = '40001';
                        END IF;
                    END IF;
                    RETURN NEW;
                END $$""");
        DB.jdbc().execute("""
                CREATE TRIGGER test_serialization_failure BEFORE INSERT OR UPDATE ON case_assignments
                   FOR EACH ROW EXECUTE FUNCTION test_serialization_failure()""");
    }

    private final JdbcTemplate jdbc = DB.jdbc();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final WriteMetrics metrics = new WriteMetrics(registry, "test");
    private final TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(DB.dataSource()));
    private final AssignmentWriter writer = new AssignmentWriter(jdbc);
    private final List<String> attempts = new ArrayList<>();
    private final WriterHealth recorded = recording(null);

    /** Attempts that record each call in {@link #attempts}, throwing {@code whenWritten} (if any) once written. */
    private WriterHealth recording(RuntimeException whenWritten) {
        return new WriterHealth(Clock.systemUTC(), false) {
            @Override
            public void failed(RuntimeException error) {
                attempts.add("failed");
            }

            @Override
            public void written(int events) {
                attempts.add("written " + events);
                if (whenWritten != null) {
                    throw whenWritten;
                }
            }
        };
    }

    @Test
    void shouldRetryATransientFailureAndSetAsideOnlyTheRowsPostgresqlRefuses() {
        BatchWriter retrying = new BatchWriter(transaction, writer, metrics, new FixedBackOff(1, 5), new StopSignal(), recorded);
        jdbc.execute("SELECT setval('test_attempts', 1, false)");
        UUID contended = UUID.randomUUID();
        UUID refused = UUID.randomUUID();
        UUID good = UUID.randomUUID();
        Instant occurredAt = Instant.now().minusSeconds(5);

        BatchWriter.Written<AssignmentUpdate> written = retrying.write(BatchReduction.reduce(List.of(
                AssignmentUpdate.changed(contended, "contended", "s", 1),
                AssignmentUpdate.changed(refused, "poison", "s", 1),
                AssignmentUpdate.changed(good, "w", "s", 1)), u -> u, u -> occurredAt));

        assertThat(attempts).containsExactly("failed", "written 3");
        assertThat(written.refused()).extracting(r -> r.item().caseId(), r -> r.rejection().reason())
                .containsExactly(org.assertj.core.groups.Tuple.tuple(refused, DatabaseRejection.INTEGRITY_VIOLATION));
        assertThat(written.result().insertedCases()).containsExactlyInAnyOrder(contended, good);
        assertThat(registry.get("case_assignments.batch.failures").counter().count()).isEqualTo(1);
        assertThat(registry.get("case_assignments.lag.end_to_end").timer().count()).isEqualTo(2);
        assertThat(registry.get("case_assignments.lag.end_to_end").timer().max(java.util.concurrent.TimeUnit.SECONDS))
                .isGreaterThanOrEqualTo(5);
    }

    @Test
    void shouldTellTheEndOfEachTransactionOfABatchIsolatedInMany() {
        // Given a transaction template that counts the transactions it runs, and a batch with a refused row
        java.util.concurrent.atomic.AtomicInteger transactions = new java.util.concurrent.atomic.AtomicInteger();
        TransactionTemplate counting = new TransactionTemplate(new DataSourceTransactionManager(DB.dataSource())) {
            @Override
            public <T> T execute(org.springframework.transaction.support.TransactionCallback<T> action) {
                transactions.incrementAndGet();
                return super.execute(action);
            }
        };
        java.util.concurrent.atomic.AtomicInteger ended = new java.util.concurrent.atomic.AtomicInteger();
        BatchWriter isolating = new BatchWriter(counting, writer, metrics, new FixedBackOff(1, 5), new StopSignal(),
                new WriterHealth(Clock.systemUTC(), false) {
                    @Override
                    public void transactionEnded() {
                        ended.incrementAndGet();
                    }
                });
        List<AssignmentUpdate> batch = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            batch.add(AssignmentUpdate.changed(UUID.randomUUID(), i == 5 ? "poison" : "w", "s", 1));
        }

        // When it is written: the refused row is found by bisection, in many transactions
        isolating.write(BatchReduction.reduce(batch, u -> u, u -> Instant.now()));

        // Then each of them was told ended, so liveness bounds each on its own, not their sum
        assertThat(transactions.get()).isGreaterThan(2);
        assertThat(ended.get()).isEqualTo(transactions.get());
    }

    @Test
    void shouldGiveUpOnATransientFailureWhenToldToStop() {
        BatchWriter stopping = new BatchWriter(transaction, writer, metrics, new FixedBackOff(1, 5), raised(), recorded);
        jdbc.execute("SELECT setval('test_attempts', 1, false)");

        assertThatThrownBy(() -> stopping.write(BatchReduction.reduce(List.of(AssignmentUpdate.changed(UUID.randomUUID(), "contended", "s", 1)))))
                .isInstanceOf(DataAccessException.class);
        assertThat(attempts).containsExactly("failed");
    }

    @Test
    void shouldKeepTheFirstOfTwoEventsAtOneRevisionInABatchOrAcrossBatchesAndCountEachConflict() {
        BatchWriter once = BatchWriter.once(transaction, writer, metrics);
        UUID sameBatch = UUID.randomUUID();
        UUID twoBatches = UUID.randomUUID();

        once.write(BatchReduction.reduce(List.of(AssignmentUpdate.changed(sameBatch, "w-first", "s", 3),
                AssignmentUpdate.changed(sameBatch, "w-second", "s", 3),
                AssignmentUpdate.changed(twoBatches, "w-first", "s", 3))));
        once.write(BatchReduction.reduce(List.of(AssignmentUpdate.changed(twoBatches, "w-second", "s", 3))));

        assertThat(worker(sameBatch)).isEqualTo(worker(twoBatches)).isEqualTo("w-first");
        assertThat(registry.get("case_assignments.events.conflicting").tag("stage", "batch").counter().count()).isEqualTo(1);
        assertThat(registry.get("case_assignments.events.conflicting").tag("stage", "database").counter().count())
                .isEqualTo(1);
    }

    @Test
    void shouldWriteEventsThatOccurredCenturiesAgoOnceAndRecordTheirLagAtTheBound() {
        BatchWriter retrying = new BatchWriter(transaction, writer, metrics, new FixedBackOff(1, 5), new StopSignal(), recorded);
        UUID first = UUID.randomUUID();
        UUID yearOne = UUID.randomUUID();
        Map<UUID, Instant> occurredAt = Map.of(first, StorableTime.FIRST, yearOne, Instant.parse("0001-01-01T00:00:00Z"));

        retrying.write(BatchReduction.reduce(List.of(AssignmentUpdate.changed(first, "w-first", "s", 1),
                AssignmentUpdate.changed(yearOne, "w-year-one", "s", 1)), u -> u, u -> occurredAt.get(u.caseId())));

        assertThat(attempts).containsExactly("written 2");
        assertThat(worker(first)).isEqualTo("w-first");
        assertThat(worker(yearOne)).isEqualTo("w-year-one");
        assertThat(registry.get("case_assignments.lag.end_to_end").timer().count()).isEqualTo(2);
        assertThat(registry.get("case_assignments.lag.end_to_end").timer().max(java.util.concurrent.TimeUnit.SECONDS))
                .isEqualTo(WriteMetrics.LONGEST_RECORDED_LAG.toSeconds());
    }

    @Test
    void shouldNotWriteABatchAgainWhenWhatFollowsItsCommitFails() {
        IllegalStateException afterCommit = new IllegalStateException("after the commit");
        BatchWriter retrying = new BatchWriter(transaction, writer, metrics, new FixedBackOff(1, 5), new StopSignal(),
                recording(afterCommit));
        UUID caseId = UUID.randomUUID();

        assertThatThrownBy(() -> retrying.write(BatchReduction.reduce(List.of(AssignmentUpdate.changed(caseId, "w", "s", 1)))))
                .isSameAs(afterCommit);

        assertThat(attempts).containsExactly("written 1");
        assertThat(registry.get("case_assignments.batch.failures").counter().count()).isZero();
        assertThat(worker(caseId)).isEqualTo("w");
    }

    private String worker(UUID caseId) {
        return jdbc.queryForObject("SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ?", String.class, caseId);
    }

    private static StopSignal raised() {
        StopSignal stop = new StopSignal();
        stop.raise();
        return stop;
    }
}
