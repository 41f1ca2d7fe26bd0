package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.caseassignments.testkit.RefusingTrigger;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.FixedBackOff;

/**
 * A batch whose every row the database refuses alike is the database's state, not every row's fault: with a trigger
 * refusing every row, nothing is set aside, the writer fails like an outage (naming the SQLSTATE), and once the trigger
 * lets rows through the same batch is applied whole. Rows each refused for themselves are still set aside, also when
 * the check refusing them would refuse made-up values too (a trigger refusing unknown workers, a policy refusing unknown
 * jurisdictions): the probe rewrites a row the projection holds with its own values.
 */
class BatchWriterEveryRowRefusedIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    static {
        DB.jdbc().execute("CREATE TABLE test_refuse_every_row (refusing boolean)");
        DB.jdbc().execute("""
                CREATE FUNCTION test_refuse_every_row() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF EXISTS (SELECT 1 FROM test_refuse_every_row) OR NEW.assigned_worker_sub = 'poison' THEN
                        RAISE EXCEPTION 'test trigger refuses case %', NEW.case_id;
                    END IF;
                    RETURN NEW;
                END $$""");
        DB.jdbc().execute("""
                CREATE TRIGGER test_refuse_every_row BEFORE INSERT OR UPDATE ON case_assignments
                   FOR EACH ROW EXECUTE FUNCTION test_refuse_every_row()""");
    }

    private final JdbcTemplate jdbc = DB.jdbc();
    private final TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(DB.dataSource()));
    private final WriteMetrics metrics = new WriteMetrics(new SimpleMeterRegistry(), "test");
    private final AssignmentWriter writer = new AssignmentWriter(jdbc);

    @AfterEach
    void letRowsThrough() {
        jdbc.update("DELETE FROM test_refuse_every_row");
    }

    @Test
    void shouldSetNothingAsideAndStopTheJobsWriterWhenEveryRowIsRefusedAlikeThenApplyTheWholeBatchOnceRowsGoThrough() {
        assertEveryRowRefusedThenApplied(BatchWriter.once(transaction, writer, metrics), 50);
    }

    @Test
    void shouldRetryLikeAnOutageInTheProjectorsWriterWhenEveryRowIsRefusedAlikeEvenInABatchOfOne() {
        BatchWriter retrying = new BatchWriter(transaction, writer, metrics, new FixedBackOff(1, 8), new StopSignal(),
                WriterHealth.unwatched());
        assertEveryRowRefusedThenApplied(retrying, 50);
        assertEveryRowRefusedThenApplied(retrying, 1);
    }

    @Test
    void shouldStillSetAsideRowsEachRefusedForThemselvesWhenTheyAreAllTheBatchHolds() {
        List<AssignmentUpdate> batch = List.of(AssignmentUpdate.changed(UUID.randomUUID(), "poison", "s", 1),
                AssignmentUpdate.changed(UUID.randomUUID(), "poison", "s", 1));

        BatchWriter.Written<AssignmentUpdate> written = BatchWriter.once(transaction, writer, metrics).write(BatchReduction.reduce(batch));

        assertThat(written.refused()).extracting(r -> r.rejection().sqlState()).containsExactly("P0001", "P0001");
    }

    @Test
    void shouldSetNothingAsideWhenATriggerRefusesEveryUpdateOfTheWorkerThoughItTakesEveryInsert() {
        // Given cases stored, and a trigger refusing every update of a worker (inserts go through)
        List<AssignmentUpdate> stored = new ArrayList<>();
        List<AssignmentUpdate> moved = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            UUID caseId = UUID.randomUUID();
            stored.add(AssignmentUpdate.changed(caseId, "w-" + i, "s", 1));
            moved.add(AssignmentUpdate.changed(caseId, "moved-" + i, "s", 2));
        }
        BatchWriter once = BatchWriter.once(transaction, writer, metrics);
        assertThat(once.write(BatchReduction.reduce(stored)).refused()).isEmpty();
        storedCase(once, "north"); // the last case it committed, none of those that move: the row it probes
        jdbc.execute("""
                CREATE FUNCTION test_refuse_every_update() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE EXCEPTION 'test trigger refuses every update of case %', NEW.case_id;
                END $$""");
        jdbc.execute("""
                CREATE TRIGGER test_refuse_every_update BEFORE UPDATE OF assigned_worker_sub ON case_assignments
                   FOR EACH ROW EXECUTE FUNCTION test_refuse_every_update()""");
        try {
            // When the cases move: it fails as the database's state, and nothing is set aside
            assertThatThrownBy(() -> once.write(BatchReduction.reduce(moved))).isInstanceOf(BatchIsolation.EveryRowRefused.class);
        } finally {
            jdbc.execute("DROP TRIGGER test_refuse_every_update ON case_assignments");
            jdbc.execute("DROP FUNCTION test_refuse_every_update()");
        }

        // And once updates go through, the same batch is applied whole
        assertThat(once.write(BatchReduction.reduce(moved)).refused()).isEmpty();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignments WHERE case_id = ANY (?::uuid[]) "
                + "AND assignment_revision = 2", Integer.class,
                (Object) moved.stream().map(u -> u.caseId().toString()).toArray(String[]::new))).isEqualTo(3);
    }

    @Test
    void shouldSetARowRefusedAloneAsideAndMoveOnWhenTheProbedRowIsRefusedWithAnotherSqlstateWhichSaysNothingOfTheRows() {
        // Given a case the writer committed, and a trigger refusing every update with a SQLSTATE no event is refused with
        BatchWriter once = BatchWriter.once(transaction, writer, metrics);
        storedCase(once, "north");
        jdbc.execute("""
                CREATE FUNCTION test_refuse_probe() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE EXCEPTION 'test trigger refuses every update' USING ERRCODE = 'insufficient_privilege';
                END $$""");
        jdbc.execute("""
                CREATE TRIGGER test_refuse_probe BEFORE UPDATE ON case_assignments
                   FOR EACH ROW EXECUTE FUNCTION test_refuse_probe()""");
        try {
            AssignmentUpdate poison = AssignmentUpdate.changed(UUID.randomUUID(), "poison", "s", 1);
            AssignmentUpdate next = AssignmentUpdate.changed(UUID.randomUUID(), "w-next", "s", 1);

            // When a batch of one new case the trigger of this class refuses (P0001) is written: the probe's rewrite
            // of the stored row is refused with 42501
            BatchWriter.Written<AssignmentUpdate> written = once.write(BatchReduction.reduce(List.of(poison)));

            // Then that event is set aside with its own SQLSTATE, and the next batch is written
            assertThat(written.refused()).extracting(r -> r.item().caseId(), r -> r.rejection().sqlState())
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(poison.caseId(), "P0001"));
            assertThat(once.write(BatchReduction.reduce(List.of(next))).refused()).isEmpty();
            assertThat(stored(List.of(next))).isEqualTo(1);
        } finally {
            jdbc.execute("DROP TRIGGER test_refuse_probe ON case_assignments");
            jdbc.execute("DROP FUNCTION test_refuse_probe()");
        }
    }

    @Test
    void shouldSetAsideTheOneEventATriggerRefusesForAnUnknownWorkerAndWriteTheNextBatchesWithoutStalling() {
        // Given a case the writer committed, and a trigger refusing every worker it does not know
        BatchWriter projectors = projectorsWriter(transaction, writer);
        storedCase(projectors, "north");
        try (RefusingTrigger unknownWorkers = RefusingTrigger.refusingUnknownWorkers(jdbc, "w-")) {
            assertOneEventSetAsideAndTheNextWritten(projectors,
                    AssignmentUpdate.changed(UUID.randomUUID(), "unknown-worker", "s", 1), "P0001");
        }
    }

    @Test
    void shouldSetAsideTheOneEventAPolicyRefusesForAnUnknownJurisdictionAndWriteTheNextBatchesWithoutStalling() {
        // Given a writer that is no superuser (who passes every policy), a case it committed, and a row-security policy
        // taking known jurisdictions only
        String role = "writer_" + UUID.randomUUID().toString().substring(0, 8);
        jdbc.execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + role + "'");
        jdbc.execute("GRANT USAGE ON SCHEMA public TO " + role);
        jdbc.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO " + role);
        jdbc.execute("GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO " + role);
        // (an embedded server's URL names its user too, which would win over the username)
        DriverManagerDataSource asRole = new DriverManagerDataSource(
                DB.jdbcUrl().replaceAll("([?&])user=[^&]*", "$1user=" + role), role, role);
        BatchWriter projectors = projectorsWriter(new TransactionTemplate(new DataSourceTransactionManager(asRole)),
                new AssignmentWriter(new JdbcTemplate(asRole)));
        storedCase(projectors, "north");
        jdbc.execute("ALTER TABLE case_assignments ENABLE ROW LEVEL SECURITY");
        jdbc.execute("""
                CREATE POLICY test_known_jurisdictions ON case_assignments USING (true)
                  WITH CHECK (jurisdiction IN ('north', 'south'))""");
        try {
            assertOneEventSetAsideAndTheNextWritten(projectors,
                    AssignmentUpdate.changed(UUID.randomUUID(), "w-elsewhere", "s", 1).withJurisdiction("elsewhere"),
                    "42501");
        } finally {
            jdbc.execute("DROP POLICY test_known_jurisdictions ON case_assignments");
            jdbc.execute("ALTER TABLE case_assignments DISABLE ROW LEVEL SECURITY");
            jdbc.execute("DROP OWNED BY " + role);
            jdbc.execute("DROP ROLE " + role);
        }
    }

    @Test
    void shouldSetAsideTheOneEventATriggerRefusesAndNotProbeARowTheWriterDidNotCommitThoughTheTriggerRefusesItToo() {
        // Given an old case stored by another writer, and a trigger added since that refuses its worker too
        assertThat(BatchWriter.once(transaction, writer, metrics)
                .write(BatchReduction.reduce(List.of(AssignmentUpdate.changed(UUID.randomUUID(), "old-worker", "s", 1)))).refused()).isEmpty();
        try (RefusingTrigger unknownWorkers = RefusingTrigger.refusingUnknownWorkers(jdbc, "w-")) {
            // When a fresh projector's writer, which committed no case yet, writes a live batch of one event the
            // trigger refuses: no row it took to probe, so no probe
            assertOneEventSetAsideAndTheNextWritten(projectorsWriter(transaction, writer),
                    AssignmentUpdate.changed(UUID.randomUUID(), "unknown-worker", "s", 1), "P0001");
        }
    }

    @Test
    void shouldSetAsideTheOneEventATriggerRefusesWhenTheProbedRowIsSilentlyNotWrittenWhichSaysNothingOfTheRows() {
        // Given a case the writer committed, and PostgreSQL's own trigger that drops an update writing the values a row
        // holds (the probe's rewrite of that row is silently not written)
        BatchWriter projectors = projectorsWriter(transaction, writer);
        storedCase(projectors, "north");
        jdbc.execute("""
                CREATE TRIGGER test_suppress_redundant BEFORE UPDATE ON case_assignments
                   FOR EACH ROW EXECUTE FUNCTION suppress_redundant_updates_trigger()""");
        try {
            // When a live batch of one event the class's trigger refuses (P0001) is written, then the next
            assertOneEventSetAsideAndTheNextWritten(projectors,
                    AssignmentUpdate.changed(UUID.randomUUID(), "poison", "s", 1), "P0001");
        } finally {
            jdbc.execute("DROP TRIGGER test_suppress_redundant ON case_assignments");
        }
    }

    /**
     * A live batch of one event the database refuses for itself, written by the projector's writer: it is set aside
     * with its SQLSTATE (not retried as a refusal of every row), and the next live batch is written.
     */
    private void assertOneEventSetAsideAndTheNextWritten(BatchWriter projectors, AssignmentUpdate refused,
                                                         String sqlState) {
        AssignmentUpdate next = AssignmentUpdate.changed(UUID.randomUUID(), "w-next", "s", 1).withJurisdiction("south");

        BatchWriter.Written<AssignmentUpdate> written = projectors.write(BatchReduction.reduce(List.of(refused)));

        assertThat(written.refused()).extracting(r -> r.item().caseId(), r -> r.rejection().sqlState())
                .containsExactly(org.assertj.core.groups.Tuple.tuple(refused.caseId(), sqlState));
        assertThat(projectors.write(BatchReduction.reduce(List.of(next))).refused()).isEmpty();
        assertThat(stored(List.of(refused))).isZero();
        assertThat(stored(List.of(next))).isEqualTo(1);
    }

    /** The projector's writer: retries a failure of the database's state, isolates a refusal that persists. */
    private BatchWriter projectorsWriter(TransactionTemplate transaction, AssignmentWriter writer) {
        return new BatchWriter(transaction, writer, metrics, new FixedBackOff(1, 8), new StopSignal(),
                WriterHealth.unwatched());
    }

    /** A case {@code batchWriter} commits before a check is added: the row its probe rewrites. */
    private void storedCase(BatchWriter batchWriter, String jurisdiction) {
        AssignmentUpdate stored = AssignmentUpdate.changed(UUID.randomUUID(), "w-stored", "s", 1)
                .withJurisdiction(jurisdiction);
        assertThat(batchWriter.write(BatchReduction.reduce(List.of(stored))).refused()).isEmpty();
    }

    private void assertEveryRowRefusedThenApplied(BatchWriter batchWriter, int rows) {
        // Given a case the writer committed, then a database whose trigger refuses every row
        storedCase(batchWriter, "north");
        jdbc.update("INSERT INTO test_refuse_every_row VALUES (true)");
        List<AssignmentUpdate> batch = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            batch.add(AssignmentUpdate.changed(UUID.randomUUID(), "w-" + i, "s", 1));
        }

        // When the batch is written: it fails as the database's state, naming the SQLSTATE, and nothing is set aside
        assertThatThrownBy(() -> batchWriter.write(BatchReduction.reduce(batch))).isInstanceOfSatisfying(BatchIsolation.EveryRowRefused.class,
                failure -> {
                    assertThat(failure.sqlState()).isEqualTo("P0001");
                    assertThat(failure.getMessage()).contains("SQLSTATE P0001");
                });
        assertThat(stored(batch)).isZero();

        // When the database takes rows again, the same batch is applied whole
        jdbc.update("DELETE FROM test_refuse_every_row");
        BatchWriter.Written<AssignmentUpdate> written = batchWriter.write(BatchReduction.reduce(batch));
        assertThat(written.refused()).isEmpty();
        assertThat(stored(batch)).isEqualTo(rows);
    }

    private int stored(List<AssignmentUpdate> batch) {
        return jdbc.queryForObject("SELECT count(*) FROM case_assignments WHERE case_id = ANY (?::uuid[])", Integer.class,
                (Object) batch.stream().map(u -> u.caseId().toString()).toArray(String[]::new));
    }
}
