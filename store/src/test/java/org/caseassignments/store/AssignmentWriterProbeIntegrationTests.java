package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

import org.caseassignments.testkit.RefusingTrigger;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The every-row probe rewrites a row the projection holds with its own values; with no row to probe there is no probe,
 * and rows refused alike are each set aside as their own refusal. Each test on a database of its own.
 */
class AssignmentWriterProbeIntegrationTests {

    private final TestDatabase db = TestDatabase.migrated();
    private final JdbcTemplate jdbc = db.jdbc();
    private final AssignmentWriter writer = new AssignmentWriter(jdbc);
    private final TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(db.dataSource()));

    @Test
    void shouldRewriteARowItHoldsWithItsOwnValuesAndChangeNothing() {
        // Given a case stored
        UUID stored = UUID.randomUUID();
        transaction.execute(status -> writer.apply(List.of(AssignmentUpdate.changed(stored, "w-stored", "s", 3)
                .withJurisdiction("north"))));
        Map<String, Object> before = jdbc.queryForMap("SELECT * FROM case_assignments WHERE case_id = ?", stored);

        // When the probe runs, committed
        boolean probed = transaction.execute(status -> writer.checkTakesARow(List.of(UUID.randomUUID())));

        // Then it probed that row, and the row holds what it held
        assertThat(probed).isTrue();
        assertThat(jdbc.queryForMap("SELECT * FROM case_assignments WHERE case_id = ?", stored)).isEqualTo(before);
    }

    @Test
    void shouldProbeNothingAndSetEveryRowRefusedAlikeAsideWhenTheProjectionHoldsNoRow() {
        // Given an empty projection and a trigger refusing every worker the batch carries
        List<AssignmentUpdate> batch = List.of(AssignmentUpdate.changed(UUID.randomUUID(), "w-1", "s", 1),
                AssignmentUpdate.changed(UUID.randomUUID(), "w-2", "s", 1));
        try (RefusingTrigger unknownWorkers = RefusingTrigger.refusingUnknownWorkers(jdbc, "known-")) {
            // When the batch is isolated with the probe
            BatchIsolation.Options options = new BatchIsolation.Options(true, refusal -> { },
                    BatchIsolation.Chunks.unlimited(), BatchIsolation.Options.LARGEST_BISECTED, () -> false,
                    refusedCases -> transaction.execute(status -> {
                        status.setRollbackOnly();
                        return writer.checkTakesARow(refusedCases);
                    }));
            BatchIsolation.Isolated<AssignmentUpdate> isolated = BatchIsolation.apply(batch, Function.identity(),
                    updates -> transaction.execute(status -> writer.apply(updates)), options);

            // Then there is no row to probe, and each row is set aside as its own refusal, as without a probe
            assertThat(isolated.refused()).extracting(r -> r.item().caseId(), r -> r.rejection().sqlState())
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(batch.get(0).caseId(), "P0001"),
                            org.assertj.core.groups.Tuple.tuple(batch.get(1).caseId(), "P0001"));
        }
    }
}
