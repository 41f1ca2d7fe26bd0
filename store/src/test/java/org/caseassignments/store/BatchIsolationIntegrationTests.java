package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

class BatchIsolationIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    private final JdbcTemplate jdbc = DB.jdbc();
    private final AssignmentWriter writer = new AssignmentWriter(jdbc);
    private final TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(DB.dataSource()));

    static {
        // A value the events may carry but this database refuses, as PostgreSQL refuses a NUL or a too long string.
        DB.jdbc().execute("ALTER TABLE case_assignments ADD CONSTRAINT test_reject CHECK (assigned_worker_sub <> 'poison')");
    }

    @Test
    void shouldApplyEveryGoodUpdateAndReturnOnlyTheOnesPostgresqlRefuses() {
        // Given a batch of 40 cases where two carry a value the database refuses
        List<AssignmentUpdate> batch = new ArrayList<>(IntStream.range(0, 40)
                .mapToObj(i -> AssignmentUpdate.changed(UUID.randomUUID(), "w-" + i, "s", 1)).toList());
        batch.set(7, AssignmentUpdate.changed(batch.get(7).caseId(), "poison", "s", 1));
        batch.set(31, AssignmentUpdate.changed(batch.get(31).caseId(), "poison", "s", 1));
        List<Integer> transactions = new ArrayList<>();

        // When
        BatchIsolation.Isolated<AssignmentUpdate> isolated = BatchIsolation.apply(batch, Function.identity(), updates -> {
            transactions.add(updates.size());
            return transaction.execute(status -> writer.apply(updates));
        });

        // Then the two are refused with the constraint's SQLSTATE, and the 38 others are in the projection
        assertThat(isolated.refused()).extracting(refused -> refused.item().caseId())
                .containsExactly(batch.get(7).caseId(), batch.get(31).caseId());
        assertThat(isolated.refused()).allSatisfy(refused -> {
            assertThat(refused.rejection().reason()).isEqualTo(DatabaseRejection.INTEGRITY_VIOLATION);
            assertThat(refused.rejection().sqlState()).isEqualTo("23514");
        });
        assertThat(isolated.result().insertedCases()).hasSize(38);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignments WHERE case_id = ANY (?::uuid[])", Long.class,
                (Object) batch.stream().map(u -> u.caseId().toString()).toArray(String[]::new))).isEqualTo(38L);
        // and finding them took a logarithmic number of transactions, not one per row
        assertThat(transactions.size()).isLessThan(2 * 2 * 7);
    }

    @Test
    void shouldRethrowATransientFailureWithoutSettingAnythingAside() {
        List<AssignmentUpdate> batch = List.of(AssignmentUpdate.changed(UUID.randomUUID(), "w", "s", 1));

        assertThatThrownBy(() -> BatchIsolation.apply(batch, Function.identity(),
                updates -> transaction.execute(status -> {
                    jdbc.execute("DO $$ BEGIN RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01'; END $$");
                    return writer.apply(updates);
                }))).isInstanceOf(DataAccessException.class);
    }
}
